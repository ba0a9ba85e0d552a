/**
 * Bots under load (issue 12 Checks, docs/bots.md): 100 floating bots on paper in one `serve`,
 * each replacing its order on every book change (marginOfError 0, no replacement delay). Reported:
 * the event loop's p99 delay while the bots run (target under 20 ms), then the server's own API
 * p99 under load (GET /token/trade/balances on another paper account, 20 connections), each
 * beside the same figure measured without bots, alternated in this process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type AccountPath, pathHeader } from "../lib/api.js";
import { startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import { type BenchOutcome, median } from "./index.js";
import { loadAutocannon, registerBenchAdmin } from "./server.bench.js";

export const BOTS = Number(process.env.BENCH_BOTS ?? 100);
const SECONDS = Number(process.env.BENCH_BOTS_SECONDS ?? 4);
const RUNS = 2;
const CONNECTIONS = 20;
const DEMO: AccountPath = ["Demo", "paper", "main"];
const LOAD: AccountPath = ["Load", "paper", "api"];

export async function run(): Promise<BenchOutcome[]> {
  const name = `bots: event-loop p99 delay, ${BOTS} floating bots on paper`;
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-bench-bots-"));
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port: 0,
      dataDir,
      rateLimit: { calls: 1e9, windowMs: 10_000 },
      logger: createJsonLogger({ level: "error", write: () => {} }),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    return [{ name, skipped: `the server did not start: ${(error as Error).message}` }];
  }
  try {
    const accessToken = await registerBenchAdmin(server);
    const auth = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    await fetch(`${server.url}/token/admin/apikeys`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ path: LOAD, apis: { data: "", pair: "BTC/USDT", active: true } }),
    });
    const loadHeaders = { authorization: auth.authorization, path: pathHeader(LOAD) };
    const autocannon = await loadAutocannon();

    /**
     * One measured window: the event loop's delay with nothing but the bots (and the server's own
     * timers) running, then the API's latency under autocannon.
     */
    const measure = async () => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      loop.disable();
      const api = await autocannon({
        url: `${server.url}/token/trade/balances`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: loadHeaders,
      });
      return {
        loopP99: loop.percentile(99) / 1e6,
        apiP99: api.latency.p99,
        failures: api.non2xx + api.errors + api.timeouts,
      };
    };
    await measure(); // warm-up

    const ids: string[] = [];
    const createBots = async () => {
      for (let i = 0; i < BOTS; i++) {
        const res = await fetch(`${server.url}/token/bot`, {
          method: "POST",
          headers: { ...auth, path: pathHeader(DEMO) },
          body: JSON.stringify({
            botType: "floating-bot",
            setup: {
              main: { pair: "BTC/USDT", side: i % 2 ? "Sell" : "Buy", quote: 20, percent: 1, marginOfError: 0 },
              modules: { "dynamic-price": { min: 0.5, max: 2 }, "dynamic-delay": { min: 0, max: 0 } },
            },
          }),
        });
        if (res.status !== 200) throw new Error(`POST /token/bot answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { botId: string }).botId);
      }
    };
    const removeBots = async () => {
      for (const botId of ids.splice(0)) {
        await fetch(`${server.url}/token/bot`, { method: "DELETE", headers: auth, body: JSON.stringify({ botId }) });
      }
    };
    const placements = () =>
      ids.reduce(
        (sum, id) => sum + ((server.bots?.runnerOf(id)?.state().runner?.generation as number | undefined) ?? 0),
        0,
      );

    const without: Awaited<ReturnType<typeof measure>>[] = [];
    const withBots: Awaited<ReturnType<typeof measure>>[] = [];
    const rates: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      without.push(await measure());
      await createBots();
      await new Promise((r) => setTimeout(r, 2000)); // every bot placed and replacing
      const before = placements();
      const started = performance.now();
      withBots.push(await measure());
      rates.push(((placements() - before) * 1000) / (performance.now() - started));
      await removeBots();
    }
    const failures = [...without, ...withBots].reduce((n, r) => n + r.failures, 0);
    const detail = `${BOTS} bots on one paper account replacing on every book change: ${median(rates).toFixed(0)} placements/s; median of ${RUNS} windows (${SECONDS} s idle for the loop, ${SECONDS} s of API load at ${CONNECTIONS} connections) alternated with the same without bots; ${failures} API failures`;
    return [
      {
        name,
        unit: "ms",
        better: "lower",
        value: median(withBots.map((r) => r.loopP99)),
        baseline: { name: "without bots", value: median(without.map((r) => r.loopP99)) },
        target: 20,
        detail,
      },
      {
        name: `bots: API p99 (GET /token/trade/balances) with ${BOTS} bots running`,
        unit: "ms",
        better: "lower",
        value: median(withBots.map((r) => r.apiP99)),
        baseline: { name: "without bots", value: median(without.map((r) => r.apiP99)) },
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
