// South Africa keeps SAST (UTC+2) all year, with no daylight saving, so "today in Johannesburg" is
// plain arithmetic and behaves the same in Node and workerd.
const SAST_OFFSET_MS = 2 * 60 * 60 * 1000;

export function todayInJohannesburg(now: Date): string {
  return new Date(now.getTime() + SAST_OFFSET_MS).toISOString().slice(0, 10);
}
