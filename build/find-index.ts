// Part of the emit stage: the find index of each paginated list (format in lib/find-index.ts, layout in
// docs/find.md). The Worker answers filters, name search and nearest-school queries from these files
// alone. Each index holds the list's items (the same objects as its list chunks) and the columns the
// parameters of schema/query.ts read, in the list's order; the build checks every column they name exists.
import { buildWordIndex, encodeColumn, encodeLists, FIND_ROWS_PER_PART, type Column, type FindIndexPart } from "../lib/find-index.ts";
import { paths, type FindIndexManifest, type Manifest } from "../lib/layout.ts";
import { searchKey } from "../lib/text.ts";
import { columnsRead } from "../schema/query.ts";
import { RESOURCES, type ResourceDefinition } from "../schema/resources.ts";
import type { EmittedFile, FileSink } from "./emit.ts";
import { fieldsMatched } from "./bursaries.ts";
import type { Bursary, Model } from "./link.ts";
import type { Problem } from "./problems.ts";
import type { ResourceRecords } from "./records.ts";

/** A bursary's published application cycles as [open_date | null, close_date] (expected cycles are not published: left out). */
export function bursaryCycles(bursary: Pick<Bursary, "cycles">): [string | null, string][] {
  return bursary.cycles.map((c) => [c.open_date, c.close_date]);
}

/** The fields of study `field=` finds a bursary under: its own, and every field when it is open to all fields. */
export function bursaryFieldSlugs(bursary: Pick<Bursary, "fields">): string[] {
  return fieldsMatched(bursary.fields);
}

type Columns = Record<string, unknown[]>;

/** The filter and search columns of each list, one value per list item, from the model record behind it. */
function columnsOf(resource: string, ids: string[], model: Model): Columns | null {
  const pick = <T extends { id: string }>(records: T[]): T[] => {
    const byId = new Map(records.map((r) => [r.id, r]));
    return ids.map((id) => {
      const record = byId.get(id);
      if (!record) throw new Error(`find index of ${resource}: no model record for list item ${id}`);
      return record;
    });
  };
  switch (resource) {
    case "universities": {
      const rows = pick(model.universities);
      return {
        province_id: rows.map((u) => u.province.id),
        type: rows.map((u) => u.type),
        search: rows.map((u) => searchKey(u.name)),
        search_other: rows.map((u) => searchKey(u.short_name)),
      };
    }
    case "qualifications": {
      const rows = pick(model.qualifications);
      return {
        university_slug: rows.map((q) => q.university_slug),
        qualification_type: rows.map((q) => q.qualification_type),
        faculty: rows.map((q) => (q.faculty === null ? null : searchKey(q.faculty))),
        nqf_level: rows.map((q) => q.nqf_level),
        intake_year: rows.map((q) => q.intake_year),
        subjects: rows.map((q) => [...new Set(q.requirements.map((r) => r.subject.slug))].sort()),
        search: rows.map((q) => searchKey(q.name)),
      };
    }
    case "high-schools": {
      const rows = pick(model.highSchools);
      return {
        province_id: rows.map((h) => h.province.id),
        district: rows.map((h) => (h.district === null ? null : searchKey(h.district))),
        quintile: rows.map((h) => h.quintile),
        sector: rows.map((h) => h.sector),
        phase: rows.map((h) => h.phase),
        emis_number: rows.map((h) => h.emis_number),
        latitude: rows.map((h) => h.latitude),
        longitude: rows.map((h) => h.longitude),
        search: rows.map((h) => searchKey(h.name)),
      };
    }
    case "bursaries": {
      const rows = pick(model.bursaries);
      return {
        fields: rows.map(bursaryFieldSlugs),
        study_levels: rows.map((b) => [...b.study_levels]),
        provider_type: rows.map((b) => b.provider_type),
        cycles: rows.map(bursaryCycles),
        search: rows.map((b) => searchKey(b.name)),
      };
    }
    case "postal-codes": {
      const rows = pick(model.postalCodes);
      return {
        street_code: rows.map((p) => p.street_code),
        box_code: rows.map((p) => p.box_code),
        province_id: rows.map((p) => p.province?.id ?? null),
        search: rows.map((p) => searchKey(p.suburb)),
        search_other: rows.map((p) => searchKey(p.area ?? "")),
      };
    }
    case "prospectuses": {
      const rows = pick(model.prospectuses);
      return { university_slug: rows.map((p) => p.university_slug), year: rows.map((p) => p.year) };
    }
    default:
      return null;
  }
}

/** The columns of a resource whose registry entry computes them from its list items (schema/resources.ts findColumns). */
function itemColumns(definition: ResourceDefinition | undefined, items: Record<string, unknown>[]): Columns | null {
  const columnsOfItem = definition?.findColumns;
  if (!columnsOfItem) return null;
  const rows = items.map(columnsOfItem);
  const names = Object.keys(rows[0] ?? {});
  return Object.fromEntries(names.map((name) => [name, rows.map((row) => row[name] ?? null)]));
}

const LIST_COLUMNS = new Set(["subjects", "fields", "study_levels"]);

/** Two encoded columns with the same values in the same encoding (scalar values: what item columns hold). */
function sameColumn(a: Column | undefined, b: Column): boolean {
  if (a === undefined) return false;
  const same = (x: unknown[], y: unknown[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && same(a, b);
  if ("codes" in a && "codes" in b) return same(a.dict, b.dict) && same(a.codes, b.codes);
  return false;
}

function encode(name: string, values: unknown[]): Column {
  return LIST_COLUMNS.has(name) ? encodeLists(values as string[][]) : encodeColumn(values);
}

export type FindIndexes = { files: EmittedFile[]; manifest: Record<string, FindIndexManifest>; problems: Problem[] };

/** The find index files of every paginated list, and their manifest entries (sizes in bytes). With `sink`, each
 * file is put there as it is made instead of being returned in `files`. */
export function findIndexFiles(resources: ResourceRecords[], model: Model, rowsPerPart = FIND_ROWS_PER_PART, sink?: FileSink): FindIndexes {
  const files: EmittedFile[] = [];
  const manifest: Record<string, FindIndexManifest> = {};
  const problems: Problem[] = [];
  for (const resource of resources) {
    if (!resource.list) continue;
    const items: Record<string, unknown>[] = resource.list.items;
    const definition: ResourceDefinition | undefined = (RESOURCES as Record<string, ResourceDefinition>)[resource.name];
    const columns =
      columnsOf(
        resource.name,
        items.map((item) => String(item.id)),
        model,
      ) ?? itemColumns(definition, items);
    if (!columns) continue;
    if (definition) {
      for (const needed of columnsRead(definition.query)) {
        if (!(needed in columns)) {
          problems.push({
            file: `dist:${resource.name}`,
            line: 0,
            value: needed,
            expected: `a column ${needed} in the ${resource.name} find index (schema/query.ts reads it)`,
          });
        }
      }
    }
    // The columns of the list's name search (its `q`), for the word index.
    const searched = Object.values(definition?.query ?? {}).flatMap(({ match }) => (match.kind === "search" ? [match.columns] : []))[0];
    const itemKeys = Object.keys(items[0] ?? {});
    const entry: FindIndexManifest = { rows: items.length, bytes: 0, parts: [] };
    const partCount = Math.max(1, Math.ceil(items.length / rowsPerPart));
    for (let p = 0; p < partCount; p++) {
      const [from, to] = [p * rowsPerPart, Math.min(items.length, (p + 1) * rowsPerPart)];
      const slice = items.slice(from, to);
      const itemColumns = Object.fromEntries(itemKeys.map((key) => [key, encodeColumn(slice.map((item) => item[key] ?? null))]));
      // A column identical to the list item's field of the same name is not written twice: readers look
      // a column up in `columns`, then in `items`.
      const filterColumns = Object.entries(columns)
        .map(([name, values]) => [name, encode(name, values.slice(from, to))] as const)
        .filter(([name, column]) => !sameColumn(itemColumns[name], column));
      const part: FindIndexPart = {
        resource: resource.name,
        offset: from,
        rows: slice.length,
        item_keys: itemKeys,
        items: itemColumns,
        columns: Object.fromEntries(filterColumns),
      };
      if (searched)
        part.words = buildWordIndex(
          searched,
          searched.map((name) => (columns[name] ?? []).slice(from, to)),
        );
      const content = JSON.stringify(part);
      const bytes = Buffer.byteLength(content);
      const path = paths.findIndex(resource.name, p);
      if (sink) sink.put({ path, content });
      else files.push({ path, content });
      entry.parts.push({ path, offset: from, rows: slice.length, bytes });
      entry.bytes += bytes;
    }
    manifest[resource.name] = entry;
  }
  return { files, manifest, problems };
}

/** The build summary's lines about the find indexes. */
export function formatFindIndexes(manifest: Manifest): string[] {
  const entries = Object.entries(manifest.find ?? {});
  if (entries.length === 0) return [];
  const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`);
  const largest = Math.max(...entries.flatMap(([, e]) => e.parts.map((p) => p.bytes)));
  return [
    `  find indexes:  ${entries.map(([name, e]) => `${name} ${size(e.bytes)}${e.parts.length > 1 ? ` in ${e.parts.length} parts` : ""}`).join(", ")}`,
    `                 largest file ${size(largest)} (Cloudflare's limit per file: 25 MiB)`,
  ];
}
