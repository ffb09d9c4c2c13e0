// Properties of the engine over every real scheme: a higher mark never lowers the score, the order of
// the marks never matters, and the caller's marks are left as they were.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { apsScoreOf, computeAps } from "../../domain/aps/engine.ts";
import type { ApsScheme, Mark } from "../../domain/aps/scheme.ts";
import { loadApsSources } from "../fixtures/aps.ts";
import { present } from "../support/present.ts";

let schemes: ApsScheme[] = [];
let subjectSlugs: string[] = [];
beforeAll(async () => {
  const sources = await loadApsSources();
  schemes = [...sources.schemes.values()];
  subjectSlugs = sources.subjectSlugs;
});

// Percentages as clients send them: whole numbers, band edges and fractions.
const percentage = fc.oneof(
  fc.integer({ min: 0, max: 100 }),
  fc.constantFrom(0, 29.99, 30, 39.99, 40, 49.5, 59.99, 60, 69.999, 79.99, 80, 89.99, 90, 100),
  fc.double({ min: 0, max: 100, noNaN: true, noDefaultInfinity: true }),
);

// Any set of distinct subjects (including unrealistic ones such as both English levels), 1 to 12 of them,
// drawn from the subjects the schemes' classes are made of plus a few others.
const SUBJECT_POOL = [
  "english-home-language",
  "english-first-additional-language",
  "afrikaans-home-language",
  "afrikaans-first-additional-language",
  "isizulu-home-language",
  "isizulu-first-additional-language",
  "french-second-additional-language",
  "mathematics",
  "mathematical-literacy",
  "technical-mathematics",
  "life-orientation",
  "physical-sciences",
  "life-sciences",
  "accounting",
  "geography",
  "history",
];
const markSets = fc
  .uniqueArray(fc.constantFrom(...SUBJECT_POOL), { minLength: 1, maxLength: 12 })
  .chain((slugs) => fc.tuple(...slugs.map((slug) => percentage.map((p): Mark => ({ subject_slug: slug, percentage: p })))))
  .map((tuple) => [...tuple]);

const schemeIndex = () => fc.integer({ min: 0, max: Math.max(0, schemes.length - 1) });

describe("APS engine properties (all 26 schemes)", () => {
  it("the pool's subjects exist", () => {
    expect(schemes).toHaveLength(26);
    for (const slug of SUBJECT_POOL) expect(subjectSlugs).toContain(slug);
  });

  it("raising one mark never lowers the score", () => {
    fc.assert(
      fc.property(schemeIndex(), markSets, fc.nat(), percentage, (s, marks, which, other) => {
        const scheme = present(schemes[s], `scheme ${s}`);
        const i = which % marks.length;
        const original = present(marks[i], `mark ${i}`);
        const [low, high] = original.percentage <= other ? [original.percentage, other] : [other, original.percentage];
        const withLow = marks.map((m, j) => (j === i ? { ...m, percentage: low } : m));
        const withHigh = marks.map((m, j) => (j === i ? { ...m, percentage: high } : m));
        const a = computeAps(scheme, withLow);
        const b = computeAps(scheme, withHigh);
        expect(b.exact_score, scheme.id).toBeGreaterThanOrEqual(a.exact_score);
        expect(b.score, scheme.id).toBeGreaterThanOrEqual(a.score);
      }),
      { numRuns: runs(1000) },
    );
  });

  it("adding a subject never lowers the score", () => {
    fc.assert(
      fc.property(schemeIndex(), markSets, (s, marks) => {
        fc.pre(marks.length > 1);
        const scheme = present(schemes[s], `scheme ${s}`);
        expect(computeAps(scheme, marks).exact_score).toBeGreaterThanOrEqual(computeAps(scheme, marks.slice(1)).exact_score);
      }),
      { numRuns: runs(500) },
    );
  });

  it("the order of the marks changes nothing", () => {
    fc.assert(
      fc.property(
        schemeIndex(),
        markSets.chain((marks) => fc.tuple(fc.constant(marks), fc.shuffledSubarray(marks, { minLength: marks.length, maxLength: marks.length }))),
        (s, [marks, shuffled]) => {
          const scheme = present(schemes[s], `scheme ${s}`);
          expect(computeAps(scheme, shuffled)).toEqual(computeAps(scheme, marks));
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  it("the score alone (the comparison's and a programme's own score) is the calculator's score", () => {
    fc.assert(
      fc.property(schemeIndex(), markSets, fc.subarray(SUBJECT_POOL), (s, marks, required) => {
        const scheme = present(schemes[s], `scheme ${s}`);
        const forced = new Set(required);
        const full = computeAps(scheme, marks, forced);
        expect(apsScoreOf(scheme, marks, forced), scheme.id).toEqual({ score: full.score, exact_score: full.exact_score });
      }),
      { numRuns: runs(1000) },
    );
  });

  it("leaves the marks it is given as they were", () => {
    fc.assert(
      fc.property(schemeIndex(), markSets, (s, marks) => {
        const copy = structuredClone(marks);
        const frozen = Object.freeze(marks.map((m) => Object.freeze({ ...m })));
        computeAps(present(schemes[s], `scheme ${s}`), marks);
        computeAps(present(schemes[s], `scheme ${s}`), frozen);
        expect(marks).toEqual(copy);
      }),
      { numRuns: runs(250) },
    );
  });

  it("stays within 0 and the maximum for a realistic subject set", () => {
    const homeLanguages = ["english-home-language", "afrikaans-home-language", "isizulu-home-language"];
    const additional = ["english-first-additional-language", "afrikaans-first-additional-language", "isizulu-first-additional-language"];
    const maths = ["mathematics", "mathematical-literacy", "technical-mathematics"];
    const electives = ["physical-sciences", "life-sciences", "accounting", "geography", "history", "french-second-additional-language"];
    const learner = fc
      .tuple(
        fc.constantFrom(...homeLanguages),
        fc.constantFrom(...additional),
        fc.constantFrom(...maths),
        fc.uniqueArray(fc.constantFrom(...electives), { minLength: 3, maxLength: 5 }),
      )
      // Only one English: nobody writes it as both home and first additional language.
      .filter(([home, extra]) => !(home.startsWith("english") && extra.startsWith("english")))
      .chain(([home, extra, math, rest]) => {
        const slugs = [home, extra, math, "life-orientation", ...rest];
        return fc.tuple(...slugs.map((slug) => percentage.map((p): Mark => ({ subject_slug: slug, percentage: p }))));
      });
    fc.assert(
      fc.property(schemeIndex(), learner, (s, marks) => {
        const scheme = present(schemes[s], `scheme ${s}`);
        const result = computeAps(scheme, [...marks]);
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score, scheme.id).toBeLessThanOrEqual(scheme.maximum);
        expect(Number.isInteger(result.score)).toBe(true);
        expect(result.score).toBe(Math.floor(result.exact_score));
      }),
      { numRuns: runs(1000) },
    );
  });
});
