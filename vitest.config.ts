import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx", "lib/**/*.test.ts", "exchanges/**/*.test.ts", "cli/**/*.test.ts", "tui/**/*.test.tsx", "server/**/*.test.ts", "web/**/*.test.ts", "web/**/*.test.tsx"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
  },
});
