// The programme catalogue's evidence (part of the link stage): every fact of a qualification is backed by
// witnesses (sources/evidence/*.csv, sources/witnesses/*.csv). Here the rules of domain/evidence.ts are
// applied to them: the published min_aps must be what the top-ranked witness states (the build fails
// otherwise), the intake year is the newest any witness speaks for, the published subject requirements
// are taken from the top-ranked witness that states them, each qualification's confidence is derived, and
// every disagreement between witnesses is collected for the conflicts report.
import path from "node:path";
import { compareRank, confidenceOf, decide, weakest, type Decision, type Statement, type WitnessKind } from "../domain/evidence.ts";
import { canonicalRequirements, formatRequirements, type RequirementClause, type RequirementRule } from "../domain/requirements.ts";
import type { Confidence } from "../lib/vocabulary.ts";
import type { Place, Problem } from "./problems.ts";
import type { Row } from "./tables/define.ts";
import type { SourceTables } from "./tables/index.ts";
import type { ValidRow, ValidTables } from "./validate.ts";

type Tables = SourceTables;
type QualificationRow = Row<Tables["qualifications"]>;
type EvidenceRow = Row<Tables["evidence"]>;
type Witness = Row<Tables["witnesses"]>;
type SubjectRow = Row<Tables["subjects"]>;

/** A published subject requirement (a row of GET /v1/data/qualifications/{id}/requirements). */
export type Requirement = {
  subject: SubjectRow;
  min_level: number;
  min_percentage: number;
  is_compulsory: boolean;
  alternative_group: string | null;
  /** null: needed on every route; n: part of alternative route n (domain/requirements.ts). */
  route: number | null;
  source_url: string;
  verified_on: string;
};

/** A requirement on a class of subjects rather than one subject ("another language at level 4"). */
type GeneralRequirement = {
  rule: RequirementRule;
  min_level: number;
  min_percentage: number;
  alternative_group: string | null;
  route: number | null;
};

type SourceReference = { witness: string; title: string; kind: WitnessKind; url: string; intake_year: number | null; verified_on: string };

export type Judgement = {
  requirements: Requirement[];
  generalRequirements: GeneralRequirement[];
  /** The compact statement the requirements were published from (for reports), or null. */
  requirementsStatement: string | null;
  confidence: Confidence;
  sources: SourceReference[];
};

export type ConflictEntry = { value: string; witness: string; kind: WitnessKind; intake_year: number | null; url: string; at: Place };

export type Conflict = {
  university_slug: string;
  qualification_id: string;
  qualification: string;
  fact: "min_aps" | "requirements";
  /** open: the top-ranked witnesses disagree among themselves, or an undated official page is published against a
   * transcription dated for the row's intake; outranked: a lower-ranked witness says otherwise. */
  status: "open" | "outranked";
  published: string;
  entries: ConflictEntry[];
};

export type CatalogueJudgement = { judgements: Map<string, Judgement>; conflicts: Conflict[]; problems: Problem[] };

type Evidence = ValidRow<EvidenceRow> & { witness: Witness };

function statementOf<V>(e: Evidence, value: V, key: string): Statement<V> & { evidence: Evidence } {
  return { value, key, kind: e.witness.kind, intakeYear: e.row.intake_year, lineage: e.witness.lineage, witness: e.witness.id, evidence: e };
}

const entryOf = (s: Statement<unknown> & { evidence: Evidence }): ConflictEntry => ({
  value: s.key,
  witness: s.witness,
  kind: s.kind,
  intake_year: s.intakeYear,
  url: s.evidence.row.source_url,
  at: s.evidence.at,
});

const ENGLISH = new Set(["english-home-language", "english-first-additional-language"]);
const MATHEMATICS = new Set(["mathematics", "mathematical-literacy", "technical-mathematics"]);

/** A label for an alternative group people can read: english, mathematics, or option; numbered when repeated. */
function groupLabels(clauses: RequirementClause[]): (string | null)[] {
  const used = new Map<string, number>();
  return clauses.map((clause) => {
    if (clause.options.length === 1 || clause.recommended) return null;
    const subjects = clause.options.map((o) => o.subject);
    const base = subjects.every((s) => s !== undefined && ENGLISH.has(s))
      ? "english"
      : subjects.every((s) => s !== undefined && MATHEMATICS.has(s))
        ? "mathematics"
        : "option";
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/** The published form of a statement: subject rows (compulsory, or alternatives sharing a group) and rules. */
function publish(
  clauses: RequirementClause[],
  from: EvidenceRow,
  subjectBySlug: Map<string, SubjectRow>,
): Pick<Judgement, "requirements" | "generalRequirements"> {
  const requirements: Requirement[] = [];
  const generalRequirements: GeneralRequirement[] = [];
  const labels = groupLabels(clauses);
  clauses.forEach((clause, i) => {
    const group = labels[i] ?? null;
    for (const option of clause.options) {
      const bounds = { min_level: option.min_level, min_percentage: option.min_percentage };
      if (option.rule !== undefined) {
        generalRequirements.push({ rule: option.rule, ...bounds, alternative_group: group, route: clause.route });
        continue;
      }
      const subject = subjectBySlug.get(option.subject);
      if (!subject) continue;
      const compulsory = group === null && !clause.recommended;
      requirements.push({
        subject,
        ...bounds,
        is_compulsory: compulsory,
        alternative_group: group,
        route: clause.route,
        source_url: from.source_url,
        verified_on: from.verified_on,
      });
    }
  });
  return { requirements, generalRequirements };
}

/** Subject slugs in a statement that are not in subjects.csv. */
function unknownSubjects(clauses: RequirementClause[], subjectBySlug: Map<string, SubjectRow>): string[] {
  return clauses.flatMap((c) => c.options.flatMap((o) => (o.subject !== undefined && !subjectBySlug.has(o.subject) ? [o.subject] : [])));
}

function conflictsOf<V>(q: QualificationRow, fact: Conflict["fact"], decision: Decision<V>, publishedKey: string): Conflict[] {
  const base = { university_slug: q.university_slug, qualification_id: q.id, qualification: q.name, fact, published: publishedKey };
  const top = decision.top as (Statement<V> & { evidence: Evidence })[];
  const conflicts: Conflict[] = [];
  if (decision.topKeys.length > 1) conflicts.push({ ...base, status: "open", entries: top.map(entryOf) });
  if (decision.outranked.length > 0) {
    const published = top.filter((s) => s.key === publishedKey);
    const outranked = decision.outranked as (Statement<V> & { evidence: Evidence })[];
    // Settled by kind, but not by date: the published statement is an undated page of the university's, and a
    // transcription of a document dated for the row's intake says otherwise. Which is current, the rule cannot
    // tell (an undated page may be last year's), so it stays open for someone to read the dated document.
    const undated =
      published.every((s) => s.intakeYear === null) && outranked.some((s) => s.intakeYear === q.intake_year && s.kind === "transcription");
    conflicts.push({
      ...base,
      status: undated ? "open" : "outranked",
      entries: [...published, ...outranked].map(entryOf),
    });
  }
  return conflicts;
}

function judge(
  q: ValidRow<QualificationRow>,
  evidence: Evidence[],
  subjectBySlug: Map<string, SubjectRow>,
  problems: Problem[],
  conflicts: Conflict[],
): Judgement | null {
  const { at, row } = q;
  if (evidence.length === 0) {
    problems.push({
      ...at,
      column: "id",
      value: row.id,
      expected: `at least one witness for this qualification in sources/evidence/${row.university_slug}.csv`,
    });
    return null;
  }
  const dated = evidence.flatMap((e) => (e.row.intake_year === null ? [] : [e.row.intake_year]));
  if (dated.length > 0 && row.intake_year !== Math.max(...dated)) {
    problems.push({
      ...at,
      column: "intake_year",
      value: String(row.intake_year),
      expected: `${Math.max(...dated)}, the newest intake a witness of this qualification speaks for`,
    });
  }

  // "none": the witness states there is no APS minimum, published as min_aps null.
  const published = row.min_aps === null ? "none" : String(row.min_aps);
  const apsStatements = evidence.flatMap((e) => (e.row.min_aps === null ? [] : [statementOf(e, e.row.min_aps, String(e.row.min_aps))]));
  const aps = decide(apsStatements);
  if (!aps) {
    problems.push({
      ...at,
      column: "min_aps",
      value: row.min_aps === null ? "" : published,
      expected: "a witness that states this min_aps, or states there is none (no evidence row gives one)",
    });
    return null;
  }
  if (!aps.topKeys.includes(published)) {
    const top = aps.top[0] as Statement<number> & { evidence: Evidence };
    problems.push({
      ...at,
      column: "min_aps",
      value: row.min_aps === null ? "" : published,
      expected: `${aps.topKeys.map((k) => (k === "none" ? "empty (the witness states there is no APS minimum)" : k)).join(" or ")}, what the top-ranked witness states (${top.witness}, ${top.kind}, intake ${top.intakeYear ?? "unstated"}, ${top.evidence.at.file}:${top.evidence.at.line})`,
    });
  }
  conflicts.push(...conflictsOf(row, "min_aps", aps, published));
  let confidence = confidenceOf(published, apsStatements, row.intake_year);

  const requirementStatements = evidence.flatMap((e) => {
    if (e.row.requirements === null) return [];
    const unknown = unknownSubjects(e.row.requirements, subjectBySlug);
    if (unknown.length > 0) {
      problems.push({
        ...e.at,
        column: "requirements",
        value: formatRequirements(e.row.requirements),
        expected: `subject slugs that exist in subjects (not ${unknown.join(", ")})`,
      });
      return [];
    }
    return [statementOf(e, e.row.requirements, canonicalRequirements(e.row.requirements))];
  });
  const requirements = decide(requirementStatements);
  let publishedRequirements: Pick<Judgement, "requirements" | "generalRequirements"> = { requirements: [], generalRequirements: [] };
  let requirementsStatement: string | null = null;
  if (requirements) {
    // Tied top witnesses: the fullest statement, then the witness id, so the choice is deterministic.
    const chosen = [...requirements.top].sort(
      (a, b) => b.value.length - a.value.length || (a.witness < b.witness ? -1 : a.witness > b.witness ? 1 : 0),
    )[0] as Statement<RequirementClause[]> & { evidence: Evidence };
    publishedRequirements = publish(chosen.value, chosen.evidence.row, subjectBySlug);
    requirementsStatement = formatRequirements(chosen.value);
    conflicts.push(...conflictsOf(row, "requirements", requirements, chosen.key));
    confidence = weakest(confidence, confidenceOf(chosen.key, requirementStatements, row.intake_year));
  }

  const sources = [...evidence]
    .sort((a, b) => compareRank(statementOf(b, null, ""), statementOf(a, null, "")) || (a.witness.id < b.witness.id ? -1 : 1))
    .map((e) => ({
      witness: e.witness.id,
      title: e.witness.title,
      kind: e.witness.kind,
      url: e.row.source_url,
      intake_year: e.row.intake_year,
      verified_on: e.row.verified_on,
    }));
  return { ...publishedRequirements, requirementsStatement, confidence, sources };
}

export function judgeCatalogue(valid: ValidTables<Tables>, subjectBySlug: Map<string, SubjectRow>): CatalogueJudgement {
  const problems: Problem[] = [];
  const conflicts: Conflict[] = [];
  const witnessById = new Map(valid.witnesses.map((w) => [w.row.id, w.row]));
  const universityOf = new Map(valid.qualifications.map((q) => [q.row.id, q.row.university_slug]));
  const evidenceBy = new Map<string, Evidence[]>();
  for (const e of valid.evidence) {
    const witness = witnessById.get(e.row.witness_id);
    if (!witness) continue; // reported as a dangling reference
    const owner = universityOf.get(e.row.qualification_id);
    const fileSlug = path.basename(e.at.file, ".csv");
    if (owner !== undefined && owner !== fileSlug) {
      problems.push({
        ...e.at,
        column: "qualification_id",
        value: e.row.qualification_id,
        expected: `a qualification of ${fileSlug} (this qualification belongs to ${owner})`,
      });
    }
    const list = evidenceBy.get(e.row.qualification_id) ?? [];
    list.push({ ...e, witness });
    evidenceBy.set(e.row.qualification_id, list);
  }
  const judgements = new Map<string, Judgement>();
  for (const q of valid.qualifications) {
    const judgement = judge(q, evidenceBy.get(q.row.id) ?? [], subjectBySlug, problems, conflicts);
    if (judgement) judgements.set(q.row.id, judgement);
  }
  return { judgements, conflicts, problems };
}
