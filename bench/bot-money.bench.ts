/**
 * Bots' money under load (docs/bots.md "What each bot did", "Risk limits and the kill switch"):
 *
 * 1. The kill switch: 100 liquidity-arranger bots on paper with 5 resting orders each (500 orders
 *    over 4 accounts) in one `serve`; `POST /token/bot/stop-all` is timed until it answers, and every
 *    order is checked cancelled (target 5 s). Baseline: the same 500 orders cancelled by
 *    `POST /token/trade/order/cancel-all` on each account (the exchange's own floor), alternated.
 * 2. The event loop's p99 with 100 bots whose fills are recorded: each quotes both sides within
 *    0.05% of the mid, so paper's market crosses their quotes many times a second (BENCH_MONEY_SPEED
 *    runs the server's clock faster, which mostly measures paper's replay); target under 20 ms,
 *    beside the same window without bots.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { paperBook } from "../exchanges/paper/index.js";
import { type AccountPath, pathHeader } from "../lib/api.js";
import { Decimal } from "../lib/decimal.js";
import { startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import { type BenchOutcome, median } from "./index.js";
import { registerBenchAdmin } from "./server.bench.js";

const BOTS = Number(process.env.BENCH_BOTS ?? 100);
const ORDERS = 5;
const ACCOUNTS: AccountPath[] = [0, 1, 2, 3].map((i) => ["Bench", "paper", `money${i}`]);
const RUNS = 3;
const LOOP_SECONDS = Number(process.env.BENCH_BOTS_SECONDS ?? 4);
/** market seconds per wall second in the fills window (1: real time) */
const SPEED = Number(process.env.BENCH_MONEY_SPEED ?? 1);

type Server = Awaited<ReturnType<typeof startServer>>;

async function boot(now?: () => number): Promise<{ server: Server; dataDir: string; auth: Record<string, string> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-bench-money-"));
  const server = await startServer({
    port: 0,
    dataDir,
    rateLimit: { calls: 1e9, windowMs: 10_000 },
    // the fills window runs the server's clock fast: the bench's token outlives it
    accessTtlMs: 30 * 86_400_000,
    logger: createJsonLogger({ level: "error", write: () => {} }),
    ...(now ? { now } : {}),
  });
  const accessToken = await registerBenchAdmin(server);
  const auth = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  for (const path of ACCOUNTS)
    await fetch(`${server.url}/token/admin/apikeys`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ path, apis: { data: "", pair: "BTC/USDT", active: true } }),
    });
  return { server, dataDir, auth };
}

/** `count` liquidity arrangers of 5 quotes each, spread over the accounts; `from` and `to` are fractions of the mid. */
async function createBots(
  server: Server,
  auth: Record<string, string>,
  now: () => number,
  count: number,
  side: "Buy" | undefined,
  from: string,
  to: string,
): Promise<string[]> {
  const mid = new Decimal(paperBook("BTC/USDT", { now }).mid);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${server.url}/token/bot`, {
      method: "POST",
      headers: { ...auth, path: pathHeader(ACCOUNTS[i % ACCOUNTS.length]!) },
      body: JSON.stringify({
        botType: "liquidity-arranger-bot",
        setup: {
          pair: "BTC/USDT",
          ...(side ? { side } : {}),
          ordersAmount: ORDERS,
          P0: mid.times(from).decimalPlaces(2).toNumber(),
          P1: mid.times(to).decimalPlaces(2).toNumber(),
          Q0: 15,
          Q1: 15,
        },
      }),
    });
    if (res.status !== 200) throw new Error(`POST /token/bot answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { botId: string }).botId);
  }
  return ids;
}

async function openOrders(server: Server, auth: Record<string, string>): Promise<number> {
  let n = 0;
  for (const path of ACCOUNTS) {
    const res = await fetch(`${server.url}/token/trade/orders`, {
      headers: { authorization: auth.authorization!, path: pathHeader(path) },
    });
    n += ((await res.json()) as unknown[]).length;
  }
  return n;
}

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function removeAll(server: Server, auth: Record<string, string>, ids: string[]): Promise<void> {
  for (const botId of ids)
    await fetch(`${server.url}/token/bot`, { method: "DELETE", headers: auth, body: JSON.stringify({ botId }) });
}

async function stopAllBench(): Promise<BenchOutcome> {
  const name = `bot money: stop-all of ${BOTS} paper bots with ${ORDERS} orders each (every order cancelled)`;
  let booted: Awaited<ReturnType<typeof boot>>;
  try {
    booted = await boot();
  } catch (error) {
    return { name, skipped: `the server did not start: ${(error as Error).message}` };
  }
  const { server, dataDir, auth } = booted;
  try {
    const stopAll: number[] = [];
    const cancelAll: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // the kill switch
      const ids = await createBots(server, auth, Date.now, BOTS, "Buy", "0.97", "0.96");
      await until(async () => (await openOrders(server, auth)) === BOTS * ORDERS, "every bot's orders");
      let started = performance.now();
      const res = await fetch(`${server.url}/token/bot/stop-all`, { method: "POST", headers: auth });
      const answer = (await res.json()) as { stopped: string[]; failed: unknown[] };
      stopAll.push(performance.now() - started);
      if (answer.stopped.length !== BOTS || answer.failed.length > 0)
        throw new Error(`stop-all stopped ${answer.stopped.length}, failed ${answer.failed.length}`);
      const left = await openOrders(server, auth);
      if (left !== 0) throw new Error(`${left} orders still open after stop-all answered`);
      await removeAll(server, auth, ids);
      // the baseline: as many orders placed on the accounts by hand, cancelled by cancel-all per account
      const mid = new Decimal(paperBook("BTC/USDT").mid);
      for (const path of ACCOUNTS) {
        const headers = { ...auth, path: pathHeader(path) };
        for (let k = 0; k < (BOTS * ORDERS) / ACCOUNTS.length; k++)
          await fetch(`${server.url}/token/trade/order/create`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              side: "Buy",
              price: mid
                .times("0.96")
                .minus(k / 100)
                .decimalPlaces(2)
                .toFixed(),
              amount: "0.0003",
            }),
          });
      }
      await until(async () => (await openOrders(server, auth)) === BOTS * ORDERS, "the orders placed by hand");
      started = performance.now();
      for (const path of ACCOUNTS)
        await fetch(`${server.url}/token/trade/order/cancel-all`, {
          method: "POST",
          headers: { authorization: auth.authorization!, path: pathHeader(path), "content-type": "application/json" },
          body: JSON.stringify({ customPair: "BTC/USDT" }),
        });
      cancelAll.push(performance.now() - started);
      if ((await openOrders(server, auth)) !== 0) throw new Error("orders left after cancel-all");
    }
    return {
      name,
      unit: "ms",
      better: "lower",
      value: median(stopAll),
      baseline: { name: "cancel-all of the same 500 orders, per account", value: median(cancelAll) },
      target: 5000,
      detail: `${BOTS} liquidity arrangers over ${ACCOUNTS.length} paper accounts, ${BOTS * ORDERS} resting orders; median of ${RUNS} runs; stop-all answers after every order is cancelled (each confirmed, its last fills booked), checked by listing the accounts' orders`,
    };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function loopWithFillsBench(): Promise<BenchOutcome> {
  const name = `bot money: event-loop p99 delay, ${BOTS} bots recording fills`;
  const wallStart = Date.now();
  const marketNow = () => wallStart + (Date.now() - wallStart) * SPEED;
  let booted: Awaited<ReturnType<typeof boot>>;
  try {
    booted = await boot(marketNow);
  } catch (error) {
    return { name, skipped: `the server did not start: ${(error as Error).message}` };
  }
  const { server, dataDir, auth } = booted;
  try {
    const window = async () => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      await new Promise((r) => setTimeout(r, LOOP_SECONDS * 1000));
      loop.disable();
      return loop.percentile(99) / 1e6;
    };
    const fillsOf = (ids: string[]) => ids.reduce((n, id) => n + (server.bots?.runnerOf(id)?.totals.fills ?? 0), 0);
    await window(); // warm-up
    const without: number[] = [];
    const withBots: number[] = [];
    const rates: number[] = [];
    for (let run = 0; run < 2; run++) {
      without.push(await window());
      // both sides, within 0.05% of the mid: the fast market crosses them again and again
      const ids = await createBots(server, auth, marketNow, BOTS, undefined, "0.9995", "1.0005");
      await new Promise((r) => setTimeout(r, 2000));
      const before = fillsOf(ids);
      const started = performance.now();
      withBots.push(await window());
      rates.push(((fillsOf(ids) - before) * 1000) / (performance.now() - started));
      await removeAll(server, auth, ids);
    }
    return {
      name,
      unit: "ms",
      better: "lower",
      value: median(withBots),
      baseline: { name: "without bots", value: median(without) },
      target: 20,
      detail: `${BOTS} liquidity arrangers (5 quotes each, both sides near the mid) on ${ACCOUNTS.length} paper accounts, market clock ${SPEED}x: ${median(rates).toFixed(0)} fills recorded/s; median of 2 windows of ${LOOP_SECONDS} s alternated with the same without bots`,
    };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchOutcome[]> {
  if (process.env.BENCH_MONEY_ONLY === "loop") return [await loopWithFillsBench()];
  return [await stopAllBench(), await loopWithFillsBench()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
