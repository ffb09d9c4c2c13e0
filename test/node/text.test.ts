// The one text normalisation of name search (lib/text.ts), used by the build's find indexes and the
// Worker's queries alike.
import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { describe, expect, it } from "vitest";
import { foldText, hasWordStartingWith, searchKey, searchWords } from "../../lib/text.ts";

describe("foldText and searchWords", () => {
  it("ignores case and accents: HOËRSKOOL, Hoërskool and hoerskool are one word", () => {
    for (const text of ["HOËRSKOOL", "Hoërskool", "hoerskool", "HOERSKOOL", "HOëRSKOOL", "hoe\u0308rskool"]) {
      expect(searchWords(text), text).toEqual(["hoerskool"]);
    }
    expect(foldText("Cillié, Ñandú, Zoë, Ångström, İstanbul")).toBe("cillie, nandu, zoe, angstrom, istanbul");
  });

  it("splits words at anything that is not a letter or digit", () => {
    expect(searchWords("PRETORIA BOYS' HIGH SCHOOL")).toEqual(["pretoria", "boys", "high", "school"]);
    expect(searchWords("D.F. MALAN HOËRSKOOL")).toEqual(["d", "f", "malan", "hoerskool"]);
    expect(searchWords("  Hillcrest   Ext-2 /(Pty)  ")).toEqual(["hillcrest", "ext", "2", "pty"]);
    expect(searchWords("Bachelor of Science (BSc) in Computer Science")).toEqual(["bachelor", "of", "science", "bsc", "in", "computer", "science"]);
    expect(searchWords("")).toEqual([]);
    expect(searchWords(" -- !! ")).toEqual([]);
  });

  it("keeps letters of other scripts, including stray halfwidth katakana from badly converted sources", () => {
    // The DBE's Western Cape file has "HOﾋRSKOOL" (U+FF8B in place of Ë); it is a letter, so the word stays whole.
    // (NFKD writes the halfwidth form as the full one, U+30D2, in the names and in queries alike.)
    expect(searchWords("LOUWVILLE HOﾋRSKOOL")).toEqual(["louwville", "hoヒrskool"]);
    expect(searchWords("isiZulu: Isikole Samabanga Aphezulu; 学校 ２０２６")).toEqual([
      "isizulu",
      "isikole",
      "samabanga",
      "aphezulu",
      "学校",
      "2026",
    ]);
  });

  it("folds compatibility forms (NFKD): fullwidth letters and digits, ligatures, letterlike symbols", () => {
    expect(searchWords("ＨＯＥＲＳＫＯＯＬ ＯＵＴＥＮＩＱＵＡ")).toEqual(["hoerskool", "outeniqua"]);
    expect(searchWords("ＨＯËＲＳＫＯＯＬ")).toEqual(["hoerskool"]);
    expect(searchWords("Graaﬀ-Reinet Oﬃce ℌigh Ｓchool ２０２６")).toEqual(["graaff", "reinet", "office", "high", "school", "2026"]);
  });

  it("searchKey joins the words with single spaces", () => {
    expect(searchKey("  University of the Witwatersrand, Johannesburg ")).toBe("university of the witwatersrand johannesburg");
  });

  it("hasWordStartingWith finds a word by its start only", () => {
    const key = searchKey("Pretoria Boys' High School");
    expect(hasWordStartingWith(key, "pretoria")).toBe(true);
    expect(hasWordStartingWith(key, "boy")).toBe(true);
    expect(hasWordStartingWith(key, "sch")).toBe(true);
    expect(hasWordStartingWith(key, "oys")).toBe(false);
    expect(hasWordStartingWith(key, "toria")).toBe(false);
  });
});

describe("any Unicode at all", () => {
  it("never throws, and what comes out is lower-case, unaccented, space-free words", () => {
    // "binary" strings hold unpaired surrogates too.
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        const words = searchWords(text);
        for (const word of words) {
          expect(word).toMatch(/^[\p{L}\p{N}]+$/u);
          expect(word).not.toMatch(/\p{M}/u);
          expect(word).toBe(word.toLowerCase());
        }
        expect(searchKey(text).split(" ").filter(Boolean)).toEqual(words);
        expect(searchWords(searchKey(text))).toEqual(words);
      }),
      { numRuns: runs(500) },
    );
  });

  it("folds ASCII text (its shortcut: lower case only) as the full decomposition would", () => {
    const fullFold = (text: string) =>
      text
        .normalize("NFKD")
        .toLowerCase()
        .normalize("NFKD")
        .replace(/\p{M}+/gu, "");
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), maxLength: 60 }), (text) => {
        expect(foldText(text)).toBe(fullFold(text));
      }),
      { numRuns: runs(500) },
    );
    expect(foldText("Hoërskool")).toBe(fullFold("Hoërskool"));
  });

  it("folding is idempotent: a folded name and a query folded again always compare equal", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
        expect(foldText(foldText(text))).toBe(foldText(text));
        expect(searchKey(foldText(text))).toBe(searchKey(text));
        expect(searchKey(searchKey(text))).toBe(searchKey(text));
      }),
      { numRuns: runs(500) },
    );
  });
});
