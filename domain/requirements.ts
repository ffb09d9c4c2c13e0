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
//
// Alternative routes: where a document offers whole alternative sets of requirements in which one mark may serve
// in both ("Mathematics 70%, or Mathematics 60% with Accounting 70%"), the sets are separated by "||" and any one
// whole set suffices: `mathematics:70%||mathematics:60%;accounting:70%`. A clause stated in every route is
// held once, with route null; the others carry their route's number (1, 2, ...), and a learner subject still
// meets one clause only within a route.
import { SLUG } from "../lib/vocabulary.ts";

export const REQUIREMENT_RULES = ["other-language", "other-subject"] as const;
export type RequirementRule = (typeof REQUIREMENT_RULES)[number];

type RequirementOption =
  | { subject: string; rule?: undefined; min_percentage: number; min_level: number }
  | { rule: RequirementRule; subject?: undefined; min_percentage: number; min_level: number };

/** `route`: null for a clause every route needs (or a statement without routes); else its route's number, from 1. */
export type RequirementClause = { options: RequirementOption[]; recommended: boolean; route: number | null };

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
  const routes: RequirementClause[][] = [];
  for (const routeText of text.split("||")) {
    const route = parseRoute(routeText);
    if (typeof route === "string") return { ok: false, message: route };
    routes.push(route);
  }
  if (routes.length === 1) return { ok: true, clauses: routes[0] ?? [] };
  // A clause in every route is needed whatever the route: held once, route null (as many times as every route has it).
  const countIn = (route: RequirementClause[], key: string) => route.filter((c) => clauseKey(c) === key).length;
  const sharedCount = new Map<string, number>();
  for (const c of routes[0] ?? []) sharedCount.set(clauseKey(c), Math.min(...routes.map((r) => countIn(r, clauseKey(c)))));
  const clauses: RequirementClause[] = [];
  const take = new Map(sharedCount);
  for (const c of routes[0] ?? []) {
    const left = take.get(clauseKey(c)) ?? 0;
    if (left > 0) {
      clauses.push(c);
      take.set(clauseKey(c), left - 1);
    }
  }
  routes.forEach((route, i) => {
    const skip = new Map(sharedCount);
    for (const c of route) {
      const left = skip.get(clauseKey(c)) ?? 0;
      if (left > 0) skip.set(clauseKey(c), left - 1);
      else clauses.push({ ...c, route: i + 1 });
    }
  });
  const routeCount = new Set(clauses.flatMap((c) => (c.route === null ? [] : [c.route]))).size;
  if (routeCount < 2) return { ok: false, message: "routes separated by '||' must differ (one route asks for everything another asks for)" };
  return { ok: true, clauses };
}

function parseRoute(text: string): RequirementClause[] | string {
  if (text.trim() === "") return "an empty route (two '||' in a row, or a '||' at either end)";
  const clauses: RequirementClause[] = [];
  for (const rawClause of text.split(";")) {
    let clauseText = rawClause.trim();
    const recommended = clauseText.startsWith("~");
    if (recommended) clauseText = clauseText.slice(1).trim();
    if (clauseText === "") return "an empty clause (two ';' in a row, or a ';' at the end)";
    const options: RequirementOption[] = [];
    for (const item of clauseText.split("|")) {
      const parsed = parseItem(item.trim());
      if (typeof parsed === "string") return parsed;
      if (options.some((o) => optionKey(o) === optionKey(parsed))) return `"${item.trim()}" appears twice in one clause`;
      options.push(parsed);
    }
    clauses.push({ options, recommended, route: null });
  }
  // A subject required on its own cannot also fill another clause (one mark meets one clause): a statement that
  // names it twice so means the same mark serves both, which is what routes say.
  for (const [i, clause] of clauses.entries()) {
    const only = clause.options.length === 1 && !clause.recommended ? clause.options[0]?.subject : undefined;
    if (only === undefined) continue;
    if (clauses.some((other, j) => j !== i && !other.recommended && other.options.some((o) => o.subject === only)))
      return `"${only}" is required on its own and also named in another clause; if one mark may serve both, write the alternatives as routes separated by '||'`;
  }
  return clauses;
}

const optionKey = (o: RequirementOption) => `${o.subject ?? `@${o.rule}`}:${o.min_percentage}`;

/** One clause in canonical text: options sorted, every bound as a percentage (its route aside). */
function clauseKey(clause: RequirementClause): string {
  return `${clause.recommended ? "~" : ""}${clause.options.map(optionKey).sort().join("|")}`;
}

/** The numbers of a statement's routes, in order ([] when it has none). */
function routesOf(clauses: readonly RequirementClause[]): number[] {
  return [...new Set(clauses.flatMap((c) => (c.route === null ? [] : [c.route])))].sort((a, b) => a - b);
}

/** Each route's whole set of clauses (shared clauses in each); one set when the statement has no routes. */
function routeSets(clauses: readonly RequirementClause[]): RequirementClause[][] {
  const routes = routesOf(clauses);
  if (routes.length === 0) return [[...clauses]];
  return routes.map((r) => clauses.filter((c) => c.route === null || c.route === r));
}

/** Two statements say the same when their canonical clause lists are equal (order of clauses and of routes does
 * not matter). */
export function canonicalRequirements(clauses: readonly RequirementClause[]): string {
  return routeSets(clauses)
    .map((set) => set.map(clauseKey).sort().join(";"))
    .sort()
    .join("||");
}

/** The statement written back in the compact form, levels where a bound is a level's floor. */
export function formatRequirements(clauses: readonly RequirementClause[]): string {
  if (clauses.length === 0) return "none";
  const item = (o: RequirementOption) =>
    `${o.subject ?? `@${o.rule}`}:${percentageOfLevel(o.min_level) === o.min_percentage ? o.min_level : `${o.min_percentage}%`}`;
  const clause = (c: RequirementClause) => `${c.recommended ? "~" : ""}${c.options.map(item).join("|")}`;
  return routeSets(clauses)
    .map((set) => set.map(clause).join(";"))
    .join("||");
}
