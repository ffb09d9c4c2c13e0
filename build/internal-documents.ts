// Part of the emit stage: the documents the Worker reads but never serves as they are (dist/_internal/):
// each university's APS scheme with its qualifications, and where each prospectus document really is.
import type { ApsScheme, ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { paths } from "../lib/layout.ts";
import type { EmittedFile } from "./emit.ts";
import type { Model } from "./link.ts";
import { prospectusDocumentPath, requirementLevels } from "./records.ts";

/** One internal document per university with a scheme: the scheme, its qualifications, and the subject slugs. */
export function apsDocuments(model: Model, schemes: Map<string, ApsScheme>): EmittedFile[] {
  const subjects = model.subjects.map((s) => ({ slug: s.slug, name: s.name }));
  const files: EmittedFile[] = [];
  for (const university of model.universities) {
    const scheme = schemes.get(university.slug);
    if (!scheme) continue;
    const document: ApsUniversityDocument = {
      university: { slug: university.slug, name: university.name, short_name: university.short_name },
      scheme,
      qualifications: university.qualifications.map((q) => ({
        id: q.id,
        name: q.name,
        min_aps: q.min_aps,
        // Filled in the same way as the public requirement records, so both always agree.
        requirements: q.requirements.map((r) => ({
          subject_slug: r.subject_slug,
          ...requirementLevels(r),
          is_compulsory: r.is_compulsory,
          alternative_group: r.alternative_group,
        })),
      })),
      subjects,
    };
    files.push({ path: paths.apsUniversity(university.slug), content: JSON.stringify(document) });
  }
  return files;
}

/** Map of each prospectus document path (under the asset base) to the university's own document URL. */
export function prospectusDocuments(model: Model): EmittedFile {
  const documents: Record<string, string> = {};
  for (const p of model.prospectuses) documents[prospectusDocumentPath(p)] = p.source_url;
  return { path: paths.prospectusDocuments(), content: JSON.stringify(documents) };
}
