// The statutory minimum (domain/nsc-pass.ts) on hand-written learners, at every boundary the two texts set.
import { describe, expect, it } from "vitest";
import { type NscContext, nscPassOf, type NscRule } from "../../domain/nsc-pass.ts";

const ENGLISH: NscContext = {
  homeLanguages: new Set(["english-home-language", "afrikaans-home-language", "isizulu-home-language"]),
  tenCredit: new Set(["life-orientation"]),
  teachingLanguages: new Set(["english-home-language", "english-first-additional-language"]),
  teachingLanguageName: "English",
};
const ENGLISH_OR_AFRIKAANS: NscContext = {
  ...ENGLISH,
  teachingLanguages: new Set([...ENGLISH.teachingLanguages, "afrikaans-home-language", "afrikaans-first-additional-language"]),
  teachingLanguageName: "English or Afrikaans",
};

/** A full seven-subject NSC: English HL, isiZulu FAL, Mathematics, Life Orientation and three electives. */
function learner(overrides: Record<string, number> = {}, drop: string[] = []): Map<string, number> {
  const marks = new Map(
    Object.entries({
      "english-home-language": 60,
      "isizulu-first-additional-language": 60,
      mathematics: 60,
      "life-orientation": 60,
      "physical-sciences": 60,
      "life-sciences": 60,
      geography: 60,
      ...overrides,
    }),
  );
  for (const slug of drop) marks.delete(slug);
  return marks;
}

const condition = (marks: Map<string, number>, rule: NscRule, context = ENGLISH) => nscPassOf(marks, context).conditions.find((c) => c.rule === rule);

describe("the NSC pass level", () => {
  it("is bachelor for a learner with four 20-credit subjects at 50% and everything checked", () => {
    const result = nscPassOf(learner(), ENGLISH);
    expect(result).toMatchObject({ pass: "bachelor", complete: true });
    expect(result.conditions.every((c) => c.met === true)).toBe(true);
  });

  it("needs 40% in the Home Language (39 fails, 40 passes)", () => {
    expect(nscPassOf(learner({ "english-home-language": 39 }), ENGLISH).pass).toBe("none");
    expect(nscPassOf(learner({ "english-home-language": 40 }), ENGLISH).pass).toBe("bachelor");
    expect(condition(learner({ "english-home-language": 39 }), "nsc-home-language")).toMatchObject({
      met: false,
      need: 40,
      have: 39,
      subject_slug: "english-home-language",
      reason: "The NSC needs 40% in a Home Language; you have 39%.",
    });
  });

  it("needs 30% in the teaching language (29 fails, 30 passes), by the university's languages", () => {
    // An isiZulu Home Language learner with English as first additional language.
    const zulu = (english: number) =>
      learner({ "isizulu-home-language": 70, "english-first-additional-language": english }, [
        "english-home-language",
        "isizulu-first-additional-language",
      ]);
    expect(nscPassOf(zulu(29), ENGLISH).pass).toBe("none");
    expect(nscPassOf(zulu(30), ENGLISH).pass).toBe("bachelor");
    // Afrikaans Home Language, English FAL at 25%: no admission where only English teaches, admission where Afrikaans does.
    const afrikaans = learner({ "afrikaans-home-language": 70, "english-first-additional-language": 25 }, [
      "english-home-language",
      "isizulu-first-additional-language",
    ]);
    expect(nscPassOf(afrikaans, ENGLISH).pass).toBe("none");
    expect(nscPassOf(afrikaans, ENGLISH_OR_AFRIKAANS).pass).toBe("bachelor");
    expect(condition(afrikaans, "teaching-language", ENGLISH_OR_AFRIKAANS)).toMatchObject({
      met: true,
      have: 70,
      subject_slug: "afrikaans-home-language",
    });
  });

  it("needs four 20-credit subjects at 50% for a bachelor's pass (49 on the fourth: diploma)", () => {
    const marks = (fourth: number) =>
      learner(
        {
          "physical-sciences": 45,
          "life-sciences": 45,
          geography: 45,
          mathematics: 55,
          "isizulu-first-additional-language": 55,
          "english-home-language": 55,
          "life-orientation": 80,
        },
        [],
      ).set("geography", fourth);
    expect(nscPassOf(marks(49), ENGLISH).pass).toBe("diploma");
    expect(nscPassOf(marks(50), ENGLISH).pass).toBe("bachelor");
    expect(condition(marks(49), "four-at-50")).toMatchObject({
      met: false,
      have: 3,
      reason: "A bachelor's pass needs four subjects other than Life Orientation at 50% or more: you have only 3.",
    });
  });

  it("never counts Life Orientation among the four, even at 90%", () => {
    const marks = learner({ "life-orientation": 90, "physical-sciences": 45, "life-sciences": 45, geography: 45 });
    // English 60, isiZulu FAL 60, Mathematics 60 and LO 90 are four at 50%, but LO carries 10 credits.
    expect(condition(marks, "four-at-50")).toMatchObject({ met: false, have: 3 });
    expect(nscPassOf(marks, ENGLISH).pass).toBe("diploma");
  });

  it("needs 40% in four 20-credit subjects for a diploma pass (39 on the fourth: higher certificate)", () => {
    const marks = (fourth: number) =>
      learner({
        "english-home-language": 45,
        mathematics: 45,
        "physical-sciences": 45,
        "isizulu-first-additional-language": fourth,
        "life-sciences": 35,
        geography: 35,
        "life-orientation": 70,
      });
    expect(nscPassOf(marks(39), ENGLISH).pass).toBe("higher-certificate");
    expect(nscPassOf(marks(40), ENGLISH).pass).toBe("diploma");
  });

  it("allows one failed subject (below 30%), not two", () => {
    expect(nscPassOf(learner({ geography: 20 }), ENGLISH).pass).toBe("bachelor");
    const two = learner({ geography: 20, "life-sciences": 29 });
    expect(nscPassOf(two, ENGLISH).pass).toBe("none");
    expect(condition(two, "nsc-at-most-one-below-30")).toMatchObject({
      met: false,
      have: 2,
      reason: "The NSC allows one subject below 30%; you have 2.",
    });
  });

  it("needs three subjects at 40%, one of them the Home Language", () => {
    const marks = learner({
      "english-home-language": 40,
      "isizulu-first-additional-language": 35,
      mathematics: 39,
      "life-orientation": 40,
      "physical-sciences": 35,
      "life-sciences": 35,
      geography: 35,
    });
    expect(condition(marks, "nsc-three-at-40")).toMatchObject({ met: false, have: 2 });
    expect(nscPassOf(marks, ENGLISH).pass).toBe("none");
    marks.set("mathematics", 40);
    expect(nscPassOf(marks, ENGLISH).pass).toBe("higher-certificate");
  });

  it("refuses the issue's learner: 35% English Home Language, 25% second language, 75% in four others", () => {
    const marks = new Map(
      Object.entries({
        "english-home-language": 35,
        "isizulu-first-additional-language": 25,
        mathematics: 75,
        "physical-sciences": 75,
        "life-sciences": 75,
        geography: 75,
        "life-orientation": 75,
      }),
    );
    const result = nscPassOf(marks, ENGLISH);
    expect(result.pass).toBe("none");
    expect(result.reason).toMatch(
      /^These marks do not earn the NSC, so no programme can admit them: The NSC needs 40% in a Home Language; you have 35%\./,
    );
  });
});

describe("incomplete marks", () => {
  it("can qualify: what the marks do not show does not hold a learner back, and the answer says so", () => {
    const marks = new Map(Object.entries({ "english-home-language": 60, mathematics: 60, "physical-sciences": 60, "life-sciences": 60 }));
    const result = nscPassOf(marks, ENGLISH);
    expect(result).toMatchObject({ pass: "bachelor", complete: false });
    expect(result.conditions.filter((c) => c.met === null).map((c) => c.rule)).toEqual(["nsc-seven-subjects", "nsc-at-most-one-below-30"]);
    expect(result.reason).toBe("These marks earn a bachelor's pass (2 conditions could not be checked on the marks given).");
  });

  it("cannot earn a level whose four subjects are not among the marks", () => {
    const marks = new Map(Object.entries({ "english-home-language": 60, mathematics: 60, "physical-sciences": 60 }));
    expect(nscPassOf(marks, ENGLISH)).toMatchObject({ pass: "higher-certificate", complete: false });
  });

  it("fails on what the marks do show: a Home Language at 35% fails whatever is missing", () => {
    const marks = new Map(Object.entries({ "english-home-language": 35, mathematics: 90, "physical-sciences": 90, "life-sciences": 90 }));
    expect(nscPassOf(marks, ENGLISH)).toMatchObject({ pass: "none", complete: false });
    expect(nscPassOf(new Map(Object.entries({ mathematics: 20, "physical-sciences": 10 })), ENGLISH).pass).toBe("none");
  });

  it("without a Home Language or the teaching language, leaves them unchecked", () => {
    const marks = new Map(Object.entries({ mathematics: 60, "physical-sciences": 60, "life-sciences": 60, geography: 60 }));
    const result = nscPassOf(marks, ENGLISH);
    expect(result).toMatchObject({ pass: "bachelor", complete: false });
    expect(result.conditions.filter((c) => c.met === null).map((c) => c.rule)).toEqual([
      "nsc-seven-subjects",
      "nsc-home-language",
      "nsc-three-at-40",
      "nsc-at-most-one-below-30",
      "teaching-language",
    ]);
  });
});
