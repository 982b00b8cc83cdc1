import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    reporters: ["default", "./test/support/pass-fail-reporter.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
