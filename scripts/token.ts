// npm run token -- --scopes a:read,b:read [--publishable --origins https://a.example,...] [--env test|live] [--expires-in 30d] [--sub NAME]
// Prints a signed token and nothing else on stdout, so it can be used as $(npm run -s token -- ...).
// The private key comes from TOKEN_SIGNING_KEY (a JWK, for live tokens) or, for test tokens, from the
// local development key that `npm start` creates. What the Worker would refuse is refused here (exit 2, no
// token): unknown scopes, a publishable token's non-publishable scopes or bad origins, and a lifetime longer
// than the environment's TOKEN_MAX_LIFETIME_DAYS in wrangler.jsonc (the top level for test, env.live for live).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { PUBLISHABLE_SCOPES, SCOPES } from "../domain/scopes.ts";
import { runCommand, UsageError } from "../lib/cli.ts";
import { listSetting } from "../functions/env.ts";
import { maxLifetimeDays } from "../domain/tokens.ts";
import { parseJsonc } from "../lib/jsonc.ts";
import { ROOT } from "../lib/root.ts";
import { ensureDevKeys, type SigningKey } from "../support/signing-keys.ts";
import { parseDuration, signToken, tokenRequestProblems, type TokenRequest } from "../support/tokens.ts";

const USAGE = `usage: npm run token -- --scopes SCOPE[,SCOPE...] [--publishable --origins ORIGIN[,ORIGIN...]] [--env test|live] [--expires-in 30d] [--sub NAME]

Prints a signed bearer token (and nothing else) on stdout: a secret token for servers, or with
--publishable a publishable token for web pages on the given origins (README: Tokens).
  --scopes       comma-separated scopes: ${SCOPES.join(", ")}
  --publishable  a token for browsers: accepted only on requests from --origins, with these scopes only:
                 ${PUBLISHABLE_SCOPES.join(", ")}
  --origins      with --publishable: the sites whose pages may use it, as the browser writes them
                 (https://school-finder.example, http://127.0.0.1:8788)
  --env          test (default; signed with the local development key) or live (needs TOKEN_SIGNING_KEY)
  --expires-in   lifetime: a number and s, m, h or d (default 30d; at most the environment's
                 TOKEN_MAX_LIFETIME_DAYS in wrangler.jsonc, 400d)
  --sub          the client's name in the token (default local-developer)
  --help         this text`;

/** TOKEN_MAX_LIFETIME_DAYS of the environment whose Worker will verify the token (wrangler.jsonc). */
function configuredMaxLifetimeDays(env: "test" | "live"): number {
  type Vars = { vars?: Record<string, unknown> };
  const config = parseJsonc(readFileSync(path.join(ROOT, "wrangler.jsonc"), "utf8")) as Vars & { env?: Record<string, Vars> };
  return maxLifetimeDays((env === "live" ? config.env?.live : config)?.vars?.TOKEN_MAX_LIFETIME_DAYS);
}

async function tokenRequestOf(argv: string[]): Promise<TokenRequest | "help"> {
  const { values } = parseArgs({
    args: argv,
    options: {
      scopes: { type: "string" },
      publishable: { type: "boolean", default: false },
      origins: { type: "string" },
      env: { type: "string", default: "test" },
      "expires-in": { type: "string", default: "30d" },
      sub: { type: "string", default: "local-developer" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  const scopes = listSetting(values.scopes);
  if (scopes.length === 0) throw new UsageError("--scopes is required");
  if (values.env !== "test" && values.env !== "live") throw new UsageError("--env is test or live");
  if (values.origins !== undefined && !values.publishable) throw new UsageError("--origins belongs to publishable tokens: add --publishable");
  if (values.publishable && values.origins === undefined)
    throw new UsageError("a publishable token needs --origins, the sites whose pages may use it");
  let expiresInSeconds: number;
  try {
    expiresInSeconds = parseDuration(values["expires-in"]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const request: TokenRequest = { scopes, env: values.env, expiresInSeconds, sub: values.sub };
  if (values.publishable) request.origins = listSetting(values.origins);
  const problems = tokenRequestProblems(request, configuredMaxLifetimeDays(request.env));
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return request;
}

async function signingKeyFor(env: "test" | "live"): Promise<SigningKey> {
  const fromEnvironment = process.env.TOKEN_SIGNING_KEY;
  if (fromEnvironment) return JSON.parse(fromEnvironment) as SigningKey;
  if (env === "live") throw new Error("live tokens are signed with the production key: set TOKEN_SIGNING_KEY (see README, Tokens)");
  return ensureDevKeys();
}

runCommand(USAGE, async (argv) => {
  const request = await tokenRequestOf(argv);
  if (request === "help") return console.log(USAGE);
  process.stdout.write(`${await signToken(request, await signingKeyFor(request.env))}\n`);
});
