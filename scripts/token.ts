// npm run token -- --scopes a:read,b:read [--env test|live] [--expires-in 30d] [--sub NAME]
// Prints a signed token and nothing else on stdout, so it can be used as $(npm run -s token -- ...).
// The private key comes from TOKEN_SIGNING_KEY (a JWK, for live tokens) or, for test tokens, from the
// local development key that `npm start` creates.
import { parseArgs } from "node:util";
import { isScope, SCOPES } from "../domain/scopes.ts";
import { runCommand, UsageError } from "../lib/cli.ts";
import { ensureDevKeys, type SigningKey } from "../lib/signing-keys.ts";
import { parseDuration, signToken, type TokenRequest } from "../lib/tokens.ts";

const USAGE = `usage: npm run token -- --scopes SCOPE[,SCOPE...] [--env test|live] [--expires-in 30d] [--sub NAME]

Prints a signed bearer token (and nothing else) on stdout.
  --scopes      comma-separated scopes: ${SCOPES.join(", ")}
  --env         test (default; signed with the local development key) or live (needs TOKEN_SIGNING_KEY)
  --expires-in  lifetime: a number and s, m, h or d (default 30d; the Worker refuses more than 400d)
  --sub         the client's name in the token (default local-developer)
  --help        this text`;

function tokenRequestOf(argv: string[]): TokenRequest | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      scopes: { type: "string" },
      env: { type: "string", default: "test" },
      "expires-in": { type: "string", default: "30d" },
      sub: { type: "string", default: "local-developer" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  const scopes = (values.scopes ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (scopes.length === 0) throw new UsageError("--scopes is required");
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new UsageError(`unknown scope(s) ${unknown.join(", ")}`);
  if (values.env !== "test" && values.env !== "live") throw new UsageError("--env is test or live");
  let expiresInSeconds: number;
  try {
    expiresInSeconds = parseDuration(values["expires-in"]);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { scopes, env: values.env, expiresInSeconds, sub: values.sub };
}

async function signingKeyFor(env: "test" | "live"): Promise<SigningKey> {
  const fromEnvironment = process.env.TOKEN_SIGNING_KEY;
  if (fromEnvironment) return JSON.parse(fromEnvironment) as SigningKey;
  if (env === "live") throw new Error("live tokens are signed with the production key: set TOKEN_SIGNING_KEY (see README, Tokens)");
  return ensureDevKeys();
}

runCommand(USAGE, async (argv) => {
  const request = tokenRequestOf(argv);
  if (request === "help") return console.log(USAGE);
  process.stdout.write(`${await signToken(request, await signingKeyFor(request.env))}\n`);
});
