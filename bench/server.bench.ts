/**
 * The backend under load (issue 6 Checks): requests per second and p99 latency of an
 * authenticated GET /token/trade/balances on the demo paper account, 200 concurrent connections
 * (autocannon), against a real server on an ephemeral port with a real SQLite file.
 *
 * Every request runs the whole path: bearer token check (HMAC), session lookup, user lookup,
 * limiter, scope check, API-key record, a paper adapter built for the call, balances read from
 * the paper account file, JSON answer, a structured log line (formatted, then discarded). The
 * per-user limit of docs/decisions.md#d8 (60 calls / 10 s) is raised for the run: it would otherwise answer
 * 604 to almost every request, which measures the limiter, not the server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathHeader } from "../lib/api.js";
import { startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import { type BenchOutcome, median } from "./index.js";

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
/** A run in progress: a promise of its result that also reports each answer as it comes. */
export type AutocannonRun = Promise<AutocannonResult> & {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: "reqError", listener: (error: unknown) => void): void;
};
export type Autocannon = (options: Record<string, unknown>) => AutocannonRun;
/** autocannon ships no types; a non-literal specifier keeps the compiler from looking for them. */
export async function loadAutocannon(): Promise<Autocannon> {
  const specifier: string = "autocannon";
  const mod = (await import(specifier)) as { default: Autocannon };
  return mod.default;
}

export const CONNECTIONS = 200;

/** One timed window of a run whose connections were opened before it (`windowedRun`). */
export interface WindowedResult {
  /** answers completed in the window, per second */
  rate: number;
  /** latency percentiles of the requests sent in the window, ms */
  p50: number;
  p99: number;
  max: number;
  /** p99 of every answer of the run, warm-up included (what the run would report without one), ms */
  p99WithWarmup: number;
  /** answers completed in the window */
  total: number;
  /** non-2xx answers and request errors in the window */
  failures: number;
}

/** The p-quantile (0..1) of ascending values, NaN when there are none. */
export const percentileOf = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/**
 * A run of `warmupSeconds + seconds` whose first `warmupSeconds` open the connections and get each
 * one's first answer, and are not counted (docs/server-speed.md "The client p99"): 200 connections
 * opened at once make their first answers wait for each other's handshakes and the harness's own
 * start, which is not the server's steady state. The rate counts answers completed in the timed
 * window; the percentiles count requests sent in it (an answer's start is its end minus its time).
 */
export async function windowedRun(
  autocannon: Autocannon,
  options: Record<string, unknown>,
  warmupSeconds: number,
  seconds: number,
): Promise<WindowedResult> {
  const windowStart = performance.now() + warmupSeconds * 1000;
  const latencies: number[] = [];
  const every: number[] = [];
  let total = 0;
  let failures = 0;
  const run = autocannon({ ...options, duration: warmupSeconds + seconds });
  run.on("response", (_client, status, _bytes, ms) => {
    const now = performance.now();
    if (status >= 200 && status <= 299) every.push(ms);
    if (now < windowStart) return;
    total++;
    if (status < 200 || status > 299) failures++;
    else if (now - ms >= windowStart) latencies.push(ms);
  });
  run.on("reqError", () => {
    if (performance.now() >= windowStart) failures++;
  });
  await run;
  latencies.sort((a, b) => a - b);
  every.sort((a, b) => a - b);
  return {
    rate: total / seconds,
    p50: percentileOf(latencies, 0.5),
    p99: percentileOf(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
    p99WithWarmup: percentileOf(every, 0.99),
    total,
    failures,
  };
}
/** seconds per measured run; three runs of each, alternated with the baseline */
export const RUN_SECONDS = Number(process.env.BENCH_SERVER_SECONDS ?? 3);
const RUNS = 3;

/** Registers the bench's first admin with the server's one-time setup code; returns its access token. */
export async function registerBenchAdmin(server: { url: string; setupCode?: string | null }): Promise<string> {
  const reg = await fetch(`${server.url}/register`, {
    method: "POST",
    headers: { email: "bench@example.com", password: "bench-password", code: server.setupCode! },
  });
  return ((await reg.json()) as { accessToken: string }).accessToken;
}

export async function run(): Promise<BenchOutcome[]> {
  const name = "server: GET /token/trade/balances (paper, authenticated)";
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-bench-server-"));
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port: 0,
      dataDir,
      rateLimit: { calls: 1e9, windowMs: 10_000 },
      logger: createJsonLogger({ level: "info", write: () => {} }),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    return [{ name, skipped: `the server did not start: ${(error as Error).message}` }];
  }
  try {
    const accessToken = await registerBenchAdmin(server);
    const headers = { authorization: `Bearer ${accessToken}`, path: pathHeader(["Demo", "paper", "main"]) };
    const check = await fetch(`${server.url}/token/trade/balances`, { headers });
    if (check.status !== 200) return [{ name, skipped: `balances answered ${check.status}: ${await check.text()}` }];
    const autocannon = await loadAutocannon();
    const load = (path: string, seconds: number) =>
      autocannon({ url: `${server.url}${path}`, connections: CONNECTIONS, duration: seconds, headers });
    await load("/token/trade/balances", 1); // warm-up
    await load("/health", 1);
    const balances: AutocannonResult[] = [];
    const health: AutocannonResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Baseline alternated with the measured call: GET /health, the server's cheapest route
      // (router, JSON answer and log line; no token, no storage beyond one count, no exchange).
      health.push(await load("/health", RUN_SECONDS));
      balances.push(await load("/token/trade/balances", RUN_SECONDS));
    }
    const failures = balances.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
    const detail = `${CONNECTIONS} connections, median of ${RUNS} runs of ${RUN_SECONDS} s, ${balances.reduce((n, r) => n + r.requests.total, 0)} requests, ${failures} failures; autocannon in the same process`;
    return [
      {
        name,
        unit: "req/s",
        better: "higher",
        value: Math.round(median(balances.map((r) => r.requests.average))),
        baseline: { name: "GET /health", value: Math.round(median(health.map((r) => r.requests.average))) },
        detail,
      },
      {
        name: "server: GET /token/trade/balances p99 latency",
        unit: "ms",
        better: "lower",
        value: median(balances.map((r) => r.latency.p99)),
        baseline: { name: "GET /health p99", value: median(health.map((r) => r.latency.p99)) },
        detail,
      },
    ];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
