// POST /v1/data/aps-calculator: the request is checked and scored by the pure APS module
// (domain/aps/request.ts) against the university's internal document that the build wrote. The slug is
// validated before any asset is named, so a body can never steer the Worker to another file. Documents
// are kept parsed once per isolate and data version (functions/assets.ts). The comparison reads the build's
// prepared forms of all universities from one document (`_internal/aps-compare.json`), so a fresh isolate's first
// compare parses one small file and prepares nothing (issue 30, 6).
import { answerApsRequest } from "../domain/aps/request.ts";
import { answerCompareRequest } from "../domain/aps/compare.ts";
import type { PreparedForm } from "../domain/aps/judging.ts";
import type { ApsIndex } from "../domain/aps/validation.ts";
import { answerTargetsRequest } from "../domain/aps/targets.ts";
import type { ApsUniversityDocument } from "../domain/aps/scheme.ts";
import { paths } from "../lib/layout.ts";
import { cachedJsonAsset, manifestOf } from "./assets.ts";
import type { Env } from "./env.ts";
import { ApiError } from "./errors.ts";
import { jsonResponse } from "./respond.ts";

/** POST /v1/data/aps-calculator/compare: the same marks at every university named (default all). */
export async function answerApsCompare(body: unknown, env: Env): Promise<Response> {
  const manifest = await manifestOf(env);
  const index = await cachedJsonAsset<ApsIndex>(env, manifest, paths.apsIndex());
  if (!index) throw new Error("dist/ has no APS index: run `npm run build`");
  const forms = await cachedJsonAsset<Record<string, PreparedForm>>(env, manifest, paths.apsCompare());
  if (!forms) throw new Error("dist/ has no APS compare document: run `npm run build`");
  // Slugs are checked against the index before any is looked up.
  const result = await answerCompareRequest(body, index, async (slug) => (Object.hasOwn(forms, slug) ? (forms[slug] ?? null) : null));
  if (result.status === 422) throw new ApiError(result.code, result.message, { details: result.details });
  return jsonResponse(JSON.stringify(result.data), 200, { "cache-control": "no-store" });
}

export async function answerApsCalculator(body: unknown, env: Env): Promise<Response> {
  const manifest = await manifestOf(env);
  const result = await answerApsRequest(body, (slug) => cachedJsonAsset<ApsUniversityDocument>(env, manifest, paths.apsUniversity(slug)));
  if (result.status === 422) throw new ApiError(result.code, result.message, { details: result.details });
  return jsonResponse(JSON.stringify({ data: result.data }), 200, { "cache-control": "no-store" });
}

/** POST /v1/data/aps-calculator/targets: what it would take, per programme (domain/aps/targets.ts). A qualification
 * id is checked against its pattern before its public record is read for its university. */
export async function answerApsTargets(body: unknown, env: Env): Promise<Response> {
  const manifest = await manifestOf(env);
  const result = await answerTargetsRequest(
    body,
    (slug) => cachedJsonAsset<ApsUniversityDocument>(env, manifest, paths.apsUniversity(slug)),
    async (id) => {
      const record = await cachedJsonAsset<{ data: { university_slug: string } }>(env, manifest, paths.detail("qualifications", id));
      return record?.data.university_slug ?? null;
    },
  );
  if (result.status === 422) throw new ApiError(result.code, result.message, { details: result.details });
  return jsonResponse(JSON.stringify(result.data), 200, { "cache-control": "no-store" });
}
