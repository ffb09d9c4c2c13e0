// The rules that turn witnesses into published facts, written once. Pure: the build applies them to the
// evidence tables (build/catalogue.ts), the tests apply them to hand-written evidence.
//
// Precedence (which statement a fact is published from): the witness kind first (the university's own
// page or document over a transcription of a named official document over a third party), then the newer
// intake year (a statement with no intake year ranks below every dated one of its kind).
//
// Confidence (how far a published fact can be trusted), from the statements that agree with it:
//   high   an official witness (own page or document) for the row's intake states it;
//   medium a transcription for the row's intake states it, or witnesses of two different lineages state it;
//   low    otherwise (one third-party witness, or only witnesses of one lineage).
// A witness speaking for an older intake than the row's, or for no stated intake, counts one level lower.
// Two witnesses of one lineage (a project and its own copies, a site and the site it says it copies) are one
// witness: agreement between them adds nothing.
import type { Confidence } from "../lib/vocabulary.ts";

export const WITNESS_KINDS = ["own-page", "official-document", "transcription", "third-party"] as const;
export type WitnessKind = (typeof WITNESS_KINDS)[number];

const KIND_RANK: Record<WitnessKind, number> = { "own-page": 3, "official-document": 3, transcription: 2, "third-party": 1 };
const LEVEL_OF: Record<number, Confidence> = { 3: "high", 2: "medium", 1: "low" };
const RANK_OF: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

/** One witness's statement of one fact: `value` is what it says, compared as text. */
export type Statement<V> = { value: V; key: string; kind: WitnessKind; intakeYear: number | null; lineage: string; witness: string };

/** Positive when a outranks b, negative when b outranks a, 0 when they rank the same. */
export function compareRank(a: Pick<Statement<unknown>, "kind" | "intakeYear">, b: Pick<Statement<unknown>, "kind" | "intakeYear">): number {
  // An unstated intake ranks below every stated one (0 stands for "unstated": years are four digits).
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || (a.intakeYear ?? 0) - (b.intakeYear ?? 0);
}

export type Decision<V> = {
  /** The statements of the highest rank (one or more). */
  top: Statement<V>[];
  /** The values the top statements give; more than one is an open conflict. */
  topKeys: string[];
  /** Lower-ranked statements that disagree with every top value. */
  outranked: Statement<V>[];
};

/** Which statements decide a fact; null when nobody states it. */
export function decide<V>(statements: readonly Statement<V>[]): Decision<V> | null {
  if (statements.length === 0) return null;
  const best = statements.reduce((a, b) => (compareRank(b, a) > 0 ? b : a));
  const top = statements.filter((s) => compareRank(s, best) === 0);
  const topKeys = [...new Set(top.map((s) => s.key))].sort();
  const outranked = statements.filter((s) => compareRank(s, best) < 0 && !topKeys.includes(s.key));
  return { top, topKeys, outranked };
}

/** The confidence a published value earns from the statements that state exactly it. */
export function confidenceOf<V>(publishedKey: string, statements: readonly Statement<V>[], rowIntakeYear: number): Confidence {
  const agreeing = statements.filter((s) => s.key === publishedKey);
  if (agreeing.length === 0) return "low";
  const levelOf = (s: Statement<V>) => Math.max(1, KIND_RANK[s.kind] - (s.intakeYear === rowIntakeYear ? 0 : 1));
  let level = Math.max(...agreeing.map(levelOf));
  if (new Set(agreeing.map((s) => s.lineage)).size >= 2) level = Math.max(level, 2);
  return LEVEL_OF[level] ?? "low";
}

/** The weaker of two confidences (a qualification is only as sure as its least sure fact). */
export function weakest(...levels: Confidence[]): Confidence {
  return LEVEL_OF[Math.min(...levels.map((l) => RANK_OF[l]))] ?? "low";
}
