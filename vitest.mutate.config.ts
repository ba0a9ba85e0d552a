import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The vitest config of `npm run mutate` (stryker.config.mjs): the suite limited to the test files
 * stryker.config.mjs chose for the files it mutates (SPOTDESK_MUTATE_TESTS, a JSON list of globs).
 * Stryker's own --testFiles is not used: with it, Stryker 9.6 activates a mutant of module-level
 * code (a table such as LIMITS) only after the module was loaded, so such mutants always survive.
 */
const tests = JSON.parse(process.env.SPOTDESK_MUTATE_TESTS ?? "[]") as string[];

// Stryker's coverage instrumentation makes every test slower, and the machine is shared: a test that
// takes 5 s alone (the order book's 100,000-delta comparison) may pass the usual 20 s under load.
export default defineConfig({
  test: { ...base.test, include: tests.length > 0 ? tests : base.test?.include, testTimeout: 180_000, hookTimeout: 180_000 },
});
