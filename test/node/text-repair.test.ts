// The repair of characters a legacy code page mis-decoded upstream (importers/text-repair.ts).
import { describe, expect, it } from "vitest";
import { hasMisdecodedCharacter, RepairCounter, repairAccentCase, repairMisdecoded, shiftJisByte } from "../../importers/text-repair.ts";

describe("halfwidth katakana from a Windows-1252 name read as Shift-JIS", () => {
  it("maps each halfwidth katakana character back to the byte it was decoded from", () => {
    expect(shiftJisByte("ｱ")).toBe(0xb1);
    expect(shiftJisByte("ﾊ")).toBe(0xca);
    expect(shiftJisByte("ﾋ")).toBe(0xcb);
    expect(shiftJisByte("｡")).toBe(0xa1);
    expect(shiftJisByte("ﾟ")).toBe(0xdf);
    expect(shiftJisByte("A")).toBeNull();
    expect(shiftJisByte("Ë")).toBeNull();
  });

  it("repairs the Western Cape workbook's names: ﾋ is Ë, ﾊ is Ê", () => {
    expect(repairMisdecoded("LOUWVILLE HOﾋRSKOOL")).toEqual({ text: "LOUWVILLE HOËRSKOOL", repairs: [{ from: "ﾋ", to: "Ë" }], unrepaired: [] });
    expect(repairMisdecoded("BEAUFORT WEST PRIMﾊRE SKOOL").text).toBe("BEAUFORT WEST PRIMÊRE SKOOL");
    expect(repairMisdecoded("STEINTHAL SEKONDﾊR").text).toBe("STEINTHAL SEKONDÊR");
  });

  it("repairs every upper-case accented letter the rule covers (bytes 0xC0-0xDF but ×)", () => {
    const katakana = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0xff61 + 0xc0 - 0xa1 + i)).join("");
    const { text, unrepaired } = repairMisdecoded(katakana);
    expect(text).toBe("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖﾗØÙÚÛÜÝÞß");
    expect(unrepaired).toEqual(["ﾗ"]); // 0xD7 is ×, not a letter
  });

  it("leaves characters that would become symbols, and reports them", () => {
    expect(repairMisdecoded("FIXTURE ｱ SKOOL")).toEqual({ text: "FIXTURE ｱ SKOOL", repairs: [], unrepaired: ["ｱ"] });
    expect(hasMisdecodedCharacter("FIXTURE ｱ SKOOL")).toBe(true);
  });

  it("leaves correct text alone, Afrikaans diacritics included", () => {
    for (const name of ["HOËRSKOOL BRANDWAG", "Primêre Skool Dirkie Uys", "MÔRELIG", "GLÜCKSTADT", "Queen’s College", ""]) {
      expect(repairMisdecoded(name)).toEqual({ text: name, repairs: [], unrepaired: [] });
      expect(hasMisdecodedCharacter(name)).toBe(false);
    }
  });

  it("counts repairs per kind and the texts repaired", () => {
    const counter = new RepairCounter();
    expect(["PROTEA HOﾋRSKOOL", "HOﾋR TEGNIESE SKOOL PRIMﾊRE", "PLAIN HIGH"].map((t) => counter.repair(t))).toEqual([
      "PROTEA HOËRSKOOL",
      "HOËR TEGNIESE SKOOL PRIMÊRE",
      "PLAIN HIGH",
    ]);
    expect(counter.texts).toBe(2);
    expect(counter.repaired).toEqual({ "ﾋ -> Ë": 2, "ﾊ -> Ê": 1 });
    expect(counter.unrepaired).toEqual({});
  });
});

describe("accented letters left small in words written in capitals (the DBE's HOëRSKOOL)", () => {
  it("puts them in capitals where the word's other letters are capitals", () => {
    expect(repairAccentCase("HOëRSKOOL BRANDWAG")).toEqual({ text: "HOËRSKOOL BRANDWAG", repairs: [{ from: "ë", to: "Ë" }], unrepaired: [] });
    expect(repairAccentCase("HOëRSKOOL CILLIé").text).toBe("HOËRSKOOL CILLIÉ");
    expect(repairAccentCase("JIM FOUCHé S/S").text).toBe("JIM FOUCHÉ S/S");
    expect(repairAccentCase("HOëRSKOOL McLACHLAN").text).toBe("HOËRSKOOL McLACHLAN");
  });

  it("leaves words written in small or mixed letters as they are, and letters with no single capital", () => {
    for (const text of ["Hoërskool Rustenburg", "kwaZAKHELE HIGH SCHOOL", "McCARTHY", "Die Hoërskool Magpos", "straße", "STRAßE", "é", "ÉCOLE"]) {
      expect(repairAccentCase(text), text).toEqual({ text, repairs: [], unrepaired: [] });
    }
  });

  it("is counted with the other repairs", () => {
    const counter = new RepairCounter();
    expect(counter.repair("VAALRIVIER HOëRSKOOL")).toBe("VAALRIVIER HOËRSKOOL");
    expect(counter.repair("LOUWVILLE HOﾋRSKOOL")).toBe("LOUWVILLE HOËRSKOOL");
    expect(counter.repaired).toEqual({ "ë -> Ë": 1, "ﾋ -> Ë": 1 });
    expect(counter.texts).toBe(2);
  });
});
