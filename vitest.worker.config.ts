import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { exportJWK, generateKeyPair } from "jose";
import { prepareTestDataset } from "./support/test-dataset.ts";
import { PROPERTY_SCALE, PROPERTY_SEED } from "./support/property-settings.ts";

// Tests that run inside workerd, through the real Worker (functions/) and a real build (.test-dist/).
// Keys are made fresh for every run: two trusted ones (to show rotation) and one the Worker does not know.
await prepareTestDataset();

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  return {
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "EdDSA" },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: "EdDSA" },
  };
}
const [current, next, stranger] = await Promise.all([keyPair("key-2026-11"), keyPair("key-2027-01"), keyPair("key-2026-11")]);

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./test/worker/wrangler.jsonc" },
      miniflare: {
        bindings: {
          TOKEN_JWKS: JSON.stringify({ keys: [current.publicJwk, next.publicJwk] }),
          TEST_SIGNING_KEYS: JSON.stringify({ current: current.privateJwk, next: next.privateJwk, stranger: stranger.privateJwk }),
          // Runs per fuzz property (test/worker/fuzz.spec.ts): npm test keeps it small, npm run fuzz -- --runs N raises it.
          FUZZ_RUNS: process.env.FUZZ_RUNS ?? "40",
          // The fuzz suite's bound on an answer's time: npm run fuzz sets it, npm test none (test/worker/fuzz.spec.ts says why).
          FUZZ_TIME_BOUND_MS: process.env.FUZZ_TIME_BOUND_MS ?? "",
          // The seed every property draws from and the factor on their runs (test/worker/properties.ts).
          PROPERTY_SEED: String(PROPERTY_SEED),
          PROPERTY_SCALE: String(PROPERTY_SCALE),
          // "1" when the test data set holds the real national files (EDU_UPSTREAM_DIR): tests that need them skip otherwise.
          // The committed sources include the national tables, so the tests that need them always run.
          NATIONAL_DATA: "1",
        },
      },
    }),
  ],
  test: {
    include: ["test/worker/**/*.spec.ts"],
    // First the workaround of the pool's defect that made every call through `exports` slower than the one before
    // (test/worker/pool-prototype.ts), then the property runs and seed.
    setupFiles: ["test/worker/pool-prototype.ts", "test/worker/properties.ts"],
    // One workerd per worker, not per test file, and the modules it imported (the Worker, its schemas and domain,
    // jose, the OpenAPI contract) kept for the next file it runs: a fresh workerd per file spent 50 s of the
    // suite's 100 s of CPU importing them again. The files share nothing they write: each request comes from a
    // client address or token of its own (rate limits), and tests that change the Worker's environment pass their
    // own copy to the handler. With the workaround above, the 18 files in two workerd processes took 33 s of CPU.
    isolate: false,
    // A guard against a hung test, far above any test's time, not a verdict on its speed: vitest's default of 5 s
    // failed a property test (aps-compare.spec.ts) that takes about 3 s while another suite shared the two cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Files run side by side, at least two at a time (vitest's default on a two-core machine is one): the rate limit
    // tests wait for a period to end, and every file sends its requests from client addresses of its own.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
