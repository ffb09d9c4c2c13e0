// What GET /v1/meta answers, written by the build: the live release, the data version, and per resource its
// count, the oldest and newest `verified_on` among its records (nested facts included), and the upstream editions
// it rests on (sources/upstream-editions.csv; for the catalogue, the intakes its records speak for).
import { paths } from "../lib/layout.ts";
import type { Meta, Release } from "../schema/releases.ts";
import { RETENTION_DAYS } from "../schema/releases.ts";
import type { EmittedFile } from "./emit.ts";
import type { Model } from "./link.ts";
import { publishedRecords, type ResourceRecords } from "./records.ts";

/** The oldest and newest `verified_on` in a value, at any depth, widening `range`. */
function verifiedRange(value: unknown, range: { oldest: string | null; newest: string | null }): void {
  if (Array.isArray(value)) for (const item of value) verifiedRange(item, range);
  else if (value !== null && typeof value === "object") {
    for (const key in value) {
      const field = (value as Record<string, unknown>)[key];
      if (key === "verified_on" && typeof field === "string") {
        if (range.oldest === null || field < range.oldest) range.oldest = field;
        if (range.newest === null || field > range.newest) range.newest = field;
      } else if (field !== null && typeof field === "object") verifiedRange(field, range);
    }
  }
}

function upstreamOf(resource: string, model: Model): Meta["resources"][string]["upstream"] {
  const editions = model.upstreamEditions
    .filter((e) => e.resource === resource)
    .map((e) => ({ dataset: e.title, edition: e.edition, source_url: e.source_url }));
  if (resource !== "qualifications") return editions;
  const intakes = new Map<number, number>();
  for (const q of model.qualifications) intakes.set(q.intake_year, (intakes.get(q.intake_year) ?? 0) + 1);
  return [
    ...editions,
    ...[...intakes]
      .sort(([a], [b]) => b - a)
      .map(([year, count]) => ({ dataset: "The programme catalogue", edition: `intake ${year}: ${count} programmes`, source_url: null })),
  ];
}

export function metaFile(resources: ResourceRecords[], model: Model, live: Release | null, dataVersion: string): EmittedFile {
  const perResource: Meta["resources"] = {};
  for (const resource of resources) {
    const records = publishedRecords(resource);
    const verified_on = { oldest: null, newest: null };
    for (const { fields } of records) verifiedRange(fields, verified_on);
    perResource[resource.name] = {
      total: records.length,
      verified_on,
      upstream: upstreamOf(resource.name, model),
    };
  }
  const meta: Meta = {
    release: live ? { id: live.id, built_at: live.built_at } : null,
    data_version: dataVersion,
    built_at: live?.built_at ?? null,
    retention_days: RETENTION_DAYS,
    resources: perResource,
  };
  return { path: paths.meta(), content: JSON.stringify({ data: meta }) };
}
