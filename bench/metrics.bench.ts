/**
 * The cost of the metrics on the server's request rate (docs/operations.md#metrics): under 5 %.
 *
 * Two real servers in this process, each with its SQLite file on an ephemeral port: one with the
 * metrics (the default: every answer counted by route and status, its latency observed, feeds and
 * exchange calls watched) and one with `metrics.enabled: false`, GET /health on each with autocannon
 * (CONNECTIONS connections), runs alternated, medians of RUNS. /health is the cheapest route, so the
 * metrics' share of a request is at its largest there. A scrape of /metrics runs between the runs,
 * as Prometheus' would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import { type BenchOutcome, median } from "./index.js";
import { type AutocannonResult, CONNECTIONS, loadAutocannon, RUN_SECONDS } from "./server.bench.js";

const RUNS = 3;

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

export async function run(): Promise<BenchOutcome[]> {
  const name = "server: GET /health with metrics";
  const dirs = [
    mkdtempSync(join(tmpdir(), "spotdesk-bench-metrics-")),
    mkdtempSync(join(tmpdir(), "spotdesk-bench-bare-")),
  ];
  const servers: RunningServer[] = [];
  try {
    try {
      servers.push(await start(dirs[0]!, true), await start(dirs[1]!, false));
    } catch (error) {
      return [{ name, skipped: `the server did not start: ${(error as Error).message}` }];
    }
    const [withMetrics, without] = servers as [RunningServer, RunningServer];
    const scrape = await fetch(`${withMetrics.url}/metrics`);
    if (scrape.status !== 200) return [{ name, skipped: `/metrics answered ${scrape.status}` }];
    const autocannon = await loadAutocannon();
    const load = (server: RunningServer, seconds: number) =>
      autocannon({ url: `${server.url}/health`, connections: CONNECTIONS, duration: seconds });
    await load(withMetrics, 1); // warm-up
    await load(without, 1);
    const measured: AutocannonResult[] = [];
    const baseline: AutocannonResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      // alternated, the order swapped each round, so neither side always runs on a warmer process
      if (i % 2 === 0) {
        baseline.push(await load(without, RUN_SECONDS));
        measured.push(await load(withMetrics, RUN_SECONDS));
      } else {
        measured.push(await load(withMetrics, RUN_SECONDS));
        baseline.push(await load(without, RUN_SECONDS));
      }
      await (await fetch(`${withMetrics.url}/metrics`)).text();
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
        detail: `${CONNECTIONS} connections, median of ${RUNS} alternated runs of ${RUN_SECONDS} s each, ${failures} failures; autocannon in the same process`,
      },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
