// The Worker's environment over a built dist/ folder on disk, for calling its handlers in Node (the release tests,
// the releases bench): an ASSETS binding that answers each path with the file, or 404; `vars` add settings.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../functions/env.ts";

export function envOverDist(dist: string, vars: Record<string, string> = {}): Env {
  const ASSETS = {
    fetch: async (request: Request) => {
      const file = path.join(dist, ...new URL(request.url).pathname.split("/").filter(Boolean));
      return existsSync(file) ? new Response(await readFile(file)) : new Response(null, { status: 404 });
    },
  };
  return { ASSETS, ...vars } as unknown as Env;
}
