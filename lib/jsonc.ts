// JSON with comments (wrangler.jsonc): `//` and `/* */` comments and trailing commas, outside strings, are
// dropped and the rest parsed as JSON. For the few commands that read one setting from wrangler.jsonc and
// should not pay for importing wrangler (its unstable_readConfig is what the tests compare this with).

/** `text` with comments and trailing commas removed; strings are copied as they are. */
function stripJsonc(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonc(text));
}
