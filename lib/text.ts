// Text normalisation for name search, shared by the build (which writes folded names into the find
// indexes) and the Worker (which folds the query the same way), so both sides always agree.
//
// Folding: compatibility decomposition (NFKD), lower-case, NFKD again, and the combining marks removed, so
// "HOËRSKOOL", "Hoërskool", "hoerskool" and the fullwidth "ＨＯＥＲＳＫＯＯＬ" a phone keyboard may type are the
// same word (NFKD also maps ligatures such as "ﬁ" to "fi" and superscript digits to digits). Words are runs of letters and digits
// (Unicode \p{L} and \p{N}); everything else separates them ("D.F. MALAN" is d, f, malan; "BOYS'" is
// boys). Nothing here is clever about abbreviations ("St" and "Saint" stay different words).
//
// Any string is accepted: unpaired surrogates, stray halfwidth katakana from badly converted sources
// (U+FF61-FF9F, which are letters and so stay inside their word), emoji and control characters never
// throw; characters that are neither letters nor digits simply separate words.

const COMBINING_MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII character, control characters included
const ASCII = /^[\u0000-\u007f]*$/;

/** Lower-cased, accents removed; the rest of the text (spaces, punctuation) is left as it was. */
export function foldText(text: string): string {
  // ASCII decomposes to itself and holds no marks: lower-casing is all folding does to it (most names, every query
  // typed on a plain keyboard).
  if (ASCII.test(text)) return text.toLowerCase();
  // Decomposed before lower-casing, since a compatibility form may stand for a capital ("ℌ" is "H"), and
  // again after it, since some capitals lower-case to a letter plus a combining mark ("İ" is "i̇"); the
  // marks are then removed along with every accent. Folding twice gives what folding once does.
  return text.normalize("NFKD").toLowerCase().normalize("NFKD").replace(COMBINING_MARKS, "");
}

/** The folded words of a text, in order. */
export function searchWords(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

/** The folded words joined by single spaces: the form names are stored in, and compared in, for search. */
export function searchKey(text: string): string {
  return searchWords(text).join(" ");
}

/** Does `key` (a searchKey) hold a word that starts with `word` (a folded word)? */
export function hasWordStartingWith(key: string, word: string): boolean {
  return key.startsWith(word) || key.includes(` ${word}`);
}
