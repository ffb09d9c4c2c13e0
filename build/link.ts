// Stage 3, link: keys are unique, references resolve, and the tables are joined into one model the emit
// stage can turn into API records. Checks that need more than one row live here; checks on one row live
// in the row schemas.
import path from "node:path";
import type { SourceTables } from "./tables/index.ts";
import type { Row, TableDefinition } from "./tables/define.ts";
import type { ValidRow, ValidTable } from "./validate.ts";
import type { Place, Problem, Warning } from "./problems.ts";
import { opaqueId } from "./ids.ts";

type Rows<T extends TableDefinition> = ValidRow<Row<T>>[];
type T = SourceTables;

export type Province = Row<T["provinces"]>;
export type Subject = Row<T["subjects"]>;
export type Requirement = Row<T["qualificationRequirements"]> & { subject: Subject };
export type Qualification = Row<T["qualifications"]> & { requirements: Requirement[] };
export type University = Row<T["universities"]> & {
  province: Province;
  cycles: Row<T["applicationCycles"]>[];
  fees: Row<T["universityFees"]>[];
  qualifications: Qualification[];
  prospectuses: Prospectus[];
};
export type NscResult = Row<T["nscResults"]>;
/** nsc_results: the school's NSC results by EMIS number, newest year first ([] when the report has none). */
export type HighSchool = Row<T["highSchools"]> & { id: string; province: Province; nsc_results: NscResult[] };
export type PostalCode = Row<T["postalCodes"]> & { id: string; province: Province | null };
export type Bursary = Row<T["bursaries"]> & { id: string };
export type Prospectus = Row<T["prospectuses"]> & { id: string };

export type Model = {
  provinces: Province[];
  universities: University[];
  subjects: Subject[];
  qualifications: Qualification[];
  highSchools: HighSchool[];
  postalCodes: PostalCode[];
  bursaries: Bursary[];
  prospectuses: Prospectus[];
};

// Names sort as people expect ("University of the Free State" before "University of Zululand"); the
// collator is fixed to English so the order, and so the output bytes, do not depend on the machine's locale.
const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
const byText = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

export function checkKeysAndReferences(tables: SourceTables, valid: Map<string, ValidTable>): Problem[] {
  const problems: Problem[] = [];
  const definitions = Object.values(tables) as TableDefinition[];
  for (const definition of definitions) {
    const rows = valid.get(definition.name)?.rows ?? [];
    const seen = new Map<string, Place>();
    for (const { at, row } of rows) {
      const key = definition.key.map((column) => String(row[column] ?? "")).join(" | ");
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
    for (const reference of definition.references ?? []) {
      const targets = new Set((valid.get(reference.table)?.rows ?? []).map(({ row }) => row[reference.targetColumn]));
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
  }
  return problems;
}

export function linkModel(
  tables: SourceTables,
  valid: Map<string, ValidTable>,
  today: string,
): { model: Model; problems: Problem[]; warnings: Warning[] } {
  const problems: Problem[] = [];
  const warnings: Warning[] = [];
  const rowsOf = <D extends TableDefinition>(definition: D) => (valid.get(definition.name)?.rows ?? []) as Rows<D>;

  const provinces = rowsOf(tables.provinces).map((r) => r.row).sort((a, b) => byText(a.name, b.name));
  const provinceById = new Map(provinces.map((p) => [p.id, p]));
  const subjects = rowsOf(tables.subjects).map((r) => r.row).sort((a, b) => byText(a.name, b.name));
  const subjectBySlug = new Map(subjects.map((s) => [s.slug, s]));

  const requirementsByQualification = groupBy(rowsOf(tables.qualificationRequirements), (r) => r.row.qualification_id);
  const qualificationRows = rowsOf(tables.qualifications);
  for (const { at, row } of qualificationRows) {
    const fileSlug = path.basename(at.file, ".csv");
    if (fileSlug !== row.university_slug) {
      problems.push({
        ...at,
        column: "university_slug",
        value: row.university_slug,
        expected: `the university of this file, ${fileSlug} (one file per university)`,
      });
    }
  }
  const qualificationById = new Map(qualificationRows.map((q) => [q.row.id, q]));
  for (const { at, row } of rowsOf(tables.qualificationRequirements)) {
    const owner = qualificationById.get(row.qualification_id);
    const fileSlug = path.basename(at.file, ".csv");
    if (owner && owner.row.university_slug !== fileSlug) {
      problems.push({
        ...at,
        column: "qualification_id",
        value: row.qualification_id,
        expected: `a qualification of ${fileSlug} (this qualification belongs to ${owner.row.university_slug})`,
      });
    }
  }

  const qualifications: Qualification[] = qualificationRows.map(({ row }) => {
    const requirementRows = requirementsByQualification.get(row.id) ?? [];
    const groups = groupBy(
      requirementRows.filter((r) => r.row.alternative_group !== null),
      (r) => r.row.alternative_group ?? "",
    );
    for (const [group, members] of groups) {
      if (members.length === 1 && members[0]) {
        problems.push({
          ...members[0].at,
          column: "alternative_group",
          value: group,
          expected: "at least two rows in an alternative group (a single requirement is is_compulsory true with no group)",
        });
      }
    }
    const requirements = requirementRows
      .flatMap(({ row: r }) => {
        const subject = subjectBySlug.get(r.subject_slug);
        return subject ? [{ ...r, subject }] : [];
      })
      .sort(
        (a, b) =>
          Number(b.is_compulsory) - Number(a.is_compulsory) ||
          byText(a.alternative_group ?? "", b.alternative_group ?? "") ||
          byText(a.subject.name, b.subject.name),
      );
    return { ...row, requirements };
  });
  qualifications.sort((a, b) => byText(a.university_slug, b.university_slug) || byText(a.name, b.name) || byText(a.id, b.id));

  const prospectuses: Prospectus[] = rowsOf(tables.prospectuses)
    // A whole prospectus keeps the id it had before parts existed: "<slug>/<year>"; a part adds "/<part>".
    .map(({ row }) => ({ ...row, id: opaqueId("pro", `${row.university_slug}/${row.year}${row.part ? `/${row.part}` : ""}`) }))
    .sort((a, b) => byText(a.university_slug, b.university_slug) || b.year - a.year || byText(a.part ?? "", b.part ?? ""));

  const cyclesBy = groupBy(rowsOf(tables.applicationCycles), (r) => r.row.university_slug);
  const feesBy = groupBy(rowsOf(tables.universityFees), (r) => r.row.university_slug);
  const qualificationsBy = groupBy(qualifications, (q) => q.university_slug);
  const prospectusesBy = groupBy(prospectuses, (p) => p.university_slug);

  const universities: University[] = rowsOf(tables.universities).flatMap(({ row }) => {
    const province = provinceById.get(row.province_id);
    if (!province) return [];
    return [
      {
        ...row,
        province,
        cycles: (cyclesBy.get(row.slug) ?? [])
          .map((r) => r.row)
          .sort((a, b) => b.intake_year - a.intake_year || byText(a.close_date, b.close_date) || byText(a.applies_to, b.applies_to)),
        fees: (feesBy.get(row.slug) ?? [])
          .map((r) => r.row)
          .sort((a, b) => b.intake_year - a.intake_year || byText(a.fee_type, b.fee_type) || byText(a.applies_to, b.applies_to)),
        qualifications: qualificationsBy.get(row.slug) ?? [],
        prospectuses: prospectusesBy.get(row.slug) ?? [],
      },
    ];
  });
  universities.sort((a, b) => byText(a.name, b.name));

  const nscBySchool = groupBy(rowsOf(tables.nscResults), (r) => r.row.emis_number);
  const highSchools: HighSchool[] = rowsOf(tables.highSchools).flatMap(({ row }) => {
    const province = provinceById.get(row.province_id);
    const nsc_results = (nscBySchool.get(row.emis_number) ?? []).map((r) => r.row).sort((a, b) => b.year - a.year);
    return province ? [{ ...row, id: opaqueId("hs", row.emis_number), province, nsc_results }] : [];
  });
  // The report lists some schools the masterlist does not publish as high schools (closed, primary, special
  // needs, renumbered): their rows stay in the table as facts of the report, but have nowhere to go.
  const schoolEmis = new Set(highSchools.map((h) => h.emis_number));
  const unmatched = [...nscBySchool.keys()].filter((emis) => !schoolEmis.has(emis));
  if (unmatched.length > 0) {
    warnings.push({
      resource: "high-schools",
      message: `${unmatched.length} of ${nscBySchool.size} schools in nsc-results.csv are not high schools in high-schools.csv (e.g. ${unmatched.slice(0, 3).join(", ")}): their NSC results are not published (the import report says why)`,
    });
  }
  highSchools.sort((a, b) => byText(a.province.name, b.province.name) || byText(a.name, b.name) || byText(a.emis_number, b.emis_number));

  const postalCodes: PostalCode[] = rowsOf(tables.postalCodes).map(({ row }) => ({
    ...row,
    id: opaqueId("pc", [row.suburb, row.area, row.street_code ?? "", row.box_code ?? ""].join("|")),
    province: row.province_id === null ? null : (provinceById.get(row.province_id) ?? null),
  }));
  postalCodes.sort((a, b) => byText(a.area, b.area) || byText(a.suburb, b.suburb) || byText(a.id, b.id));

  const bursaries: Bursary[] = rowsOf(tables.bursaries).map(({ row }) => ({ ...row, id: opaqueId("bur", row.slug) }));
  bursaries.sort((a, b) => byText(a.name, b.name) || byText(a.slug, b.slug));

  // Derived ids are hashes: a collision is astronomically unlikely, but it would silently merge two records.
  for (const [name, records] of [
    ["high-schools", highSchools],
    ["postal-codes", postalCodes],
    ["bursaries", bursaries],
    ["prospectuses", prospectuses],
  ] as const) {
    const ids = new Set<string>();
    for (const record of records) {
      if (ids.has(record.id)) problems.push({ file: name, line: 0, value: record.id, expected: "derived ids to be unique" });
      ids.add(record.id);
    }
  }

  for (const university of universities) {
    const gaps = [
      university.cycles.length === 0 ? "no application cycle (application-cycles.csv)" : "",
      university.fees.length === 0 ? "no application fee (university-fees.csv)" : "",
      university.prospectuses.length === 0 ? "no prospectus (prospectuses.csv)" : "",
      university.qualifications.length === 0 ? `no qualifications (qualifications/${university.slug}.csv)` : "",
    ].filter(Boolean);
    if (gaps.length > 0) warnings.push({ resource: "universities", message: `${university.short_name}: ${gaps.join(", ")}` });
  }
  const stale = bursaries.filter((b) => b.closing_date < today);
  if (stale.length > 0) {
    const oldest = stale.reduce((a, b) => (a.closing_date < b.closing_date ? a : b));
    const newest = stale.reduce((a, b) => (a.closing_date > b.closing_date ? a : b));
    // How stale: closed bursaries per year of their closing date, newest year first.
    const perYear = new Map<string, number>();
    for (const b of stale) perYear.set(b.closing_date.slice(0, 4), (perYear.get(b.closing_date.slice(0, 4)) ?? 0) + 1);
    const years = [...perYear].sort(([a], [b]) => (a < b ? 1 : -1)).map(([year, n]) => `${year}: ${n}`).join(", ");
    warnings.push({
      resource: "bursaries",
      message:
        `${stale.length} of ${bursaries.length} bursaries have closed (by year of closing: ${years}; most recent ${newest.slug} ${newest.closing_date}, ` +
        `oldest ${oldest.slug} ${oldest.closing_date}); update their closing_date for the next cycle`,
    });
  }
  const noRequirements = qualifications.filter((q) => q.requirements.length === 0);
  if (noRequirements.length > 0) {
    warnings.push({
      resource: "qualifications",
      message: `${noRequirements.length} qualification(s) have no subject requirement, e.g. ${noRequirements[0]?.id} (${noRequirements[0]?.name})`,
    });
  }

  return {
    model: { provinces, universities, subjects, qualifications, highSchools, postalCodes, bursaries, prospectuses },
    problems,
    warnings,
  };
}

function groupBy<V>(values: V[], keyOf: (value: V) => string): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
