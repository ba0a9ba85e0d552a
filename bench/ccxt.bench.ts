/**
 * spotdesk beside what users would otherwise run (issue 21 Speed): CCXT, in the same process.
 *
 * - Order book: CCXT's OrderBook (the one ccxt.pro keeps for watchOrderBook) fed the same seeded
 *   stream of decimal strings as ours, each level read the way CCXT's feeds read one (parseFloat,
 *   then storeArray), against lib/orderbook.ts; then the same with the top 20 read after every
 *   delta.
 * - Signing: CCXT's `sign()` of a spot limit order for bybit, okx and gate against our signed
 *   request builders (bench/sign.bench.ts SIGNERS): both build the body and the HMAC.
 *
 * CCXT is not a dependency of spotdesk: `npm run bench` installs it on demand into bench/ccxt/
 * (its own package.json, its node_modules ignored by git), so `npm install` stays as fast. When
 * it cannot be installed (no registry), every result is skipped with the reason.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { OrderBook } from "../lib/orderbook.js";
import { type BookStream, syntheticBookStream } from "./book-stream.js";
import { type BenchOutcome, median } from "./index.js";
import { SIGNERS } from "./sign.bench.js";

/** bench/ccxt, or BENCH_CCXT_DIR (a test points it at a folder whose install fails) */
const ccxtDir = () => process.env.BENCH_CCXT_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "ccxt");
const ccxtEntry = () => join(ccxtDir(), "node_modules", "ccxt", "js", "ccxt.js");
const INSTALL_TIMEOUT_MS = 300_000;

/** CCXT's order book side: an Array of [price, amount] rows kept sorted. */
interface CcxtSide extends Array<[number, number]> {
  storeArray(row: [number, number]): void;
}
interface CcxtBook {
  bids: CcxtSide;
  asks: CcxtSide;
}
interface CcxtExchange {
  sign(
    path: string,
    api: string | string[],
    method: string,
    params: Record<string, string>,
  ): { url: string; body?: string; headers: Record<string, string> };
  orderBook(snapshot: object, depth: number): CcxtBook;
}
type CcxtExchangeClass = new (config: Record<string, string>) => CcxtExchange;
interface CcxtModule {
  version: string;
  bybit: CcxtExchangeClass;
  okx: CcxtExchangeClass;
  gate: CcxtExchangeClass;
  pro: { bybit: CcxtExchangeClass };
}

/** Installs CCXT into bench/ccxt when it is not there; the reason it could not, else undefined. */
function installCcxt(): string | undefined {
  if (existsSync(ccxtEntry())) return undefined;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["install", "--prefix", ccxtDir(), "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: ccxtDir(),
    encoding: "utf8",
    timeout: INSTALL_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.error) return `npm install --prefix bench/ccxt failed: ${result.error.message}`;
  if (result.status !== 0) {
    const line = (result.stderr || result.stdout).trim().split("\n").filter(Boolean).at(-1) ?? "";
    return `npm install --prefix bench/ccxt exited ${result.status}: ${line.slice(0, 200)}`;
  }
  return existsSync(ccxtEntry()) ? undefined : "npm install --prefix bench/ccxt did not install ccxt";
}

/** Replays the stream into a book; every `readEvery` deltas also reads the top 20 (0: never). Deltas/s. */
function replayOurs(stream: BookStream, readEvery: number): number {
  const book = new OrderBook();
  book.applySnapshot(stream.snapshot.bids, stream.snapshot.asks);
  const { sides, prices, amounts } = stream;
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < stream.length; i++) {
    book.applyDelta(sides[i] === 0 ? "bid" : "ask", prices[i]!, amounts[i]!);
    if (readEvery !== 0 && i % readEvery === 0) sink += book.top(20).bids.length;
  }
  const seconds = (performance.now() - start) / 1000;
  if (sink < 0) console.log(sink);
  return stream.length / seconds;
}

/** Reads the best 20 rows of a CCXT side (the prices, summed so the reads are not optimised away). */
function topOf(side: CcxtSide): number {
  let sum = 0;
  for (let k = 0; k < 20 && k < side.length; k++) sum += side[k]![0];
  return sum;
}

/** The same with CCXT's book: each level parsed with parseFloat and stored, as its feeds do. */
function replayCcxt(exchange: CcxtExchange, stream: BookStream, readEvery: number): number {
  const book = exchange.orderBook({}, Number.MAX_SAFE_INTEGER);
  const store = (side: CcxtSide, price: string, amount: string) =>
    side.storeArray([Number.parseFloat(price), Number.parseFloat(amount)]);
  for (const [p, a] of stream.snapshot.bids) store(book.bids, p, a);
  for (const [p, a] of stream.snapshot.asks) store(book.asks, p, a);
  const { sides, prices, amounts } = stream;
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < stream.length; i++) {
    store(sides[i] === 0 ? book.bids : book.asks, prices[i]!, amounts[i]!);
    // read by index: slice() on CCXT's Array subclass would build a whole new side each time
    if (readEvery !== 0 && i % readEvery === 0) sink += topOf(book.bids) + topOf(book.asks);
  }
  const seconds = (performance.now() - start) / 1000;
  if (sink < 0) console.log(sink);
  return stream.length / seconds;
}

/** Signed requests per second of `sign`, over `count` requests. */
function rate(sign: (i: number) => unknown, count: number): number {
  const start = performance.now();
  for (let i = 0; i < count; i++) sign(i);
  return count / ((performance.now() - start) / 1000);
}

const credentials = {
  apiKey: "bench-api-key-0123456789",
  secret: "bench-secret-0123456789abcdef",
  password: "bench-passphrase",
};
const clientOrderId = "0123456789abcdef0123456789abcdef";

/** CCXT's sign() of the same create-order request our SIGNERS build. */
function ccxtSigners(ccxt: CcxtModule): Record<"bybit" | "okx" | "gate", (i: number) => unknown> {
  const bybit = new ccxt.bybit(credentials);
  const okx = new ccxt.okx(credentials);
  const gate = new ccxt.gate(credentials);
  const price = (i: number) => String(30000 + (i % 100));
  return {
    bybit: (i) =>
      bybit.sign("v5/order/create", "private", "POST", {
        category: "spot",
        symbol: "BTCUSDT",
        side: "Buy",
        orderType: "Limit",
        qty: "0.01",
        price: price(i),
        timeInForce: "GTC",
        orderLinkId: clientOrderId,
      }),
    okx: (i) =>
      okx.sign("trade/order", "private", "POST", {
        instId: "BTC-USDT",
        tdMode: "cash",
        clOrdId: clientOrderId,
        side: "buy",
        ordType: "limit",
        px: price(i),
        sz: "0.01",
      }),
    gate: (i) =>
      gate.sign("orders", ["private", "spot"], "POST", {
        currency_pair: "BTC_USDT",
        type: "limit",
        account: "spot",
        side: "buy",
        amount: "0.01",
        price: price(i),
        time_in_force: "gtc",
        text: `t-${clientOrderId.slice(0, 20)}`,
      }),
  };
}

const NAMES = [
  "ccxt: order book, apply deltas",
  "ccxt: order book, apply + top(20) after every delta",
  "ccxt: sign a create order, bybit",
  "ccxt: sign a create order, okx",
  "ccxt: sign a create order, gate",
];

export async function run(): Promise<BenchOutcome[]> {
  const failed = installCcxt();
  if (failed) return NAMES.map((name) => ({ name, skipped: `CCXT not installed: ${failed}` }));
  const ccxt = (await import(pathToFileURL(ccxtEntry()).href)) as CcxtModule;
  const pro = new ccxt.pro.bybit({});
  const deltas = Number(process.env.BENCH_CCXT_DELTAS ?? 50_000);
  const stream = syntheticBookStream({ seed: 42, deltas });
  // warm-up, then the two books alternated round by round
  replayOurs(stream, 0);
  replayCcxt(pro, stream, 0);
  const rounds = 3;
  const apply = { ours: [] as number[], ccxt: [] as number[] };
  const withTop = { ours: [] as number[], ccxt: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    apply.ours.push(replayOurs(stream, 0));
    apply.ccxt.push(replayCcxt(pro, stream, 0));
    withTop.ours.push(replayOurs(stream, 1));
    withTop.ccxt.push(replayCcxt(pro, stream, 1));
  }
  const signs = Number(process.env.BENCH_CCXT_SIGNS ?? 20_000);
  const theirs = ccxtSigners(ccxt);
  const now = Date.now();
  const signing = (["bybit", "okx", "gate"] as const).map((id) => {
    const ours = SIGNERS[id]!;
    rate((i) => ours(now, i), 5_000);
    rate(theirs[id], 5_000);
    const oursRates: number[] = [];
    const ccxtRates: number[] = [];
    for (let r = 0; r < 5; r++) {
      oursRates.push(rate((i) => ours(now, i), signs));
      ccxtRates.push(rate(theirs[id], signs));
    }
    return { id, ours: median(oursRates), ccxt: median(ccxtRates) };
  });
  const detail = `CCXT ${ccxt.version}; ${deltas.toLocaleString("en")} seeded deltas (seed 42) as decimal strings, CCXT's levels parsed with parseFloat as its feeds do; median of ${rounds}`;
  return [
    {
      name: NAMES[0]!,
      unit: "deltas/s",
      better: "higher",
      value: median(apply.ours),
      baseline: { name: "CCXT OrderBook (floats)", value: median(apply.ccxt) },
      detail,
    },
    {
      name: NAMES[1]!,
      unit: "deltas/s",
      better: "higher",
      value: median(withTop.ours),
      baseline: { name: "CCXT OrderBook, 20 rows a side read by index", value: median(withTop.ccxt) },
      detail,
    },
    ...signing.map((s, i) => ({
      name: NAMES[2 + i]!,
      unit: "requests/s",
      better: "higher" as const,
      value: s.ours,
      baseline: { name: `CCXT ${s.id}.sign()`, value: s.ccxt },
      detail: `CCXT ${ccxt.version}; body + HMAC of one spot limit order, ${signs.toLocaleString("en")} a run, median of 5`,
    })),
  ];
}

// `tsx bench/ccxt.bench.ts` runs it alone
if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  void run().then((results) => console.log(JSON.stringify(results, null, 2)));
}
