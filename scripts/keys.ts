// npm run keys -- new [--kid NAME]: print a new production key pair: the private JWK (keep it secret) and
// the public JWKS entry (for TOKEN_JWKS). See README, Tokens.
import { parseArgs } from "node:util";
import { newSigningKey, publicJwk } from "../support/signing-keys.ts";
import { runCommand, UsageError } from "../lib/cli.ts";

const USAGE = `usage: npm run keys -- new [--kid NAME]

Prints a new Ed25519 signing key pair for tokens.
  new          make a key pair (the only command)
  --kid NAME   the key id (default live-YYYY-MM-DD)
  --help       this text`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { kid: { type: "string" }, help: { type: "boolean" } } });
  if (values.help) return console.log(USAGE);
  if (positionals.length !== 1 || positionals[0] !== "new") throw new UsageError("the command is `new`");
  const key = await newSigningKey(values.kid ?? `live-${new Date().toISOString().slice(0, 10)}`);
  console.log("Private key (store it as the TOKEN_SIGNING_KEY secret of whoever mints tokens; never commit it):");
  console.log(JSON.stringify(key));
  console.log('\nPublic key: add this object to the "keys" array of the Worker\'s TOKEN_JWKS secret:');
  console.log(JSON.stringify(publicJwk(key)));
});
