// Worked examples for every university's scheme, computed by hand from the published rules (the
// arithmetic is in the comments), run against the schemes the build assembles from sources/.
import { beforeAll, describe, expect, it } from "vitest";
import { computeAps, bandOf } from "../../domain/aps/engine.ts";
import type { ApsScheme, Mark } from "../../domain/aps/scheme.ts";
import { loadApsSources, schemeOf } from "../fixtures/aps.ts";
import { LEARNER_A } from "../fixtures/learners.ts";
import { present } from "../support/present.ts";

const marks = (entries: Record<string, number>): Mark[] =>
  Object.entries(entries).map(([subject_slug, percentage]) => ({ subject_slug, percentage }));

const score = async (university: string, entries: Record<string, number>) => computeAps(await schemeOf(university), marks(entries));

describe("the schemes in sources/", () => {
  it("assemble without problems, one per university", async () => {
    const sources = await loadApsSources();
    expect(sources.problems).toEqual([]);
    expect(sources.schemes.size).toBe(26);
  });
});

describe("worked example: learner A at every university", () => {
  // [university, score, exact score, arithmetic]
  const cases: [string, number, number][] = [
    // UCT: sum of percentages of English + best five others, LO excluded, <40% adds 0:
    // 72 + 65 + 59.99 + 60 + 48 + 81 = 385.99 -> 385
    ["university-of-cape-town", 385, 385.99],
    // Wits: English 72 -> 6 + 2 bonus = 8; LO 85 -> 3 (LO table); best five others on 40-49 3 ... 90-100 8:
    // AFAL 5, Maths 59.99 -> 4 (no bonus below 60), PS 5, LS 3, Geo 7 = 24; 8 + 3 + 24 = 35
    ["university-of-the-witwatersrand", 35, 35],
    // UP: best six NSC levels excluding LO: 6 + 5 + 4 + 5 + 3 + 7 = 30
    ["university-of-pretoria", 30, 30],
    // SU: (English 72 + five best others 81 + 65 + 60 + 59.99 + 48) / 6 = 385.99 / 6 = 64.331667 -> 64
    ["stellenbosch-university", 64, 64.331667],
    // UJ: six NSC levels, LO not counted: 30
    ["university-of-johannesburg", 30, 30],
    // UKZN: English 6 + Maths 4 + best four others 7 + 5 + 5 + 3 = 30
    ["university-of-kwazulu-natal", 30, 30],
    // NWU: six 20-credit subjects on NSC levels: 30
    ["north-west-university", 30, 30],
    // UFS: six subjects on 8 points (<30% = 0): 6 + 5 + 4 + 5 + 3 + 7 = 30; LO 85 >= 60 adds 1: 31
    ["university-of-the-free-state", 31, 31],
    // Rhodes: English 7.2 + best five others /10: 8.1 + 6.5 + 6.0 + 5.999 + 4.8 = 31.399; 38.599 -> 38
    ["rhodes-university", 38, 38.599],
    // UWC: English 72 -> 11; Maths 59.99 -> 7; LO 85 -> 3; best four others (8-point table) Geo 7, AFAL 5,
    // PS 5, LS 3 = 20; 11 + 7 + 3 + 20 = 41
    ["university-of-the-western-cape", 41, 41],
    // NMU: HL 72 + FAL 65 + Maths 59.99 + best three others 81 + 60 + 48 = 385.99 -> 385
    ["nelson-mandela-university", 385, 385.99],
    // UFH: seven subjects incl. LO: HL 6 + FAL 5 + Maths 4 + LO 7 + best three others Geo 7, PS 5, LS 3 = 37
    ["university-of-fort-hare", 37, 37],
    // UL: six 20-credit subjects: 30
    ["university-of-limpopo", 30, 30],
    // UNIVEN: percentages /10, <40% = 0, best six: 7.2 + 6.5 + 5.999 + 6.0 + 4.8 + 8.1 = 38.599 -> 38
    ["university-of-venda", 38, 38.599],
    // UNIZULU: best six on the 8-point scale (no mark reaches 90): 6 + 5 + 4 + 5 + 3 + 7 = 30
    ["university-of-zululand", 30, 30],
    // WSU (2027 scheme): 8-point table, two languages English HL 6 + Afrikaans FAL 5, best four others
    // Geo 7 + PS 5 + Maths 4 + LS 3 = 19; LO excluded: 30
    ["walter-sisulu-university", 30, 30],
    // UNISA: best six NSC levels excluding LO: 30
    ["university-of-south-africa", 30, 30],
    // CPUT: best six percentages /10 (<30% = 0): 38.599 -> 38
    ["cape-peninsula-university-of-technology", 38, 38.599],
    // DUT: English 6 + best five others 7 + 5 + 5 + 4 + 3 = 30
    ["durban-university-of-technology", 30, 30],
    // TUT: best six excluding LO: 30
    ["tshwane-university-of-technology", 30, 30],
    // VUT: six subjects excluding LO on VUT's 8-point table, identical to the NSC levels below 90%: 30
    ["vaal-university-of-technology", 30, 30],
    // CUT: six subjects on 8 points from 30%: 30; LO adds at most 1: 31
    ["central-university-of-technology", 31, 31],
    // MUT: best six excluding LO on the 8-point scale: Geo 7 + English 6 + AFAL 5 + PS 5 + Maths 4 + LS 3 = 30
    ["mangosuthu-university-of-technology", 30, 30],
    // SMU: best six NSC levels excluding LO: 30
    ["sefako-makgatho-health-sciences-university", 30, 30],
    // SPU: English 6 + 2 (>= 60) = 8; best five others: AFAL 5, Maths 4 + 1 (40-59) = 5, PS 5, LS 3, Geo 7 = 25;
    // LO 85 -> 3 (LO table); 8 + 25 + 3 = 36
    ["sol-plaatje-university", 36, 36],
    // UMP: HL 6 + FAL 5 + Maths 4 + LO 7 / 2 = 3.5 + best three others Geo 7, PS 5, LS 3 = 15; 33.5 -> 33
    ["university-of-mpumalanga", 33, 33.5],
  ];

  it("covers all 26 universities", async () => {
    const { schemes } = await loadApsSources();
    expect(new Set(cases.map(([slug]) => slug))).toEqual(new Set(schemes.keys()));
  });

  it.each(cases)("%s: %d", async (university, expectedScore, expectedExact) => {
    const result = await score(university, LEARNER_A);
    expect(result.score).toBe(expectedScore);
    expect(result.exact_score).toBeCloseTo(expectedExact, 6);
    expect(result.score).toBeLessThanOrEqual(result.maximum);
  });
});

describe("band edges: a fraction stays in its band", () => {
  it("puts 59.99 in 50-59 and 60 in 60-69", async () => {
    const bands = (await schemeOf("university-of-pretoria")).scales[0]?.bands ?? [];
    expect(bandOf(bands, 59.99)?.from).toBe(50);
    expect(bandOf(bands, 60)?.from).toBe(60);
    expect(bandOf(bands, 100)?.from).toBe(80);
    expect(bandOf(bands, 0)?.from).toBe(0);
  });

  it("UP: Mathematics 59.99 earns level 4, 60 earns 5 (30 -> 31)", async () => {
    expect((await score("university-of-pretoria", LEARNER_A)).score).toBe(30);
    expect((await score("university-of-pretoria", { ...LEARNER_A, mathematics: 60 })).score).toBe(31);
  });

  it("VUT: 89.99 earns 7 and 90 earns 8 (VUT's table has an eighth band; 30 -> 31)", async () => {
    expect((await score("vaal-university-of-technology", { ...LEARNER_A, geography: 89.99 })).score).toBe(30);
    expect((await score("vaal-university-of-technology", { ...LEARNER_A, geography: 90 })).score).toBe(31);
  });

  it("UJ: 79.99 is level 6 and 80 is level 7", async () => {
    // Geography 81 (7) becomes 79.99 (6): 30 - 1 = 29
    expect((await score("university-of-johannesburg", { ...LEARNER_A, geography: 79.99 })).score).toBe(29);
    expect((await score("university-of-johannesburg", { ...LEARNER_A, geography: 80 })).score).toBe(30);
  });
});

describe("Life Orientation", () => {
  it("is excluded at UP whatever its mark", async () => {
    const low = await score("university-of-pretoria", { ...LEARNER_A, "life-orientation": 0 });
    const high = await score("university-of-pretoria", { ...LEARNER_A, "life-orientation": 100 });
    expect(low.score).toBe(30);
    expect(high.score).toBe(30);
    const lo = high.subjects.find((s) => s.subject_slug === "life-orientation");
    expect(lo?.counted).toBe(false);
    expect(lo?.reason).toMatch(/Life Orientation is excluded/);
  });

  it("Wits: its own table, 59 -> 0, 60 -> 1, 90 -> 4", async () => {
    // Learner A without LO: 35 - 3 = 32
    expect((await score("university-of-the-witwatersrand", { ...LEARNER_A, "life-orientation": 59.99 })).score).toBe(32);
    expect((await score("university-of-the-witwatersrand", { ...LEARNER_A, "life-orientation": 60 })).score).toBe(33);
    expect((await score("university-of-the-witwatersrand", { ...LEARNER_A, "life-orientation": 90 })).score).toBe(36);
  });

  it("UFS: 1 point at 60% or more, else none", async () => {
    expect((await score("university-of-the-free-state", { ...LEARNER_A, "life-orientation": 59.99 })).score).toBe(30);
    expect((await score("university-of-the-free-state", { ...LEARNER_A, "life-orientation": 60 })).score).toBe(31);
  });

  it("UFH: counts in full, on the NSC levels (85 -> 7, 20 -> 1)", async () => {
    expect((await score("university-of-fort-hare", LEARNER_A)).score).toBe(37);
    expect((await score("university-of-fort-hare", { ...LEARNER_A, "life-orientation": 20 })).score).toBe(31);
  });

  it("CUT: at most 1 point", async () => {
    expect((await score("central-university-of-technology", { ...LEARNER_A, "life-orientation": 100 })).score).toBe(31);
    expect((await score("central-university-of-technology", { ...LEARNER_A, "life-orientation": 29 })).score).toBe(30);
  });

  it("UMP: half value, 45 -> 1.5", async () => {
    // 6 + 5 + 4 + 1.5 + 15 = 31.5 -> 31
    const result = await score("university-of-mpumalanga", { ...LEARNER_A, "life-orientation": 45 });
    expect(result.exact_score).toBe(31.5);
    expect(result.score).toBe(31);
  });

  it("UWC: always counted on its own table (35% -> 1)", async () => {
    // 41 - 3 + 1 = 39
    expect((await score("university-of-the-western-cape", { ...LEARNER_A, "life-orientation": 35 })).score).toBe(39);
  });
});

describe("bonus thresholds", () => {
  it("Wits: Mathematics 59.99 -> 4, 60 -> 5 + 2 = 7", async () => {
    const below = await score("university-of-the-witwatersrand", LEARNER_A);
    const at = await score("university-of-the-witwatersrand", { ...LEARNER_A, mathematics: 60 });
    expect(at.score - below.score).toBe(3);
    expect(at.subjects.find((s) => s.subject_slug === "mathematics")).toMatchObject({ points: 7, bonus_points: 2, counted: true });
  });

  it("Wits: English at 59 earns no bonus", async () => {
    // English 59 -> 4: 35 - 8 + 4 = 31
    expect((await score("university-of-the-witwatersrand", { ...LEARNER_A, "english-home-language": 59 })).score).toBe(31);
  });

  it("SPU: Mathematics 39.99 -> 2 + 0, 40 -> 3 + 1", async () => {
    // Learner A has Maths 4 + 1 = 5. At 39.99: 2, the best five others become AFAL 5, PS 5, LS 3, Geo 7, Maths 2 = 22 -> 33
    expect((await score("sol-plaatje-university", { ...LEARNER_A, mathematics: 39.99 })).score).toBe(33);
    // At 40: 3 + 1 = 4 in place of 5: 36 - 5 + 4 = 35
    expect((await score("sol-plaatje-university", { ...LEARNER_A, mathematics: 40 })).score).toBe(35);
  });
});

describe("floors: subjects below a minimum add nothing", () => {
  it("UCT: 39.99% adds 0, 40% adds 40", async () => {
    const below = await score("university-of-cape-town", { ...LEARNER_A, "life-sciences": 39.99 });
    const at = await score("university-of-cape-town", { ...LEARNER_A, "life-sciences": 40 });
    // 385.99 - 48 = 337.99 -> 337; + 40 = 377.99 -> 377
    expect(below.score).toBe(337);
    expect(at.score).toBe(377);
  });

  it("Rhodes: 39% adds 0, 40% adds 4.0", async () => {
    // 38.599 - 4.8 = 33.799 -> 33; + 4.0 = 37.799 -> 37
    expect((await score("rhodes-university", { ...LEARNER_A, "life-sciences": 39 })).score).toBe(33);
    expect((await score("rhodes-university", { ...LEARNER_A, "life-sciences": 40 })).score).toBe(37);
  });

  it("Wits: other subjects below 40% earn 0", async () => {
    // LS 48 -> 3 becomes 39 -> 0: 35 - 3 = 32
    expect((await score("university-of-the-witwatersrand", { ...LEARNER_A, "life-sciences": 39 })).score).toBe(32);
  });

  it("UFS: below 30% earns 0 (the NSC scale would give 1)", async () => {
    // LS 48 -> 3 becomes 29 -> 0: 31 - 3 = 28
    expect((await score("university-of-the-free-state", { ...LEARNER_A, "life-sciences": 29 })).score).toBe(28);
    expect((await score("university-of-pretoria", { ...LEARNER_A, "life-sciences": 29 })).score).toBe(28);
  });
});

describe("more subjects than count: the best are chosen, required ones kept", () => {
  it("UP: an eighth subject replaces the weakest", async () => {
    // Accounting 90 -> 7 joins; the best six: 7 + 7 + 6 + 5 + 5 + 4 = 34 (LS 3 dropped)
    const result = await score("university-of-pretoria", { ...LEARNER_A, accounting: 90 });
    expect(result.score).toBe(34);
    expect(result.subjects.find((s) => s.subject_slug === "life-sciences")).toMatchObject({ counted: false });
  });

  it("DUT: English counts even when it is the weakest subject", async () => {
    // English 30 -> 2 is kept; best five others: Acc 7, Geo 7, AFAL 5, PS 5, Maths 4 = 28; 2 + 28 = 30 (LS 3 dropped)
    const result = await score("durban-university-of-technology", { ...LEARNER_A, "english-home-language": 30, accounting: 90 });
    expect(result.score).toBe(30);
    expect(result.subjects.find((s) => s.subject_slug === "english-home-language")).toMatchObject({ counted: true, counted_as: "english" });
    // UP has no English place: the same marks give the best six, 7 + 7 + 5 + 5 + 4 + 3 = 31
    expect((await score("university-of-pretoria", { ...LEARNER_A, "english-home-language": 30, accounting: 90 })).score).toBe(31);
  });

  it("UCT: English is kept, the weakest other dropped", async () => {
    // English 45 kept; best five others of 65, 59.99, 60, 48, 81, 90: 90 + 81 + 65 + 60 + 59.99 = 355.99; 400.99 -> 400
    const result = await score("university-of-cape-town", { ...LEARNER_A, "english-home-language": 45, accounting: 90 });
    expect(result.score).toBe(400);
  });

  it("SU: the better of English and Afrikaans takes the language place", async () => {
    // Afrikaans HL 90 and English FAL 70: Afrikaans fills the place; the five best others 81, 70, 60, 59.99, 48
    const result = await score("stellenbosch-university", {
      "afrikaans-home-language": 90,
      "english-first-additional-language": 70,
      mathematics: 59.99,
      "life-orientation": 85,
      "physical-sciences": 60,
      "life-sciences": 48,
      geography: 81,
    });
    // (90 + 81 + 70 + 60 + 59.99 + 48) / 6 = 408.99 / 6 = 68.165
    expect(result.exact_score).toBeCloseTo(68.165, 6);
    expect(result.score).toBe(68);
  });

  it("reports a required place no mark could fill", async () => {
    const result = await score("durban-university-of-technology", { mathematics: 70, "physical-sciences": 70 });
    expect(result.unfilled).toEqual([
      { class: "english", missing: 1, note: expect.any(String) },
      { class: "twenty-credit-subject", missing: 3, note: expect.any(String) },
    ]);
    expect(result.score).toBe(12);
  });
});

describe("Mathematics against Mathematical Literacy", () => {
  it("Wits: the +2 bonus is for Mathematics only", async () => {
    const withMaths = await score("university-of-the-witwatersrand", { ...LEARNER_A, mathematics: 80 });
    const { mathematics: _, ...withoutMaths } = LEARNER_A;
    const withLiteracy = await score("university-of-the-witwatersrand", { ...withoutMaths, "mathematical-literacy": 80 });
    // Maths 80 -> 7 + 2 = 9; Literacy 80 -> 7: 35 - 4 + 9 = 40 and 35 - 4 + 7 = 38
    expect(withMaths.score).toBe(40);
    expect(withLiteracy.score).toBe(38);
  });

  it("UWC: Mathematical Literacy fills the mathematics place on the ordinary table, as UWC's calculator scores it", async () => {
    const { mathematics: _, ...withoutMaths } = LEARNER_A;
    const literacy = await score("university-of-the-western-cape", { ...withoutMaths, "mathematical-literacy": 59.99 });
    // English 11 + ML 4 (ordinary table, not the weighted one) + LO 3 + additional language AFAL 5 + best three
    // others Geo 7, PS 5, LS 3 = 38
    expect(literacy.score).toBe(38);
    expect(literacy.subjects.find((s) => s.subject_slug === "mathematical-literacy")).toMatchObject({
      points: 4,
      counted_as: "mathematics-or-literacy",
    });
    // Technical Mathematics is scored as an other subject (4) and competes with the others; the maths place stays empty.
    const technical = await score("university-of-the-western-cape", { ...withoutMaths, "technical-mathematics": 59.99 });
    expect(technical.unfilled.map((u) => u.class)).toEqual(["mathematics-or-literacy"]);
  });

  it("UKZN: Mathematical Literacy fills the mathematics place; 90% and above earns 8", async () => {
    const { mathematics: _, ...withoutMaths } = LEARNER_A;
    const result = await score("university-of-kwazulu-natal", { ...withoutMaths, "mathematical-literacy": 75, accounting: 90 });
    // English 6 + ML 6 + best four others Acc 8 (90%), Geo 7, AFAL 5, PS 5 = 25 -> 37
    expect(result.score).toBe(37);
    expect(result.subjects.find((s) => s.subject_slug === "mathematical-literacy")).toMatchObject({ counted_as: "any-mathematics" });
  });

  it("TUT: a subject at level 1 is not counted; CUT: 0-29% earns 1, Life Orientation 1 point from 40%", async () => {
    const low = { ...LEARNER_A, geography: 20 };
    const tut = await score("tshwane-university-of-technology", low);
    expect(tut.subjects.find((s) => s.subject_slug === "geography")?.points).toBe(0);
    const cut = await score("central-university-of-technology", { ...low, "life-orientation": 39 });
    expect(cut.subjects.find((s) => s.subject_slug === "geography")?.points).toBe(1);
    expect(cut.subjects.find((s) => s.subject_slug === "life-orientation")?.points).toBe(0);
    expect(
      (await score("central-university-of-technology", { ...low, "life-orientation": 40 })).subjects.find(
        (s) => s.subject_slug === "life-orientation",
      )?.points,
    ).toBe(1);
  });

  it("SPU: Mathematical Literacy earns no bonus", async () => {
    const { mathematics: _, ...withoutMaths } = LEARNER_A;
    // ML 59.99 -> 4 with no bonus: 36 - 5 + 4 = 35
    expect((await score("sol-plaatje-university", { ...withoutMaths, "mathematical-literacy": 59.99 })).score).toBe(35);
  });
});

describe("maxima", () => {
  let schemes: Map<string, ApsScheme>;
  beforeAll(async () => {
    schemes = (await loadApsSources()).schemes;
  });

  it("a learner with 100% everywhere reaches each scheme's maximum", () => {
    const top = marks({
      "english-home-language": 100,
      "afrikaans-first-additional-language": 100,
      mathematics: 100,
      "life-orientation": 100,
      "physical-sciences": 100,
      "life-sciences": 100,
      accounting: 100,
      geography: 100,
    });
    for (const scheme of schemes.values()) expect(computeAps(scheme, top).score, scheme.id).toBe(scheme.maximum);
  });

  it("a learner with 0% everywhere scores no more than the number of counted places", () => {
    const bottom = marks({
      "english-home-language": 0,
      "afrikaans-first-additional-language": 0,
      mathematics: 0,
      "life-orientation": 0,
      history: 0,
      geography: 0,
      "life-sciences": 0,
    });
    // NSC-7 schemes give 1 per counted subject at 0%: UP 6
    expect(computeAps(present(schemes.get("university-of-pretoria"), "university-of-pretoria's scheme"), bottom).score).toBe(6);
    expect(computeAps(present(schemes.get("university-of-cape-town"), "university-of-cape-town's scheme"), bottom).score).toBe(0);
    expect(computeAps(present(schemes.get("university-of-the-witwatersrand"), "university-of-the-witwatersrand's scheme"), bottom).score).toBe(0);
  });
});
