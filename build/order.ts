// The one order of names in the build's output. Names sort as people expect ("University of the Free State"
// before "University of Zululand"); the collator is fixed to English so the order, and so the output bytes, do
// not depend on the machine's locale.
const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
export const byText = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
