// Subject requirements as a witness states them, written in one compact cell of sources/evidence/*.csv,
// and in the canonical form two statements are compared in. Pure: no I/O, no knowledge of the subject
// table (the build checks the slugs).
//
//   english-home-language:5|english-first-additional-language:5;mathematics:6;~physical-sciences:4;@other-language:4
//
// Clauses are separated by ";" and each is required; alternatives inside a clause by "|" (any one meets
// it); an item is `<subject-slug>:<level>` (NSC achievement level 1-7) or `<subject-slug>:<percent>%`, or
// a rule: `@other-language:<level>` (another official language at home or first additional level) or
// `@other-subject:<level>` (one more subject, not Life Orientation). One learner subject meets at most one
// clause, so "two more subjects at level 4" is the rule clause written twice. A clause starting with "~" is a
// recommendation, not checked. The whole cell "none" states that there are no subject requirements.
import { SLUG } from "../lib/vocabulary.ts";

export const REQUIREMENT_RULES = ["other-language", "other-subject"] as const;
export type RequirementRule = (typeof REQUIREMENT_RULES)[number];

type RequirementOption =
  | { subject: string; rule?: undefined; min_percentage: number; min_level: number }
  | { rule: RequirementRule; subject?: undefined; min_percentage: number; min_level: number };

export type RequirementClause = { options: RequirementOption[]; recommended: boolean };

/** The lowest percentage of each NSC achievement level 1..7. */
const LEVEL_FLOOR = [0, 30, 40, 50, 60, 70, 80] as const;

export function levelOfPercentage(percentage: number): number {
  let level = 1;
  LEVEL_FLOOR.forEach((floor, i) => {
    if (percentage >= floor) level = i + 1;
  });
  return level;
}

function percentageOfLevel(level: number): number {
  return LEVEL_FLOOR[level - 1] ?? 0;
}

const ITEM = /^(@?[a-z0-9-]+):(\d{1,3})(%?)$/;

export type ParsedRequirements = { ok: true; clauses: RequirementClause[] } | { ok: false; message: string };

function parseItem(text: string): RequirementOption | string {
  const m = ITEM.exec(text);
  if (!m?.[1] || !m[2]) return `"${text}" is not <subject-slug>:<level> or <subject-slug>:<percent>%`;
  const [name, number, percent] = [m[1], Number(m[2]), m[3] === "%"];
  if (percent ? number > 100 : number < 1 || number > 7) return `"${text}": ${percent ? "a percentage is 0 to 100" : "a level is 1 to 7"}`;
  const min_percentage = percent ? number : percentageOfLevel(number);
  const min_level = percent ? levelOfPercentage(number) : number;
  if (name.startsWith("@")) {
    const rule = name.slice(1);
    if (!(REQUIREMENT_RULES as readonly string[]).includes(rule))
      return `"${text}": the rules are ${REQUIREMENT_RULES.map((r) => `@${r}`).join(", ")}`;
    return { rule: rule as RequirementRule, min_percentage, min_level };
  }
  if (!SLUG.test(name)) return `"${text}": "${name}" is not a subject slug`;
  return { subject: name, min_percentage, min_level };
}

/** Parses a requirements cell: empty = says nothing (null), "none" = no requirements, else clauses. */
export function parseRequirements(cell: string): ParsedRequirements | null {
  const text = cell.trim();
  if (text === "") return null;
  if (text === "none") return { ok: true, clauses: [] };
  const clauses: RequirementClause[] = [];
  for (const rawClause of text.split(";")) {
    let clauseText = rawClause.trim();
    const recommended = clauseText.startsWith("~");
    if (recommended) clauseText = clauseText.slice(1).trim();
    if (clauseText === "") return { ok: false, message: "an empty clause (two ';' in a row, or a ';' at the end)" };
    const options: RequirementOption[] = [];
    for (const item of clauseText.split("|")) {
      const parsed = parseItem(item.trim());
      if (typeof parsed === "string") return { ok: false, message: parsed };
      if (options.some((o) => optionKey(o) === optionKey(parsed))) return { ok: false, message: `"${item.trim()}" appears twice in one clause` };
      options.push(parsed);
    }
    clauses.push({ options, recommended });
  }
  return { ok: true, clauses };
}

const optionKey = (o: RequirementOption) => `${o.subject ?? `@${o.rule}`}:${o.min_percentage}`;

/** One clause in canonical text: options sorted, every bound as a percentage. */
function clauseKey(clause: RequirementClause): string {
  return `${clause.recommended ? "~" : ""}${clause.options.map(optionKey).sort().join("|")}`;
}

/** Two statements say the same when their canonical clause lists are equal (order does not matter). */
export function canonicalRequirements(clauses: readonly RequirementClause[]): string {
  return clauses.map(clauseKey).sort().join(";");
}

/** The statement written back in the compact form, levels where a bound is a level's floor. */
export function formatRequirements(clauses: readonly RequirementClause[]): string {
  if (clauses.length === 0) return "none";
  const item = (o: RequirementOption) =>
    `${o.subject ?? `@${o.rule}`}:${percentageOfLevel(o.min_level) === o.min_percentage ? o.min_level : `${o.min_percentage}%`}`;
  return clauses.map((c) => `${c.recommended ? "~" : ""}${c.options.map(item).join("|")}`).join(";");
}
