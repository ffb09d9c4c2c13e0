// The deprecation policy (README "Deprecation"): how an endpoint is retired. An operation marked deprecated answers
// as before, with a Deprecation header (RFC 9745: since when), a Sunset header (RFC 8594: when it stops) at least
// NOTICE_DAYS later, and Link headers to its successor and to the policy. Pure: the Worker adds the headers
// (functions/index.ts), the OpenAPI document marks the operation `deprecated` with the same dates.
import { DOCS_PATH } from "../lib/public-documents.ts";

/** The shortest time between an endpoint's deprecation and its sunset. */
export const NOTICE_DAYS = 180;

/** Where the policy is written down, for the Link header's rel="deprecation": the reference page, on this API's origin. */
const POLICY_URL = DOCS_PATH;

export type Deprecation = {
  /** The day it was deprecated, YYYY-MM-DD. */
  since: string;
  /** The day it stops answering, YYYY-MM-DD: at least NOTICE_DAYS after `since`. */
  sunset: string;
  /** What to use instead: a path of this API. */
  successor?: string;
};

const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Why a deprecation breaks the policy (a sunset too soon, a date that is not one); [] when it keeps it. */
export function deprecationProblems(d: Deprecation): string[] {
  const [since, sunset] = [dayStart(d.since), dayStart(d.sunset)];
  if (Number.isNaN(since) || Number.isNaN(sunset)) return [`since and sunset must be dates written YYYY-MM-DD (${d.since}, ${d.sunset})`];
  const days = (sunset - since) / 86_400_000;
  return days < NOTICE_DAYS
    ? [`the sunset (${d.sunset}) is ${days} days after the deprecation (${d.since}); the notice period is ${NOTICE_DAYS} days`]
    : [];
}

/** The headers a deprecated operation answers with. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  const links = [`<${POLICY_URL}>; rel="deprecation"; type="text/html"`];
  if (d.successor) links.unshift(`<${d.successor}>; rel="successor-version"`);
  return {
    deprecation: `@${Math.floor(dayStart(d.since) / 1000)}`,
    sunset: new Date(dayStart(d.sunset)).toUTCString(),
    link: links.join(", "),
  };
}
