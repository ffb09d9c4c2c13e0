// The local server the benches measure: the test suites' local server (test/support/local-server.ts: the
// real Worker on wrangler's workerd, the test data set, a fresh signing key) with a token that holds every scope.
import { SCOPES } from "../domain/scopes.ts";
import { startLocalServer as startTestServer } from "../test/support/local-server.ts";

export type LocalServer = { origin: string; headers: Record<string, string>; dispose: () => Promise<void> };

export async function startLocalServer(): Promise<LocalServer> {
  const server = await startTestServer("bench");
  const token = await server.token([...SCOPES]);
  return { origin: server.base, headers: { authorization: `Bearer ${token}` }, dispose: () => server.stop() };
}
