import { defineConfig } from "vitest/config";

/** The server's suites alone (no CLI build needed): `npx vitest run --config test/server/vitest.config.ts`. */
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/server/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
