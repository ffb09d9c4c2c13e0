import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// npm run test:quick, for the edit-test loop: the tests of the pure modules (domain/, lib/, the importers' parsers,
// what npm test reads from vitest), which need no build, server, browser or child process. npm test runs them too.
export default defineConfig({
  test: {
    include: [
      "test/node/aps-engine.test.ts",
      "test/node/aps-near-miss.test.ts",
      "test/node/aps-properties.test.ts",
      "test/node/aps-request.test.ts",
      "test/node/bursary-cycles.test.ts",
      "test/node/coordinates.test.ts",
      "test/node/evidence.test.ts",
      "test/node/geo.test.ts",
      "test/node/id-number.property.test.ts",
      "test/node/id-number.test.ts",
      "test/node/jsonc.test.ts",
      "test/node/nsc-pass.test.ts",
      "test/node/property-tests.test.ts",
      "test/node/text-repair.test.ts",
      "test/node/text.test.ts",
      "test/node/vitest-output.test.ts",
    ],
    setupFiles: ["test/support/properties.ts"],
    // A worker keeps its modules from one file to the next, as in the plain-Node suite (vitest.node.config.ts).
    isolate: false,
    // Two files at a time even on a two-core machine, as in the plain-Node suite.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A guard against a hung test, not a verdict on its speed (vitest's default of 5 s is one CPU contention trips).
    testTimeout: 120_000,
  },
});
