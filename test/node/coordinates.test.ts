import { describe, expect, it } from "vitest";
import {
  insideBox,
  parseCoordinateCell,
  PROVINCE_BOXES,
  PROVINCE_MARGIN_DEGREES,
  repairCoordinates,
  SOUTH_AFRICA,
  type ProvinceId,
} from "../../importers/coordinates.ts";

describe("parseCoordinateCell", () => {
  it("reads decimal points and decimal commas", () => {
    expect(parseCoordinateCell("-33.940894")).toEqual({ kind: "number", value: -33.940894, lostDecimal: false });
    expect(parseCoordinateCell(" -31,15778 ")).toEqual({ kind: "number", value: -31.15778, lostDecimal: false });
  });

  it("puts a lost decimal point back after the second digit", () => {
    expect(parseCoordinateCell("-2907075")).toEqual({ kind: "number", value: -29.07075, lostDecimal: true });
    expect(parseCoordinateCell("302256174737038")).toEqual({ kind: "number", value: 30.2256174737038, lostDecimal: true });
  });

  it("treats the DBE's unknown markers as blank, a stray quote as misalignment, and text as unparseable", () => {
    for (const blank of ["", "  ", "NULL", "N/A", "-", ".", "99"]) expect(parseCoordinateCell(blank).kind).toBe("blank");
    expect(parseCoordinateCell('"18').kind).toBe("misaligned");
    expect(parseCoordinateCell('325"').kind).toBe("misaligned");
    expect(parseCoordinateCell("CITY OF CAPE TOWN").kind).toBe("unparseable");
    expect(parseCoordinateCell("18,675,325").kind).toBe("unparseable");
  });
});

describe("repairCoordinates", () => {
  it("passes a good pair through, rounded to 6 decimals", () => {
    expect(repairCoordinates("18.4897041234", "-33.9408944321", "western-cape")).toEqual({
      latitude: -33.940894,
      longitude: 18.489704,
      outcome: "ok",
    });
  });

  it("swaps a pair whose latitude sits in the longitude column", () => {
    expect(repairCoordinates("-32.95", "27.9", "eastern-cape")).toEqual({ latitude: -32.95, longitude: 27.9, outcome: "swapped" });
  });

  it("repairs a lost decimal point", () => {
    expect(repairCoordinates("3073001", "-2228889", "limpopo")).toEqual({
      latitude: -22.28889,
      longitude: 30.73001,
      outcome: "missing_decimal",
    });
  });

  it("repairs a lost decimal point in one value only", () => {
    expect(repairCoordinates("290554046630859", "-23.640435618198", "limpopo")).toMatchObject({
      latitude: -23.640436,
      longitude: 29.055405,
      outcome: "missing_decimal",
    });
  });

  it("repairs a pair that is both swapped and without decimal points", () => {
    expect(repairCoordinates("-2907075", "2368877", "northern-cape")).toEqual({
      latitude: -29.07075,
      longitude: 23.68877,
      outcome: "missing_decimal_swapped",
    });
  });

  it("repairs the same defects in any province (nothing is keyed on the province)", () => {
    // The Eastern Cape pattern in Limpopo, the Northern Cape pattern in Gauteng.
    expect(repairCoordinates("-23.9", "29.45", "limpopo").outcome).toBe("swapped");
    expect(repairCoordinates("-2620", "2805", "gauteng")).toEqual({ latitude: -26.2, longitude: 28.05, outcome: "missing_decimal_swapped" });
  });

  it("sets blank, zero, misaligned and unparseable pairs to null", () => {
    expect(repairCoordinates("", "", "gauteng")).toEqual({ latitude: null, longitude: null, outcome: "missing" });
    expect(repairCoordinates("28.1", "", "gauteng").outcome).toBe("missing");
    expect(repairCoordinates("0", "0", "mpumalanga").outcome).toBe("zero");
    expect(repairCoordinates("0", "-26.2", "gauteng").outcome).toBe("zero");
    expect(repairCoordinates('"18', "675", "western-cape")).toEqual({ latitude: null, longitude: null, outcome: "row_misaligned" });
    expect(repairCoordinates("WCED", "-33.9", "western-cape").outcome).toBe("unparseable");
  });

  it("sets a pair outside South Africa to null, whichever way round it is read", () => {
    expect(repairCoordinates("29.85", "-21.84", "limpopo").outcome).toBe("outside_south_africa");
    expect(repairCoordinates("28.05", "26.2", "gauteng").outcome).toBe("outside_south_africa");
    expect(repairCoordinates("-28.05", "-26.2", "gauteng").outcome).toBe("outside_south_africa");
  });

  it("never publishes a school outside its province's box", () => {
    // An Mpumalanga school placed in the Eastern Cape; a North West school placed in Cape Town.
    expect(repairCoordinates("27.11219", "-33.19722", "mpumalanga")).toEqual({ latitude: null, longitude: null, outcome: "outside_province" });
    expect(repairCoordinates("18.49834", "-33.83072", "north-west").outcome).toBe("outside_province");
    // ...including after a repair: swapped, the pair is in KwaZulu-Natal, not Gauteng.
    expect(repairCoordinates("-29.6", "30.38", "gauteng").outcome).toBe("outside_province");
  });

  it("accepts a point within the margin just outside a box", () => {
    const box = PROVINCE_BOXES.gauteng;
    const justOutside = box.north + PROVINCE_MARGIN_DEGREES / 2;
    expect(repairCoordinates("28.0", String(justOutside), "gauteng").outcome).toBe("ok");
    expect(repairCoordinates("28.0", String(box.north + PROVINCE_MARGIN_DEGREES * 2), "gauteng").outcome).toBe("outside_province");
  });
});

describe("province boxes", () => {
  // One well-known place per province (provincial capitals and the largest towns), which each box must hold.
  const places: [ProvinceId, number, number][] = [
    ["eastern-cape", -32.8833, 27.4], // Bhisho
    ["eastern-cape", -33.9608, 25.6022], // Gqeberha
    ["free-state", -29.1211, 26.214], // Bloemfontein
    ["gauteng", -26.2041, 28.0473], // Johannesburg
    ["gauteng", -25.7479, 28.2293], // Pretoria
    ["kwazulu-natal", -29.6006, 30.3794], // Pietermaritzburg
    ["kwazulu-natal", -29.8587, 31.0218], // Durban
    ["limpopo", -23.9045, 29.4689], // Polokwane
    ["mpumalanga", -25.4753, 30.9694], // Mbombela
    ["north-west", -25.8652, 25.6442], // Mahikeng
    ["northern-cape", -28.7282, 24.7499], // Kimberley
    ["northern-cape", -29.6641, 17.8865], // Springbok
    ["western-cape", -33.9249, 18.4241], // Cape Town
    ["western-cape", -33.963, 22.4617], // George
  ];

  it.each(places)("%s holds its towns (%f, %f)", (province, latitude, longitude) => {
    expect(insideBox(PROVINCE_BOXES[province], latitude, longitude)).toBe(true);
  });

  it("every box, with its margin, lies inside South Africa's box (what the build validates)", () => {
    for (const box of Object.values(PROVINCE_BOXES)) {
      expect(box.south).toBeLessThan(box.north);
      expect(box.west).toBeLessThan(box.east);
      expect(box.south - PROVINCE_MARGIN_DEGREES).toBeGreaterThanOrEqual(SOUTH_AFRICA.south);
      expect(box.north + PROVINCE_MARGIN_DEGREES).toBeLessThanOrEqual(SOUTH_AFRICA.north);
      expect(box.west - PROVINCE_MARGIN_DEGREES).toBeGreaterThanOrEqual(SOUTH_AFRICA.west);
      expect(box.east + PROVINCE_MARGIN_DEGREES).toBeLessThanOrEqual(SOUTH_AFRICA.east);
    }
  });

  it("keeps far-apart capitals out of each other's boxes", () => {
    expect(insideBox(PROVINCE_BOXES.gauteng, -33.9249, 18.4241)).toBe(false);
    expect(insideBox(PROVINCE_BOXES["western-cape"], -26.2041, 28.0473)).toBe(false);
    expect(insideBox(PROVINCE_BOXES.limpopo, -29.8587, 31.0218)).toBe(false);
  });
});
