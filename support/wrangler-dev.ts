// The `wrangler dev` command line that `npm start` runs: the API on 127.0.0.1, telemetry off, the local
// secrets from `envFile` (support/signing-keys.ts says why not .dev.vars). A test runs the same command.
import path from "node:path";
import { ROOT } from "../lib/root.ts";

export function wranglerDevArgs(options: { port: string; envFile: string; extra?: string[] }): string[] {
  return [
    path.join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    options.port,
    "--inspector-port",
    "0",
    "--show-interactive-dev-session=false",
    "--env-file",
    options.envFile,
    ...(options.extra ?? []),
  ];
}
