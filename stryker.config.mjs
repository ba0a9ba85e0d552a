// Mutation testing of the money paths (docs/mutation.md): `npm run mutate` over the whole set, or one
// file at a time with `npm run mutate -- --mutate lib/decimal.ts`. Each source file runs against the
// test files listed for it in TESTS below (not the whole suite): on a shared 2-core machine the
// whole set takes hours, one file takes minutes.
//
// No TypeScript checker: the project's TypeScript is 7 (the native compiler), which has no compiler
// API for @stryker-mutator/typescript-checker to load. A mutant that would not compile simply runs;
// vitest strips types, so it is judged by the tests like any other.

/** Source files (globs) to mutate: lib/, the exchange adapters and their common code, the paper engine, the server's trade and auth routes, the bot strategies. */
export const MUTATE = [
  "lib/**/*.ts",
  "exchanges/*/rest.ts",
  "exchanges/*/feed.ts",
  "exchanges/core/*.ts",
  "exchanges/paper/*.ts",
  "server/routes/trade.ts",
  "server/routes/auth.ts",
  "server/auth/*.ts",
  "server/bots/strategies/*.ts",
  // types and wiring only: nothing to mutate
  "!lib/types.ts",
  "!exchanges/types.ts",
  "!exchanges/registry.ts",
  "!exchanges/feeds.ts",
  "!exchanges/feed-node.ts",
  "!exchanges/**/*.test.ts",
  "!exchanges/*/mock.ts",
  "!exchanges/*/ws-mock.ts",
  "!exchanges/core/testing/*.ts",
  // pure data (docs/exchanges.md "What info.ts holds")
  "!exchanges/core/info.ts",
  "!exchanges/paper/info.ts",
  "!server/bots/strategies/types.ts",
];

/**
 * The test files that pin each source file (first matching prefix wins). A source file runs only
 * against these, so a survivor means "these tests do not notice", not "nothing in the repo does".
 */
export const TESTS = [
  // the dashboard's isomorphic pieces: their first tests are the web's (docs/dashboard-rules.md)
  ...["lib/client.ts", "lib/duration.ts", "lib/panel-state.ts", "lib/blockies.ts"].map((file) => [
    file,
    ["test/lib/*.test.ts", "test/web/lib-dashboard.test.ts"],
  ]),
  // module-level tables: every mutant is static and runs all of its tests, so these two get only their own
  ["lib/schemas.ts", ["test/lib/schemas.pin.test.ts", "test/lib/lib-load.pin.test.ts"]],
  ["lib/api.ts", ["test/lib/api.pin.test.ts", "test/lib/client.pin.test.ts", "test/lib/lib-load.pin.test.ts"]],
  ["lib/orderbook.ts", ["test/lib/orderbook.test.ts", "test/lib/orderbook.pin.test.ts"]],
  ["lib/order-checks.ts", ["test/lib/order-checks.pin.test.ts", "test/tui/order-rules.test.ts"]],
  ["lib/", ["test/lib/*.test.ts"]],
  // the paper store's files: their own tests, without the engine's and the market's (docs/mutation.md "paper")
  ...["exchanges/paper/journal.ts", "exchanges/paper/snapshot.ts"].map((file) => [
    file,
    ["test/paper/store-files.pin.test.ts", "test/paper/store.test.ts"],
  ]),
  ["exchanges/paper/lock.ts", ["test/paper/lock.pin.test.ts", "test/paper/store.test.ts"]],
  [
    "exchanges/paper/store.ts",
    ["test/paper/store.pin.test.ts", "test/paper/store.test.ts"],
  ],
  ["exchanges/paper/adapter.ts", ["test/paper/adapter.pin.test.ts", "test/paper/orders.test.ts"]],
  [
    "exchanges/paper/state.ts",
    [
      "test/paper/state.pin.test.ts",
      "test/paper/engine.test.ts",
      "test/paper/orders.test.ts",
      "test/paper/store.pin.test.ts",
      "test/paper/store-files.pin.test.ts",
    ],
  ],
  ["exchanges/paper/candles.ts", ["test/paper/candles.pin.test.ts"]],
  ["exchanges/paper/feed.ts", ["test/paper/feed.test.ts"]],
  ...["exchanges/paper/market.ts", "exchanges/paper/pairs.ts"].map((file) => [
    file,
    ["test/paper/market.test.ts", "test/paper/engine.test.ts", "test/paper/candles.pin.test.ts", "test/paper/adapter.pin.test.ts"],
  ]),
  ["exchanges/paper/", ["test/paper/*.test.ts"]],
  ["exchanges/core/limits.ts", ["test/lib/limits.test.ts"]],
  ["exchanges/core/status.ts", ["test/lib/status.test.ts"]],
  ["exchanges/core/sign.ts", ["exchanges/core/*.test.ts"]],
  // The adapter base and its pieces: their own tests and two or three venues' rest tests that go
  // through them (docs/mutation.md "exchanges/core"), not every adapter's (hours on this machine).
  ["exchanges/core/place.ts", ["exchanges/core/place.test.ts", "exchanges/core/unclear-answer.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/okx/rest.test.ts"]],
  ["exchanges/core/client-order-id.ts", ["exchanges/core/client-order-id.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/gate/rest.test.ts"]],
  ["exchanges/core/answer.ts", ["exchanges/core/answer.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/okx/rest.test.ts", "test/exchanges/partial-batch.test.ts"]],
  ["exchanges/core/success.ts", ["exchanges/core/success.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/okx/rest.test.ts"]],
  ["exchanges/core/rest.ts", ["exchanges/core/rest.test.ts", "exchanges/core/place.test.ts", "exchanges/core/snapshot-transport.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/okx/rest.test.ts"]],
  ["exchanges/core/adapter.ts", ["exchanges/core/adapter.test.ts", "exchanges/core/unclear-answer.test.ts", "exchanges/core/message-rules.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/okx/rest.test.ts"]],
  ["exchanges/core/options.ts", ["exchanges/core/options.test.ts", "exchanges/core/snapshot-transport.test.ts"]],
  ["exchanges/core/pair-list.ts", ["exchanges/core/pair-list.test.ts", "exchanges/bybit/rest.test.ts", "exchanges/okx/rest.test.ts", "test/exchanges/pairs-group-b.test.ts"]],
  // the shared feed code: the frame decoder's tests, its pin test and the venue feeds that reach
  // each part beyond them (a REST snapshot: kucoin, htx; numbers kept as text: htx; a checksum:
  // bitget; polling: bitteam; sequences: bybit), not all fifteen (docs/mutation.md "Feeds")
  ...["socket-feed", "polling-feed", "rest-snapshot-feed", "levels", "inflate"].map((name) => [
    `exchanges/core/${name}.ts`,
    [
      "test/feeds/frames.test.ts",
      "exchanges/core/feed.pin.test.ts",
      ...["kucoin", "htx", "bitget", "bitteam", "bybit"].map((id) => `exchanges/${id}/feed.test.ts`),
    ],
  ]),
  ["exchanges/core/", ["exchanges/core/*.test.ts", "exchanges/*/rest.test.ts", "exchanges/*/feed.test.ts"]],
  ["server/bots/strategies/", ["test/bots/strategies*.test.ts"]],
  // codes.ts sends by SMTP as well (test/server/mail.test.ts)
  ["server/auth/codes.ts", ["test/server/auth.test.ts", "test/server/auth.pin.test.ts", "test/server/signin-limits.test.ts", "test/server/mail.test.ts"]],
  ["server/", ["test/server/auth.test.ts", "test/server/auth.pin.test.ts", "test/server/admin-trade.test.ts", "test/server/signin-limits.test.ts", "test/server/secrets.pin.test.ts", "test/server/trade.pin.test.ts"]],
];

/** `exchanges/<id>/rest.ts` runs against `exchanges/<id>/rest.test.ts`, and `feed.ts` against `feed.test.ts`. */
function testsFor(file) {
  const adapter = /^exchanges\/([a-z]+)\/(rest|feed)\.ts$/.exec(file);
  // exchanges/core/rest.ts is the shared client and paper's tests are in test/paper/: their lists are in TESTS
  if (adapter && adapter[1] !== "core" && adapter[1] !== "paper") return [`exchanges/${adapter[1]}/${adapter[2]}.test.ts`];
  for (const [prefix, tests] of TESTS) if (file.startsWith(prefix)) return tests;
  return [];
}

/** The files named by `--mutate a,b` / `-m a` on the command line (line ranges such as `:10-20` dropped). */
function mutateArgs(argv) {
  const i = argv.findIndex((a) => a === "--mutate" || a === "-m");
  if (i === -1 || !argv[i + 1]) return undefined;
  return argv[i + 1].split(",").map((f) => f.replace(/:\d+(-\d+)?(:\d+(-\d+)?)?$/, ""));
}

const targets = mutateArgs(process.argv);
const testFiles = [
  ...new Set(
    targets
      ? targets.flatMap(testsFor)
      : ["test/lib/*.test.ts", "test/web/lib-dashboard.test.ts", "exchanges/**/*.test.ts", "test/exchanges/*.test.ts", "test/paper/*.test.ts", ...testsFor("server/")],
  ),
];

// Read by vitest.mutate.config.ts in Stryker's test processes, which inherit this environment.
process.env.SPOTDESK_MUTATE_TESTS = JSON.stringify(testFiles);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: false },
  coverageAnalysis: "perTest",
  // two cores shared by everyone: one test process
  concurrency: 1,
  mutate: MUTATE,
  // "/web" is the dashboard at the root; a bare "web" would also drop test/web/ from the sandbox
  ignorePatterns: ["dist", "reports", "test-results", "coverage", "/web", ".stryker-tmp"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
  timeoutMS: 10_000,
  tempDirName: ".stryker-tmp",
  // Stryker rewrites a tsconfig's extends/references with the TypeScript compiler API, which
  // TypeScript 7 lacks; ours has neither, so it is left as it is.
  tsconfigFile: "no-tsconfig-rewrite.json",
  cleanTempDir: "always",
};
