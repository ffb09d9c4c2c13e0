// Part of the emit stage: the documents the Worker reads but never serves as they are (dist/_internal/):
// each university's APS scheme with its qualifications, and where each prospectus document really is.
import { type PreparedForm, preparedFormOf } from "../domain/aps/judging.ts";
import type { ApsIndex } from "../domain/aps/validation.ts";
import type { ApsNscFacts, ApsScheme, ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { teachingLanguageSubjects } from "../domain/nsc-pass.ts";
import { paths } from "../lib/layout.ts";
import type { EmittedFile } from "./emit.ts";
import type { Model } from "./link.ts";
import { prospectusDocumentPath } from "./records.ts";

/** One internal document per university with a scheme: the scheme, its qualifications, and the subject slugs; the
 * index; and the comparison's one document: every university's prepared form (domain/aps/judging.ts), by slug, so a
 * fresh isolate's first compare parses one small file and prepares nothing (issue 30, 6). */
export function apsDocuments(model: Model, schemes: Map<string, ApsScheme>, variants: Map<string, ApsScheme> = new Map()): EmittedFile[] {
  const subjects = model.subjects.map((s) => ({ slug: s.slug, name: s.name }));
  const files: EmittedFile[] = [];
  const forms: Record<string, PreparedForm> = {};
  for (const university of model.universities) {
    const scheme = schemes.get(university.slug);
    if (!scheme) continue;
    const document: ApsUniversityDocument = {
      university: { slug: university.slug, name: university.name, short_name: university.short_name },
      scheme,
      variants: [...variants.values()].filter((v) => v.university_slug === university.slug).sort((a, b) => (a.id < b.id ? -1 : 1)),
      qualifications: university.qualifications.map((q) => ({
        id: q.id,
        name: q.name,
        qualification_type: q.qualification_type,
        min_aps: q.min_aps,
        ...(q.aps_scheme !== null && q.aps_scheme !== scheme.id ? { scheme: q.aps_scheme } : {}),
        // Filled in the same way as the public requirement records, so both always agree.
        requirements: q.requirements.map((r) => ({
          subject_slug: r.subject.slug,
          min_level: r.min_level,
          min_percentage: r.min_percentage,
          is_compulsory: r.is_compulsory,
          alternative_group: r.alternative_group,
          ...(r.route === null ? {} : { route: r.route }),
        })),
        general_requirements: q.generalRequirements.map((g) => ({
          rule: g.rule,
          min_percentage: g.min_percentage,
          alternative_group: g.alternative_group,
          ...(g.route === null ? {} : { route: g.route }),
        })),
      })),
      subjects,
      rule_subjects: ruleSubjects(model),
      nsc: nscFacts(model, university),
    };
    files.push({ path: paths.apsUniversity(university.slug), content: JSON.stringify(document) });
    forms[university.slug] = preparedFormOf(document);
  }
  const index: ApsIndex = {
    universities: model.universities.filter((u) => schemes.has(u.slug)).map((u) => ({ slug: u.slug, name: u.name })),
    subjects: subjects.map((s) => s.slug),
  };
  files.push({ path: paths.apsIndex(), content: JSON.stringify(index) });
  files.push({ path: paths.apsCompare(), content: JSON.stringify(forms) });
  return files;
}

/** The facts the statutory minimum needs: which subjects are Home Languages, which carry 10 credits, and the
 * university's teaching languages (sources/teaching-languages.csv). */
function nscFacts(model: Model, university: Model["universities"][number]): ApsNscFacts {
  const languages = university.teachingLanguages.map((t) => t.language);
  const name = (language: string) => `${language.charAt(0).toUpperCase()}${language.slice(1)}`;
  return {
    home_languages: model.subjects.filter((s) => s.group === "official-language" && s.language_level === "HL").map((s) => s.slug),
    ten_credit: model.subjects.filter((s) => s.group === "life-orientation").map((s) => s.slug),
    teaching_language_subjects: languages.flatMap(teachingLanguageSubjects),
    teaching_language_name: languages.map(name).join(" or "),
    teaching_language_source: university.teachingLanguages[0]?.source_url ?? "",
  };
}

/** The subjects each general requirement can be met with. */
function ruleSubjects(model: Model): ApsUniversityDocument["rule_subjects"] {
  const slugs = (keep: (s: Model["subjects"][number]) => boolean) => model.subjects.filter(keep).map((s) => s.slug);
  return {
    "other-language": slugs((s) => s.group === "official-language" && (s.language_level === "HL" || s.language_level === "FAL")),
    "other-subject": slugs((s) => s.group !== "life-orientation"),
  };
}

/** Map of each prospectus document path (under the asset base) to the university's own document URL. */
export function prospectusDocuments(model: Model): EmittedFile {
  const documents: Record<string, string> = {};
  for (const p of model.prospectuses) documents[prospectusDocumentPath(p)] = p.source_url;
  return { path: paths.prospectusDocuments(), content: JSON.stringify(documents) };
}
