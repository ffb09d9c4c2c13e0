// A filtered, searched or nearest-first list page, answered from the list's find index (the files the
// build wrote under /_internal/find/, docs/find.md). The index parts are parsed once per isolate and
// data version and kept as plain values by functions/assets.ts; everything else is computed per request.
// The envelope is the plain list's: meta {total, page, per_page}, total counting the matching records.
import type { Criterion } from "../lib/find.ts";
import { findRows } from "../lib/find.ts";
import { itemAt, type FindIndexPart } from "../lib/find-index.ts";
import { roundKm } from "../lib/geo.ts";
import { paths, type Manifest } from "../lib/layout.ts";
import type { Province } from "../schema/api.ts";
import type { ResourceName } from "../schema/resources.ts";
import { cachedJsonAsset } from "./assets.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import type { ListQuery } from "./query.ts";

/** A province parameter (id or code, lower-cased by its schema) becomes the province's id; an unknown one is a 400. */
async function resolveProvinces(criteria: Criterion[], env: Env, manifest: Manifest): Promise<Criterion[]> {
  if (!criteria.some((c) => c.match.kind === "province")) return criteria;
  const provinces = (await cachedJsonAsset<{ data: Province[] }>(env, manifest, paths.wholeList("provinces")))?.data;
  if (!provinces) throw new Error("dist/ has no provinces list");
  return criteria.map((criterion) => {
    if (criterion.match.kind !== "province") return criterion;
    const wanted = String(criterion.value);
    const province = provinces.find((p) => p.id === wanted || p.code.toLowerCase() === wanted);
    if (!province) {
      const known = provinces.map((p) => `${p.id} (${p.code})`).join(", ");
      throw new ApiError("invalid_parameter", `Invalid query parameter: ${criterion.name} '${wanted}' is not a province`, {
        details: [{ path: criterion.name, message: `must be a province id or code: ${known}` }],
      });
    }
    return { ...criterion, value: province.id };
  });
}

/** The parts of a list's find index, parsed once per isolate and data version. */
async function findIndexParts(env: Env, manifest: Manifest, resource: ResourceName): Promise<FindIndexPart[]> {
  const entry = manifest.find?.[resource];
  if (!entry) throw new Error(`the manifest has no find index for ${resource}: rebuild dist/ with this version of the build`);
  const parts = await Promise.all(entry.parts.map((part) => cachedJsonAsset<FindIndexPart>(env, manifest, part.path)));
  return parts.map((part, i) => {
    if (!part) throw new Error(`dist/ has no ${entry.parts[i]?.path}`);
    return part;
  });
}

/**
 * The body of a list page with criteria. `finish` turns a stored list item into the served one (the
 * plain list's own step, e.g. a prospectus's document path into its URL).
 */
export async function findPage(
  env: Env,
  manifest: Manifest,
  resource: ResourceName,
  query: ListQuery,
  finish: (item: Record<string, unknown>) => unknown,
): Promise<string> {
  const criteria = await resolveProvinces(query.criteria, env, manifest);
  const parts = await findIndexParts(env, manifest, resource);
  const hits = findRows(parts, criteria, query.radiusKm);
  const { page, per_page } = query.page;
  const near = criteria.some((c) => c.match.kind === "near");
  const data = hits.slice((page - 1) * per_page, page * per_page).map((hit) => {
    const item = itemAt(parts[hit.part] as FindIndexPart, hit.row);
    if (near) item.distance_km = roundKm(hit.distance);
    return finish(item);
  });
  return JSON.stringify({ data, meta: { total: hits.length, page, per_page } });
}
