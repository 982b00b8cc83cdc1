import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    reporters: ["default", "./test/support/pass-fail-reporter.ts"],
    // Compiles src/ once for the child processes tests start (see the file).
    globalSetup: ["./test/support/compiled-source.ts"],
    // Removes the temporary directories each test file made (test/support/temp-dir.ts).
    setupFiles: ["./test/support/temp-dir-cleanup.ts"],
    // Generous: tests wait on child processes and sockets, never on time (clocks are injected),
    // so only a machine shared with other builds makes them slow; a hang still fails.
    testTimeout: 45_000,
    hookTimeout: 30_000,
    // Vitest's default on 2 cores is one worker: most of our time is spent waiting on sockets and
    // child processes, so two files at once use the second core. VITEST_MAX_WORKERS overrides.
    maxWorkers: 2,
    // Each file in a fresh module graph cost about 30 s of imports per run; no test relies on
    // module state (no vi.mock, no global stubs), so a worker loads src/ once for all its files.
    isolate: false,
  },
});
