// The linked model turned into API records, resource by resource: what each list page shows, what each
// detail document holds, and each record's schema, which the emit stage checks every record against.
import type { z } from "zod";
import * as api from "../schema/api.ts";
import type { Model, Prospectus, Qualification, Requirement } from "./link.ts";

export type DetailRecord = { key: string; record: unknown };

export type ResourceRecords = {
  name: string;
  /** Paginated list: the list items in their documented order. */
  list?: { schema: z.ZodType; items: unknown[] };
  /** Unpaginated list (subjects, provinces): served whole with meta {total}. */
  whole?: { schema: z.ZodType; items: unknown[] };
  /** Detail documents by their path key (slug or id). */
  detail?: { schema: z.ZodType; records: DetailRecord[] };
  /** Sub-documents of a detail record: qualification requirements. */
  children?: { schema: z.ZodType; byKey: { key: string; items: unknown[] }[] };
};

/** NSC achievement levels: the lowest percentage of each level 1..7. */
const LEVEL_FLOOR = [0, 30, 40, 50, 60, 70, 80] as const;

export function levelOfPercentage(percentage: number): number {
  let level = 1;
  LEVEL_FLOOR.forEach((floor, i) => {
    if (percentage >= floor) level = i + 1;
  });
  return level;
}

export function percentageOfLevel(level: number): number {
  return LEVEL_FLOOR[level - 1] ?? 0;
}

function requirementRecord(r: Requirement): api.QualificationRequirement {
  // A requirement may be written as a level or a percentage; publish both, consistently with the NSC scale.
  const min_percentage = r.min_percentage ?? percentageOfLevel(r.min_level ?? 1);
  const min_level = r.min_level ?? levelOfPercentage(min_percentage);
  return {
    subject: { name: r.subject.name, slug: r.subject.slug },
    min_level,
    min_percentage,
    is_compulsory: r.is_compulsory,
    alternative_group: r.alternative_group,
    source_url: r.source_url,
    verified_on: r.verified_on,
  };
}

function qualificationRecord(q: Qualification): api.Qualification {
  return {
    id: q.id,
    name: q.name,
    nqf_level: q.nqf_level,
    min_aps: q.min_aps,
    university_slug: q.university_slug,
    qualification_type: q.qualification_type,
    faculty: q.faculty,
    intake_year: q.intake_year,
    confidence: q.confidence,
    source_url: q.source_url,
    verified_on: q.verified_on,
  };
}

export function prospectusDocumentPath(p: Pick<Prospectus, "university_slug" | "year" | "part">): string {
  return `/prospectuses/${p.university_slug}-${p.year}${p.part ? `-${p.part}` : ""}.pdf`;
}

export function resourceRecords(model: Model): ResourceRecords[] {
  return [
    {
      name: "universities",
      list: {
        schema: api.UniversityListItem,
        items: model.universities.map(
          (u): api.UniversityListItem => ({
            id: u.id,
            name: u.name,
            short_name: u.short_name,
            slug: u.slug,
            province_name: u.province.name,
          }),
        ),
      },
      detail: {
        schema: api.University,
        records: model.universities.map((u) => ({
          key: u.slug,
          record: {
            id: u.id,
            name: u.name,
            short_name: u.short_name,
            slug: u.slug,
            province_name: u.province.name,
            province_id: u.province.id,
            type: u.type,
            website: u.website,
            application_cycles: u.cycles.map((c) => ({
              intake_year: c.intake_year,
              open_date: c.open_date,
              close_date: c.close_date,
              applies_to: c.applies_to,
              source_url: c.source_url,
              verified_on: c.verified_on,
            })),
            fees: u.fees.map((f) => ({
              intake_year: f.intake_year,
              fee_type: f.fee_type,
              applies_to: f.applies_to,
              amount_zar: f.amount_zar,
              source_url: f.source_url,
              verified_on: f.verified_on,
            })),
            source_url: u.source_url,
            verified_on: u.verified_on,
          } satisfies api.University,
        })),
      },
    },
    {
      name: "qualifications",
      list: { schema: api.Qualification, items: model.qualifications.map(qualificationRecord) },
      detail: {
        schema: api.Qualification,
        records: model.qualifications.map((q) => ({ key: q.id, record: qualificationRecord(q) })),
      },
      children: {
        schema: api.QualificationRequirement,
        byKey: model.qualifications.map((q) => ({ key: q.id, items: q.requirements.map(requirementRecord) })),
      },
    },
    {
      name: "subjects",
      whole: {
        schema: api.Subject,
        items: model.subjects.map((s): api.Subject => ({ slug: s.slug, name: s.name, group: s.group, language_level: s.language_level })),
      },
    },
    {
      name: "high-schools",
      list: {
        schema: api.HighSchoolListItem,
        items: model.highSchools.map(
          (h): api.HighSchoolListItem => ({
            id: h.id,
            emis_number: h.emis_number,
            name: h.name,
            province: h.province.name,
            quintile: h.quintile,
            nsc_pass_rate: h.nsc_results[0]?.pass_rate ?? null,
            nsc_year: h.nsc_results[0]?.year ?? null,
          }),
        ),
      },
      detail: {
        schema: api.HighSchool,
        records: model.highSchools.map((h) => ({
          key: h.id,
          record: {
            id: h.id,
            emis_number: h.emis_number,
            name: h.name,
            province: h.province.name,
            quintile: h.quintile,
            district: h.district,
            latitude: h.latitude,
            longitude: h.longitude,
            sector: h.sector,
            phase: h.phase,
            nsc_results: h.nsc_results.map((r) => ({
              year: r.year,
              wrote: r.wrote,
              passed: r.passed,
              pass_rate: r.pass_rate,
              progressed: r.progressed,
            })),
            source_url: h.source_url,
            verified_on: h.verified_on,
          } satisfies api.HighSchool,
        })),
      },
    },
    {
      name: "bursaries",
      list: {
        schema: api.BursaryListItem,
        items: model.bursaries.map((b): api.BursaryListItem => ({ id: b.id, slug: b.slug, name: b.name, closing_date: b.closing_date })),
      },
      detail: {
        schema: api.Bursary,
        records: model.bursaries.map((b) => ({
          key: b.slug,
          record: {
            id: b.id,
            slug: b.slug,
            name: b.name,
            closing_date: b.closing_date,
            provider: b.provider,
            provider_type: b.provider_type,
            fields: b.fields,
            eligibility: b.eligibility,
            application_url: b.application_url,
            source_url: b.source_url,
            verified_on: b.verified_on,
          } satisfies api.Bursary,
        })),
      },
    },
    {
      name: "postal-codes",
      list: {
        schema: api.PostalCodeListItem,
        items: model.postalCodes.map(
          (p): api.PostalCodeListItem => ({
            id: p.id,
            suburb: p.suburb,
            area: p.area,
            street_code: p.street_code,
            box_code: p.box_code,
          }),
        ),
      },
      detail: {
        schema: api.PostalCode,
        records: model.postalCodes.map((p) => ({
          key: p.id,
          record: {
            id: p.id,
            suburb: p.suburb,
            area: p.area,
            street_code: p.street_code,
            box_code: p.box_code,
            province: p.province?.name ?? null,
          } satisfies api.PostalCode,
        })),
      },
    },
    {
      name: "prospectuses",
      list: {
        schema: api.StoredProspectus,
        items: model.prospectuses.map(
          (p): api.StoredProspectus => ({
            id: p.id,
            university_slug: p.university_slug,
            year: p.year,
            title: p.title,
            document_path: prospectusDocumentPath(p),
            source_url: p.source_url,
            verified_on: p.verified_on,
          }),
        ),
      },
    },
    {
      name: "provinces",
      whole: {
        schema: api.Province,
        items: model.provinces.map((p): api.Province => ({ id: p.id, name: p.name, code: p.code })),
      },
    },
  ];
}
