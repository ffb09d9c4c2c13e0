import { defineConfig } from "vitest/config";

// Plain-Node tests: the pure domain modules, the build pipeline, importers, and end-to-end HTTP tests
// against a real local server (the typed client's tests in client/test too). Tests that run inside workerd
// live in test/worker (vitest.worker.config.ts).
export default defineConfig({
  test: {
    include: ["test/node/**/*.test.ts", "client/test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
