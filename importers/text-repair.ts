// Repairs characters that a legacy code page turned into something else upstream. The DBE's Western Cape
// workbook stores `LOUWVILLE HOﾋRSKOOL` for `LOUWVILLE HOËRSKOOL`: the name was written in Windows-1252
// (where Ë is the byte 0xCB) and read back somewhere as Shift-JIS, where the single bytes 0xA1-0xDF are the
// halfwidth katakana U+FF61-U+FF9F (0xCB is ﾋ). The rule undoes exactly that: a halfwidth katakana
// character goes back to its byte, and the byte is read as Windows-1252. Only the bytes that are letters
// there (0xC0-0xDF except 0xD7 ×: À..ß, the upper-case accented letters of Afrikaans, French and German
// names) are repaired; a katakana character that would become a symbol (¡, £, ×, ...) is left as it is and
// reported, because no rule can say what it stood for. Japanese text never occurs in these files, so a
// halfwidth katakana character is always a mis-decoded byte.
// And accented letters left small in words written in capitals (`HOëRSKOOL`: repairAccentCase, below).
// Pure: text in, text and the repairs made out. Tests: test/node/text-repair.test.ts.

const HALFWIDTH_KATAKANA_FIRST = 0xff61; // the Shift-JIS single byte 0xA1
const HALFWIDTH_KATAKANA_LAST = 0xff9f; // the Shift-JIS single byte 0xDF
const SHIFT_JIS_FIRST_BYTE = 0xa1;

/** The Windows-1252 byte a halfwidth katakana character was decoded from (0xA1..0xDF), or null. */
export function shiftJisByte(char: string): number | null {
  const code = char.codePointAt(0) ?? 0;
  if (code < HALFWIDTH_KATAKANA_FIRST || code > HALFWIDTH_KATAKANA_LAST) return null;
  return code - HALFWIDTH_KATAKANA_FIRST + SHIFT_JIS_FIRST_BYTE;
}

/** The letter the byte stands for in Windows-1252 (which equals Latin-1 from 0xA0 on), or null for a symbol. */
function latinLetter(byte: number): string | null {
  if (byte < 0xc0 || byte > 0xdf || byte === 0xd7) return null;
  return String.fromCharCode(byte);
}

type TextRepair = { from: string; to: string };

/** What one repair pass found: the repairs made, and the mis-decoded characters left because no rule covers them. */
export type RepairResult = { text: string; repairs: TextRepair[]; unrepaired: string[] };

export function repairMisdecoded(text: string): RepairResult {
  const repairs: TextRepair[] = [];
  const unrepaired: string[] = [];
  let changed = false;
  let out = "";
  for (const char of text) {
    const byte = shiftJisByte(char);
    if (byte === null) {
      out += char;
      continue;
    }
    const letter = latinLetter(byte);
    if (letter === null) {
      unrepaired.push(char);
      out += char;
      continue;
    }
    repairs.push({ from: char, to: letter });
    out += letter;
    changed = true;
  }
  return { text: changed ? out : text, repairs, unrepaired };
}

/**
 * Accented letters left small in a word written in capitals: the DBE's Eastern Cape, Free State, Northern Cape
 * and North West workbooks write `HOëRSKOOL BRANDWAG`, `HOëRSKOOL CILLIé`, `JIM FOUCHé S/S` (18 names in the
 * 2024 files; an upper-casing that skipped non-ASCII letters, upstream). A word whose unaccented letters are all
 * capitals (at least one) gets its small accented letters in capitals too: `HOËRSKOOL`, `CILLIÉ`. Words with a
 * small unaccented letter are left as written (`McLACHLAN`, `kwaZAKHELE`, `Hoërskool Rustenburg`), and so is a
 * letter with no single capital (`ß`).
 */
export function repairAccentCase(text: string): RepairResult {
  const repairs: TextRepair[] = [];
  const repaired = text.replace(/\p{L}+/gu, (word) => {
    if (/[a-z]/.test(word) || !/[A-Z]/.test(word)) return word;
    return [...word]
      .map((char) => {
        const upper = char.toUpperCase();
        if (upper === char || [...upper].length !== 1) return char;
        repairs.push({ from: char, to: upper });
        return upper;
      })
      .join("");
  });
  return { text: repaired, repairs, unrepaired: [] };
}

/** Halfwidth katakana anywhere in the text (what the repair rule covers, repaired or not). */
export function hasMisdecodedCharacter(text: string): boolean {
  return /[\uff61-\uff9f]/u.test(text);
}

/** Counts of repairs per kind (`ﾋ -> Ë`) and of characters left unrepaired, summed over many texts. */
export class RepairCounter {
  readonly repaired: Record<string, number> = {};
  readonly unrepaired: Record<string, number> = {};
  /** Texts (e.g. school names) that had at least one repair. */
  texts = 0;

  /** Repairs the text (mis-decoded characters, then the case of accented letters), counts what was done, and returns the repaired text. */
  repair(text: string): string {
    const decoded = repairMisdecoded(text);
    const cased = repairAccentCase(decoded.text);
    const repairs = [...decoded.repairs, ...cased.repairs];
    if (repairs.length > 0) this.texts += 1;
    for (const { from, to } of repairs) this.repaired[`${from} -> ${to}`] = (this.repaired[`${from} -> ${to}`] ?? 0) + 1;
    for (const char of decoded.unrepaired) this.unrepaired[char] = (this.unrepaired[char] ?? 0) + 1;
    return cased.text;
  }
}
