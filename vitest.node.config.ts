import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Plain-Node tests: the pure domain modules, the build pipeline, importers, and end-to-end HTTP tests
// against a real local server (the typed client's tests in client/test too). Tests that run inside workerd
// live in test/worker (vitest.worker.config.ts).
export default defineConfig({
  test: {
    include: ["test/node/**/*.test.ts", "client/test/**/*.test.ts"],
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
  },
});
