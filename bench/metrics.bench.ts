/**
 * The cost of the metrics on the server's request rate (docs/operations.md#metrics): under 5 %.
 *
 * Two real servers in this process, each with its SQLite file on an ephemeral port: one with the
 * metrics (the default: every answer counted by route and status, its latency observed, feeds and
 * exchange calls watched) and one with `metrics.enabled: false`, GET /health on each with autocannon
 * (CONNECTIONS connections). Each round starts a fresh pair, the order of start and of runs swapped
 * from one round to the next; medians of RUNS rounds. /health is the cheapest route, so the
 * metrics' share of a request is at its largest there. A scrape of /metrics follows each round.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import { type BenchOutcome, median } from "./index.js";
import { type AutocannonResult, CONNECTIONS, loadAutocannon, RUN_SECONDS } from "./server.bench.js";

const RUNS = 4;

async function start(dataDir: string, metrics: boolean): Promise<RunningServer> {
  return startServer({
    port: 0,
    dataDir,
    runBots: false,
    rateLimit: { calls: 1e9, windowMs: 10_000 },
    metrics: { enabled: metrics },
    logger: createJsonLogger({ level: "info", write: () => {} }),
  });
}

/** One round: a fresh pair of servers (the one with metrics first when `metricsFirst`), each warmed up then measured once. */
async function round(
  autocannon: Awaited<ReturnType<typeof loadAutocannon>>,
  metricsFirst: boolean,
): Promise<{ measured: AutocannonResult; baseline: AutocannonResult } | string> {
  const dirs = [
    mkdtempSync(join(tmpdir(), "spotdesk-bench-metrics-")),
    mkdtempSync(join(tmpdir(), "spotdesk-bench-bare-")),
  ];
  const servers: RunningServer[] = [];
  try {
    for (const metrics of metricsFirst ? [true, false] : [false, true])
      servers.push(await start(dirs[servers.length]!, metrics));
    const [withMetrics, without] = (metricsFirst ? servers : [...servers].reverse()) as [RunningServer, RunningServer];
    const scrape = await fetch(`${withMetrics.url}/metrics`);
    if (scrape.status !== 200) return `/metrics answered ${scrape.status}`;
    const load = (server: RunningServer, seconds: number) =>
      autocannon({ url: `${server.url}/health`, connections: CONNECTIONS, duration: seconds });
    const [first, second] = metricsFirst ? [withMetrics, without] : [without, withMetrics];
    await load(first, 1); // warm-up
    await load(second, 1);
    const a = await load(first, RUN_SECONDS);
    const b = await load(second, RUN_SECONDS);
    await (await fetch(`${withMetrics.url}/metrics`)).text();
    return metricsFirst ? { measured: a, baseline: b } : { measured: b, baseline: a };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchOutcome[]> {
  const name = "server: GET /health with metrics";
  const autocannon = await loadAutocannon();
  const measured: AutocannonResult[] = [];
  const baseline: AutocannonResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    let result: Awaited<ReturnType<typeof round>>;
    try {
      // the pair's start and run order swapped each round: a first-started server ran slower
      // even with metrics on both (an A/A run), so neither side may always be first
      result = await round(autocannon, i % 2 === 0);
    } catch (error) {
      return [{ name, skipped: `the server did not start: ${(error as Error).message}` }];
    }
    if (typeof result === "string") return [{ name, skipped: result }];
    measured.push(result.measured);
    baseline.push(result.baseline);
  }
  const failures = [...measured, ...baseline].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  return [
    {
      name,
      unit: "req/s",
      better: "higher",
      value: Math.round(median(measured.map((r) => r.requests.average))),
      baseline: { name: "without metrics", value: Math.round(median(baseline.map((r) => r.requests.average))) },
      targetRatio: 0.95,
      detail: `${CONNECTIONS} connections, median of ${RUNS} rounds of ${RUN_SECONDS} s each on a fresh pair of servers, order swapped each round, ${failures} failures; autocannon in the same process`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
