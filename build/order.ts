// The one order of names in the build's output. Names sort as people expect ("University of the Free State"
// before "University of Zululand"); the collator is fixed to English so the order, and so the output bytes, do
// not depend on the machine's locale.
const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
export const byText = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * `records` sorted by `first` (byText), then by `rest` among records with the same first text: grouped by their
 * first text, the distinct texts sorted and each group sorted apart. The same order as one sort comparing
 * byText(first) || rest, since byText says two texts are equal only when they are the same string; with far fewer
 * comparisons of texts where many records share one (21,000 postal codes in 1,061 areas: 40 ms against 80 to 110).
 */
export function sortGrouped<T>(records: readonly T[], first: (record: T) => string, rest: (a: T, b: T) => number): T[] {
  const groups = groupBy(records, first);
  const sorted: T[] = [];
  for (const text of [...groups.keys()].sort(byText)) for (const record of (groups.get(text) ?? []).sort(rest)) sorted.push(record);
  return sorted;
}

/** The values by key, each group in the order the values came. */
export function groupBy<V>(values: Iterable<V>, keyOf: (value: V) => string): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
