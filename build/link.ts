// Stage 3, link: keys are unique, references resolve, and the tables are joined into one model the emit
// stage can turn into API records. Checks that need more than one row live here; checks on one row live
// in the row schemas.
import path from "node:path";
import { linkBursaries, type Bursary, type FieldOfStudy } from "./bursaries.ts";
import { judgeCatalogue, type Conflict, type Judgement } from "./catalogue.ts";
import { opaqueId } from "./ids.ts";
import { byText, groupBy, sortGrouped } from "./order.ts";
import type { Place, Problem, Warning } from "./problems.ts";
import { teachingLanguageSubjects } from "../domain/nsc-pass.ts";
import type { SourceTables } from "./tables/index.ts";
import type { Row, TableDefinition } from "./tables/define.ts";
import type { ValidRow, ValidTables } from "./validate.ts";

type Tables = SourceTables;
type Valid = ValidTables<Tables>;

type Province = Row<Tables["provinces"]>;
export type Subject = Row<Tables["subjects"]>;
export type { Requirement } from "./catalogue.ts";
export type Qualification = Row<Tables["qualifications"]> & Omit<Judgement, "requirementsStatement">;
type ApplicationCycle = Row<Tables["applicationCycles"]>;
type UniversityFee = Row<Tables["universityFees"]>;
type TeachingLanguage = Row<Tables["teachingLanguages"]>;
type UpstreamEdition = Row<Tables["upstreamEditions"]>;
export type University = Row<Tables["universities"]> & {
  province: Province;
  /** Its languages of learning and teaching (at least one: the link stage refuses a university without). */
  teachingLanguages: TeachingLanguage[];
  cycles: ApplicationCycle[];
  fees: UniversityFee[];
  qualifications: Qualification[];
  prospectuses: Prospectus[];
};
type NscResult = Row<Tables["nscResults"]>;
/** nsc_results: the school's NSC results by EMIS number, newest year first ([] when the report has none). */
export type HighSchool = Row<Tables["highSchools"]> & { id: string; province: Province; nsc_results: NscResult[] };
export type PostalCode = Row<Tables["postalCodes"]> & { id: string; province: Province | null };
export type { Bursary } from "./bursaries.ts";
export type Prospectus = Row<Tables["prospectuses"]> & { id: string };

export type Model = {
  provinces: Province[];
  universities: University[];
  subjects: Subject[];
  qualifications: Qualification[];
  highSchools: HighSchool[];
  postalCodes: PostalCode[];
  bursaries: Bursary[];
  /** The vocabulary of bursaries' fields of study, ordered by name. */
  fieldsOfStudy: FieldOfStudy[];
  prospectuses: Prospectus[];
  /** The upstream datasets' editions, by dataset. */
  upstreamEditions: UpstreamEdition[];
};

const rowsOf = <T>(rows: ValidRow<T>[]) => rows.map((r) => r.row);

/** Every table's key is unique and every reference names an existing row. */
export function checkKeysAndReferences(tables: Tables, valid: Valid): Problem[] {
  const problems: Problem[] = [];
  const byName = new Map<string, ValidRow<Record<string, unknown>>[]>();
  for (const key of Object.keys(tables) as (keyof Tables)[]) byName.set(tables[key].name, valid[key] as ValidRow<Record<string, unknown>>[]);
  for (const definition of Object.values(tables) as TableDefinition[]) {
    const rows = byName.get(definition.name) ?? [];
    problems.push(...duplicateKeys(definition, rows), ...danglingReferences(definition, rows, byName));
  }
  return problems;
}

function duplicateKeys(definition: TableDefinition, rows: ValidRow<Record<string, unknown>>[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, Place>();
  const [only] = definition.key.length === 1 ? definition.key : [];
  for (const { at, row } of rows) {
    // One column is most tables' key (and every national table's): its value, with no list made per row.
    const key = only !== undefined ? String(row[only] ?? "") : definition.key.map((column) => String(row[column] ?? "")).join(" | ");
    const first = seen.get(key);
    if (first) {
      problems.push({
        ...at,
        column: definition.key.join(", "),
        value: key,
        expected: `a unique ${definition.key.join(" + ")} in ${definition.name} (already used at ${first.file}:${first.line})`,
      });
    } else {
      seen.set(key, at);
    }
  }
  return problems;
}

function danglingReferences(
  definition: TableDefinition,
  rows: ValidRow<Record<string, unknown>>[],
  byName: Map<string, ValidRow<Record<string, unknown>>[]>,
): Problem[] {
  const problems: Problem[] = [];
  for (const reference of definition.references ?? []) {
    const targets = new Set((byName.get(reference.table) ?? []).map(({ row }) => row[reference.targetColumn]));
    for (const { at, row } of rows) {
      const value = row[reference.column];
      if (value === null || value === undefined || targets.has(value)) continue;
      problems.push({
        ...at,
        column: reference.column,
        value: String(value),
        expected: `a ${reference.targetColumn} that exists in ${reference.table}`,
      });
    }
  }
  return problems;
}

/** Rows of a per-university folder table must sit in their university's file (qualifications/<slug>.csv). */
function checkFilePerUniversity<T extends object>(
  rows: ValidRow<T>[],
  slugOf: (row: T) => string | undefined,
  column: keyof T & string,
  expected: (fileSlug: string, slug: string) => string,
): Problem[] {
  const problems: Problem[] = [];
  for (const { at, row } of rows) {
    const fileSlug = path.basename(at.file, ".csv");
    const slug = slugOf(row);
    if (slug !== undefined && slug !== fileSlug) problems.push({ ...at, column, value: String(row[column]), expected: expected(fileSlug, slug) });
  }
  return problems;
}

function linkQualifications(
  valid: Valid,
  subjectBySlug: Map<string, Subject>,
  problems: Problem[],
): { qualifications: Qualification[]; conflicts: Conflict[] } {
  problems.push(
    ...checkFilePerUniversity(
      valid.qualifications,
      (q) => q.university_slug,
      "university_slug",
      (fileSlug) => `the university of this file, ${fileSlug} (one file per university)`,
    ),
  );
  const catalogue = judgeCatalogue(valid, subjectBySlug);
  problems.push(...catalogue.problems);
  const qualifications = valid.qualifications.flatMap(({ row }) => {
    const judgement = catalogue.judgements.get(row.id);
    if (!judgement) return [];
    const { requirementsStatement: _, ...published } = judgement;
    return [{ ...row, ...published, requirements: sortRequirements(published.requirements) }];
  });
  qualifications.sort((a, b) => byText(a.university_slug, b.university_slug) || byText(a.name, b.name) || byText(a.id, b.id));
  return { qualifications, conflicts: catalogue.conflicts };
}

/** Requirements of every route first, then route by route; in each, compulsory first, then by alternative group and subject name. */
function sortRequirements(requirements: Qualification["requirements"]): Qualification["requirements"] {
  return [...requirements].sort(
    (a, b) =>
      (a.route ?? 0) - (b.route ?? 0) ||
      Number(b.is_compulsory) - Number(a.is_compulsory) ||
      byText(a.alternative_group ?? "", b.alternative_group ?? "") ||
      byText(a.subject.name, b.subject.name),
  );
}

function linkProspectuses(valid: Valid): Prospectus[] {
  return (
    rowsOf(valid.prospectuses)
      // A whole prospectus keeps the id it had before parts existed: "<slug>/<year>"; a part adds "/<part>".
      .map((row) => ({ ...row, id: opaqueId("pro", `${row.university_slug}/${row.year}${row.part ? `/${row.part}` : ""}`) }))
      .sort((a, b) => byText(a.university_slug, b.university_slug) || b.year - a.year || byText(a.part ?? "", b.part ?? ""))
  );
}

function linkUniversities(
  valid: Valid,
  provinceById: Map<string, Province>,
  qualifications: Qualification[],
  prospectuses: Prospectus[],
): University[] {
  const cyclesBy = groupBy(rowsOf(valid.applicationCycles), (c) => c.university_slug);
  const feesBy = groupBy(rowsOf(valid.universityFees), (f) => f.university_slug);
  const qualificationsBy = groupBy(qualifications, (q) => q.university_slug);
  const prospectusesBy = groupBy(prospectuses, (p) => p.university_slug);
  const languagesBy = groupBy(rowsOf(valid.teachingLanguages), (t) => t.university_slug);
  const universities = rowsOf(valid.universities).flatMap((row) => {
    const province = provinceById.get(row.province_id);
    if (!province) return [];
    const cycles = (cyclesBy.get(row.slug) ?? []).sort(
      (a, b) => b.intake_year - a.intake_year || byText(a.close_date, b.close_date) || byText(a.applies_to, b.applies_to),
    );
    const fees = (feesBy.get(row.slug) ?? []).sort(
      (a, b) => b.intake_year - a.intake_year || byText(a.fee_type, b.fee_type) || byText(a.applies_to, b.applies_to),
    );
    return [
      {
        ...row,
        province,
        teachingLanguages: (languagesBy.get(row.slug) ?? []).sort((a, b) => byText(a.language, b.language)),
        cycles,
        fees,
        qualifications: qualificationsBy.get(row.slug) ?? [],
        prospectuses: prospectusesBy.get(row.slug) ?? [],
      },
    ];
  });
  return universities.sort((a, b) => byText(a.name, b.name));
}

/** Schools with their NSC results joined by EMIS number. */
// The national tables' records are made with Object.assign: on Node 20, an object literal that spreads a row and
// then adds fields ({ ...row, id }) took ten times as long (70 to 100 ms for the 21,000 postal codes).
function linkHighSchools(valid: Valid, provinceById: Map<string, Province>, warnings: Warning[]): HighSchool[] {
  const nscBySchool = groupBy(rowsOf(valid.nscResults), (r) => r.emis_number);
  const highSchools = rowsOf(valid.highSchools).flatMap((row) => {
    const province = provinceById.get(row.province_id);
    const nsc_results = (nscBySchool.get(row.emis_number) ?? []).sort((a, b) => b.year - a.year);
    return province ? [Object.assign({}, row, { id: opaqueId("hs", row.emis_number), province, nsc_results })] : [];
  });
  // The report lists some schools the masterlist does not publish as high schools (closed, primary, special
  // needs, renumbered): their rows stay in the table as facts of the report, but have nowhere to go.
  const schoolEmis = new Set(highSchools.map((h) => h.emis_number));
  const unmatched = [...nscBySchool.keys()].filter((emis) => !schoolEmis.has(emis));
  if (unmatched.length > 0) {
    warnings.push({
      resource: "high-schools",
      kind: "schools with NSC results that are not published high schools",
      count: unmatched.length,
      message: `${unmatched.length} of ${nscBySchool.size} schools in nsc-results.csv are not high schools in high-schools.csv (e.g. ${unmatched.slice(0, 3).join(", ")}): their NSC results are not published (the import report says why)`,
    });
  }
  return sortGrouped(
    highSchools,
    (h) => h.province.name,
    (a, b) => byText(a.name, b.name) || byText(a.emis_number, b.emis_number),
  );
}

function linkPostalCodes(valid: Valid, provinceById: Map<string, Province>): PostalCode[] {
  const records = rowsOf(valid.postalCodes).map((row) =>
    Object.assign({}, row, {
      // A record without an area keeps the id it had when SAPO's placeholder "-" was its area, so ids stay stable.
      id: opaqueId("pc", [row.suburb, row.area ?? "-", row.street_code ?? "", row.box_code ?? ""].join("|")),
      province: row.province_id === null ? null : (provinceById.get(row.province_id) ?? null),
    }),
  );
  return sortGrouped(
    records,
    (p) => p.area ?? "",
    (a, b) => byText(a.suburb, b.suburb) || byText(a.id, b.id),
  );
}

/** Derived ids are hashes: a collision is astronomically unlikely, but it would silently merge two records. */
function checkDerivedIds(model: Model): Problem[] {
  const problems: Problem[] = [];
  for (const [name, records] of [
    ["high-schools", model.highSchools],
    ["postal-codes", model.postalCodes],
    ["bursaries", model.bursaries],
    ["prospectuses", model.prospectuses],
  ] as const) {
    const ids = new Set<string>();
    for (const record of records) {
      if (ids.has(record.id)) problems.push({ file: name, line: 0, value: record.id, expected: "derived ids to be unique" });
      ids.add(record.id);
    }
  }
  return problems;
}

/** What a person curating the data should know: gaps per university, bare qualifications (bursaries: build/bursaries.ts). */
function gapWarnings(model: Model): Warning[] {
  const warnings: Warning[] = [];
  for (const university of model.universities) {
    const gaps = [
      university.cycles.length === 0 ? "no application cycle (application-cycles.csv)" : "",
      university.fees.length === 0 ? "no application fee (university-fees.csv)" : "",
      university.prospectuses.length === 0 ? "no prospectus (prospectuses.csv)" : "",
      university.qualifications.length === 0 ? `no qualifications (qualifications/${university.slug}.csv)` : "",
    ].filter(Boolean);
    if (gaps.length > 0)
      warnings.push({
        resource: "universities",
        kind: "universities with gaps in their data",
        message: `${university.short_name}: ${gaps.join(", ")}`,
      });
  }
  const noRequirements = model.qualifications.filter((q) => q.requirements.length === 0);
  if (noRequirements.length > 0) {
    warnings.push({
      resource: "qualifications",
      kind: "qualifications without a subject requirement",
      count: noRequirements.length,
      message: `${noRequirements.length} qualification(s) have no subject requirement, e.g. ${noRequirements[0]?.id} (${noRequirements[0]?.name})`,
    });
  }
  return warnings;
}

export function linkModel(valid: Valid, today: string): { model: Model; conflicts: Conflict[]; problems: Problem[]; warnings: Warning[] } {
  const problems: Problem[] = [];
  const linkWarnings: Warning[] = [];
  const provinces = rowsOf(valid.provinces).sort((a, b) => byText(a.name, b.name));
  const provinceById = new Map(provinces.map((p) => [p.id, p]));
  const subjects = rowsOf(valid.subjects).sort((a, b) => byText(a.name, b.name));
  const { qualifications, conflicts } = linkQualifications(valid, new Map(subjects.map((s) => [s.slug, s])), problems);
  const prospectuses = linkProspectuses(valid);
  const linkedBursaries = linkBursaries(valid, new Set(provinces.map((p) => p.id)), today);
  problems.push(...linkedBursaries.problems);
  linkWarnings.push(...linkedBursaries.warnings);
  const model: Model = {
    provinces,
    universities: linkUniversities(valid, provinceById, qualifications, prospectuses),
    subjects,
    qualifications,
    highSchools: linkHighSchools(valid, provinceById, linkWarnings),
    postalCodes: linkPostalCodes(valid, provinceById),
    bursaries: linkedBursaries.bursaries,
    fieldsOfStudy: linkedBursaries.fieldsOfStudy,
    prospectuses,
    upstreamEditions: rowsOf(valid.upstreamEditions).sort((a, b) => byText(a.dataset, b.dataset)),
  };
  problems.push(...checkDerivedIds(model), ...checkTeachingLanguages(valid, model));
  return { model, conflicts, problems, warnings: [...linkWarnings, ...gapWarnings(model)] };
}

/** Every university names its language(s) of learning and teaching, and each is a subject at HL and FAL level. */
function checkTeachingLanguages(valid: Valid, model: Model): Problem[] {
  const problems: Problem[] = [];
  const subjects = new Set(model.subjects.map((s) => s.slug));
  const table = valid.universities[0]?.at.file ?? "sources/universities.csv";
  for (const u of valid.universities) {
    if (!model.universities.some((m) => m.slug === u.row.slug && m.teachingLanguages.length > 0)) {
      problems.push({
        ...u.at,
        column: "slug",
        value: u.row.slug,
        expected: `a university with its language(s) of learning and teaching in sources/teaching-languages.csv (the statutory minimum needs them; see ${table})`,
      });
    }
  }
  for (const t of valid.teachingLanguages) {
    const missing = teachingLanguageSubjects(t.row.language).filter((slug) => !subjects.has(slug));
    if (missing.length > 0)
      problems.push({ ...t.at, column: "language", value: t.row.language, expected: `a language whose subjects exist (${missing.join(", ")})` });
  }
  return problems;
}
