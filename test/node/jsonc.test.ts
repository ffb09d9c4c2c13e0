// lib/jsonc.ts reads wrangler.jsonc as wrangler does (the token CLI takes TOKEN_MAX_LIFETIME_DAYS from it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { parseJsonc } from "../../lib/jsonc.ts";
import { ROOT } from "../../support/test-dataset.ts";

describe("parseJsonc", () => {
  it("drops comments and trailing commas outside strings, and keeps them inside", () => {
    expect(parseJsonc('{\n  // a comment\n  "a": "//not a comment", /* block */ "b": [1, 2,],\n  "c": "x\\"/*y*/",\n}')).toEqual({
      a: "//not a comment",
      b: [1, 2],
      c: 'x"/*y*/',
    });
  });

  it("reads wrangler.jsonc's vars as wrangler does, in both environments", () => {
    const config = parseJsonc(readFileSync(path.join(ROOT, "wrangler.jsonc"), "utf8")) as {
      vars: Record<string, unknown>;
      env: { live: { vars: Record<string, unknown> } };
    };
    const file = path.join(ROOT, "wrangler.jsonc");
    expect(config.vars).toEqual(unstable_readConfig({ config: file }, { hideWarnings: true }).vars);
    expect(config.env.live.vars).toEqual(unstable_readConfig({ config: file, env: "live" }, { hideWarnings: true }).vars);
  });
});
