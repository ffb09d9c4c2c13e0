// wrangler phones home (telemetry, update checks, request.cf data) unless told not to; the project runs
// offline, locally and in CI. See ../shared/reference/platform.md.
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const WRANGLER_OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  // wrangler logs every request to a debug file; keep it inside the project, where .gitignore covers it.
  WRANGLER_LOG_PATH: path.join(ROOT, ".wrangler", "logs"),
};
