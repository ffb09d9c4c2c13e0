// The Worker's settings (wrangler.jsonc vars), parsed once per isolate: every request reads the parsed
// values, and they are parsed again only when the raw values change (a test binding its own). A value that
// does not parse is a broken deployment, not a default: every request answers 500 misconfigured, and the
// problem is logged once, as a missing ASSET_URL is (functions/serve.ts).
import type { Env } from "./env.ts";
import { listSetting } from "./env.ts";
import { ApiError } from "./errors.ts";

export type Settings = {
  /** Cache-Control max-age of GET answers and public documents, in seconds (CACHE_MAX_AGE, default 300). */
  cacheMaxAge: number;
  /** The longest a token may be valid, exp - iat, in seconds (TOKEN_MAX_LIFETIME_DAYS, default 400 days). */
  tokenMaxLifetimeSeconds: number;
  /** Revoked token ids (REVOKED_JTIS, comma-separated). */
  revokedJtis: ReadonlySet<string>;
};

const DEFAULT_CACHE_MAX_AGE = 300;
const DEFAULT_MAX_LIFETIME_DAYS = 400;

type Parsed = { raw: string; result: { settings: Settings } | { problem: string } };
let parsed: Parsed | null = null;

/** A setting's text: unset or blank is the default; otherwise it must be a whole number in [min, max]. */
function wholeNumber(name: string, value: string | undefined, fallback: number, min: number): number | string {
  const text = (value ?? "").trim();
  if (text === "") return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) < min) return `${name} must be a whole number of at least ${min}; it is ${JSON.stringify(value)}`;
  return Number(text);
}

function parse(env: Env): Parsed["result"] {
  const cacheMaxAge = wholeNumber("CACHE_MAX_AGE", env.CACHE_MAX_AGE, DEFAULT_CACHE_MAX_AGE, 0);
  const days = wholeNumber("TOKEN_MAX_LIFETIME_DAYS", env.TOKEN_MAX_LIFETIME_DAYS, DEFAULT_MAX_LIFETIME_DAYS, 1);
  const problems = [cacheMaxAge, days].filter((v) => typeof v === "string");
  if (problems.length > 0) return { problem: problems.join("; ") };
  return {
    settings: {
      cacheMaxAge: cacheMaxAge as number,
      tokenMaxLifetimeSeconds: (days as number) * 86_400,
      revokedJtis: new Set(listSetting(env.REVOKED_JTIS)),
    },
  };
}

/** The parsed settings; a 500 misconfigured (logged when first found) if one does not parse. */
export function settingsOf(env: Env): Settings {
  const raw = JSON.stringify([env.CACHE_MAX_AGE, env.TOKEN_MAX_LIFETIME_DAYS, env.REVOKED_JTIS]);
  if (parsed?.raw !== raw) {
    parsed = { raw, result: parse(env) };
    if ("problem" in parsed.result) console.error(`This deployment's settings are not valid: ${parsed.result.problem}`);
  }
  if ("problem" in parsed.result) {
    throw new ApiError("misconfigured", "This deployment's settings are not valid, so it cannot answer; the error has been logged");
  }
  return parsed.result.settings;
}
