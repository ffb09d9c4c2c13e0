// The catalogue's rules on hand-written evidence: precedence, derived confidence (agreement, conflict,
// copying witnesses, stale intake), and the compact requirement statements.
import { describe, expect, it } from "vitest";
import { compareRank, confidenceOf, decide, weakest, type Statement, type WitnessKind } from "../../domain/evidence.ts";
import { canonicalRequirements, formatRequirements, parseRequirements } from "../../domain/requirements.ts";

let n = 0;
function says(value: string, kind: WitnessKind, intakeYear: number | null, lineage = `lineage-${++n}`): Statement<string> {
  return { value, key: value, kind, intakeYear, lineage, witness: `w${n}` };
}

describe("precedence", () => {
  it("ranks the kind first: own page = official document > transcription > third party", () => {
    expect(compareRank(says("1", "own-page", 2027), says("1", "official-document", 2027))).toBe(0);
    expect(compareRank(says("1", "official-document", 2025), says("1", "transcription", 2027))).toBeGreaterThan(0);
    expect(compareRank(says("1", "transcription", 2025), says("1", "third-party", 2027))).toBeGreaterThan(0);
  });

  it("then the newer intake, with an unstated intake below every stated one", () => {
    expect(compareRank(says("1", "transcription", 2027), says("1", "transcription", 2026))).toBeGreaterThan(0);
    expect(compareRank(says("1", "transcription", 2020), says("1", "transcription", null))).toBeGreaterThan(0);
    expect(compareRank(says("1", "transcription", null), says("1", "transcription", null))).toBe(0);
  });

  it("decides by the top-ranked statements and lists the outranked ones that disagree", () => {
    const decision = decide([says("30", "official-document", 2027), says("32", "transcription", 2027), says("30", "third-party", 2027)]);
    expect(decision?.topKeys).toEqual(["30"]);
    expect(decision?.outranked.map((s) => s.value)).toEqual(["32"]);
  });

  it("reports an open conflict when equally ranked witnesses disagree", () => {
    const decision = decide([says("28", "third-party", 2027), says("30", "third-party", 2027)]);
    expect(decision?.topKeys).toEqual(["28", "30"]);
  });

  it("has nothing to decide when nobody states the fact", () => {
    expect(decide([])).toBeNull();
  });
});

describe("confidence", () => {
  it("is high when an official witness for the row's intake states the value", () => {
    expect(confidenceOf("30", [says("30", "own-page", 2027), says("31", "third-party", 2027)], 2027)).toBe("high");
  });

  it("is medium for a transcription of the row's intake", () => {
    expect(confidenceOf("30", [says("30", "transcription", 2027)], 2027)).toBe("medium");
  });

  it("is medium when two independent third-party witnesses agree, low when they share a lineage (one copies the other)", () => {
    expect(confidenceOf("30", [says("30", "third-party", 2027, "site-a"), says("30", "third-party", 2027, "site-b")], 2027)).toBe("medium");
    expect(confidenceOf("30", [says("30", "third-party", 2027, "itumeleng-itu"), says("30", "third-party", 2027, "itumeleng-itu")], 2027)).toBe(
      "low",
    );
  });

  it("is low for a single third-party witness", () => {
    expect(confidenceOf("30", [says("30", "third-party", 2027)], 2027)).toBe("low");
  });

  it("counts a witness for an older or unstated intake one level lower (stale)", () => {
    expect(confidenceOf("30", [says("30", "official-document", 2025)], 2027)).toBe("medium");
    expect(confidenceOf("30", [says("30", "own-page", null)], 2027)).toBe("medium");
    expect(confidenceOf("30", [says("30", "transcription", 2026)], 2027)).toBe("low");
  });

  it("takes no support from witnesses that state another value", () => {
    expect(confidenceOf("30", [says("32", "own-page", 2027), says("30", "third-party", 2027)], 2027)).toBe("low");
  });

  it("makes a qualification as sure as its least sure fact", () => {
    expect(weakest("high", "medium")).toBe("medium");
    expect(weakest("high", "high")).toBe("high");
    expect(weakest("medium", "low", "high")).toBe("low");
  });
});

describe("requirement statements", () => {
  it("parse clauses, alternatives, levels, percentages, recommendations and rules", () => {
    const parsed = parseRequirements(
      "english-home-language:5|english-first-additional-language:5;mathematics:65%;~physical-sciences:4;@other-language:4",
    );
    expect(parsed).toEqual({
      ok: true,
      clauses: [
        {
          recommended: false,
          route: null,
          options: [
            { subject: "english-home-language", min_percentage: 60, min_level: 5 },
            { subject: "english-first-additional-language", min_percentage: 60, min_level: 5 },
          ],
        },
        { recommended: false, route: null, options: [{ subject: "mathematics", min_percentage: 65, min_level: 5 }] },
        { recommended: true, route: null, options: [{ subject: "physical-sciences", min_percentage: 50, min_level: 4 }] },
        { recommended: false, route: null, options: [{ rule: "other-language", min_percentage: 50, min_level: 4 }] },
      ],
    });
  });

  it("distinguish saying nothing (empty) from saying there are none", () => {
    expect(parseRequirements("")).toBeNull();
    expect(parseRequirements("none")).toEqual({ ok: true, clauses: [] });
  });

  it.each([
    ["mathematics", "is not <subject-slug>:<level>"],
    ["mathematics:8", "a level is 1 to 7"],
    ["mathematics:101%", "a percentage is 0 to 100"],
    ["Mathematics:5", "is not <subject-slug>"],
    ["mathematics:5;;english-home-language:4", "an empty clause"],
    ["@another-language:4", "the rules are"],
    ["mathematics:5|mathematics:5", "appears twice"],
  ])("refuse %s with a message", (cell, message) => {
    const parsed = parseRequirements(cell);
    expect(parsed?.ok).toBe(false);
    if (parsed && !parsed.ok) expect(parsed.message).toContain(message);
  });

  it("compare in a canonical form: order and level-or-percentage spelling do not matter", () => {
    const a = parseRequirements("mathematics:5;english-home-language:4|english-first-additional-language:4");
    const b = parseRequirements("english-first-additional-language:50%|english-home-language:4;mathematics:60%");
    if (!a?.ok || !b?.ok) throw new Error("unparsed");
    expect(canonicalRequirements(a.clauses)).toBe(canonicalRequirements(b.clauses));
    expect(formatRequirements(b.clauses)).toBe("english-first-additional-language:4|english-home-language:4;mathematics:5");
  });
});

describe("alternative routes in a requirements cell", () => {
  it("holds a clause every route states once, and the others under their route", () => {
    const parsed = parseRequirements("english-home-language:4;mathematics:70%||english-home-language:4;mathematics:60%;accounting:70%");
    if (!parsed?.ok) throw new Error(JSON.stringify(parsed));
    expect(parsed.clauses.map((c) => [c.options.map((o) => o.subject).join("|"), c.route])).toEqual([
      ["english-home-language", null],
      ["mathematics", 1],
      ["mathematics", 2],
      ["accounting", 2],
    ]);
    expect(formatRequirements(parsed.clauses)).toBe("english-home-language:4;mathematics:6||english-home-language:4;mathematics:5;accounting:6");
  });

  it("compares routes in any order", () => {
    const a = parseRequirements("mathematics:70%||mathematics:60%;accounting:70%");
    const b = parseRequirements("accounting:70%;mathematics:60%||mathematics:70%");
    if (!a?.ok || !b?.ok) throw new Error("parse");
    expect(canonicalRequirements(a.clauses)).toBe(canonicalRequirements(b.clauses));
  });

  it("refuses routes that do not differ, and empty routes", () => {
    expect(parseRequirements("mathematics:5||mathematics:5")).toMatchObject({ ok: false });
    expect(parseRequirements("mathematics:5;accounting:5||mathematics:5")).toMatchObject({ ok: false });
    expect(parseRequirements("mathematics:5||")).toMatchObject({ ok: false, message: expect.stringContaining("empty route") });
  });
});

describe("a subject required on its own and named in another clause", () => {
  it("is refused: one mark meets one clause, so the statement can only mean routes", () => {
    expect(parseRequirements("mathematics:60%;accounting:70%|mathematics:70%")).toMatchObject({
      ok: false,
      message: expect.stringContaining("write the alternatives as routes"),
    });
    expect(parseRequirements("mathematics:70%||mathematics:60%;accounting:70%")).toMatchObject({ ok: true });
    // Two groups sharing subjects mean two distinct subjects ("any two of"): allowed.
    expect(parseRequirements("accounting:4|economics:4|business-studies:4;accounting:4|economics:4|business-studies:4")).toMatchObject({ ok: true });
  });
});
