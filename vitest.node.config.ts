import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Plain-Node tests: the pure domain modules, the build pipeline, importers, and end-to-end HTTP tests
// against a real local server (the typed client's tests in client/test too). Tests that run inside workerd
// live in test/worker (vitest.worker.config.ts).
/** The test files that mock a module: they run isolated. */
const ISOLATED = ["test/node/registry.test.ts", "test/node/deprecation.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    // Property tests draw the same cases every run (a fixed seed), npm run fuzz more and others: test/support/properties.ts.
    setupFiles: ["test/support/properties.ts"],
    // Files run side by side, at least two at a time even on a two-core machine (where vitest's default is one):
    // many spend much of their time waiting on a browser, a local server, a child process or a timer. They share
    // nothing they write: each works in temporary folders, servers take free ports, .test-dist/ is built before.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Guards against a hung test, far above any test's time (the slowest, commands.test.ts, sets its own), not
    // verdicts on speed: a limit CPU contention could trip would make a test's verdict depend on the machine's load.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    projects: [
      {
        // A worker keeps the modules it imported for the next file it runs (isolate: false): a third of the suite's
        // time was each file importing the build, the schemas and the domain again, and the fixtures a file loads
        // (the APS sources) are loaded once per worker. Test files themselves are imported afresh each time.
        extends: true,
        test: {
          name: "node",
          isolate: false,
          include: ["test/node/**/*.test.ts", "client/test/**/*.test.ts"],
          exclude: [...ISOLATED, "**/node_modules/**"],
        },
      },
      // Files that replace a module (vi.mock) get fresh modules of their own, so no other file sees the replacement.
      { extends: true, test: { name: "node-isolated", include: ISOLATED } },
    ],
  },
});
