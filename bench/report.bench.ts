import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBybitMock } from "../exchanges/bybit/mock.js";
import { BybitMock } from "../exchanges/bybit/ws-mock.js";
import { ladder, TruthBook } from "../exchanges/core/testing/ws-mock.js";
import { startOkxMock } from "../exchanges/okx/mock.js";
import { OkxMock } from "../exchanges/okx/ws-mock.js";
import { timed } from "./cli-exchange.bench.js";
import { type BenchOutcome, median } from "./index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "spotdesk");
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 7);
const BYBIT = { api: "bench-bybit-key", secret: "bench-bybit-secret" };
const OKX = { api: "bench-okx-key", secret: "bench-okx-secret", password: "bench-okx-pass" };
const STORE_KEY = "bench-report-store-key-012345678";
const ACCOUNTS = { bybit: 8, okx: 7 };

const book = (mid: number): TruthBook => {
  const truth = new TruthBook();
  truth.reset(ladder("bid", 20, mid, 0.5), ladder("ask", 20, mid + 0.5, 0.5));
  return truth;
};

export async function run(): Promise<BenchOutcome[]> {
  const name = `report: ${ACCOUNTS.bybit + ACCOUNTS.okx} accounts on 2 loopback exchange mocks (spotdesk report --json)`;
  if (!existsSync(BIN)) return [{ name, skipped: `${BIN} does not exist` }];
  const [bybitRest, okxRest, bybitWs, okxWs] = await Promise.all([
    startBybitMock(BYBIT),
    startOkxMock(OKX),
    BybitMock.start(),
    OkxMock.start(),
  ]);
  bybitRest.coins = [
    { coin: "USDT", walletBalance: "1000.5", locked: "10" },
    { coin: "BTC", walletBalance: "0.25", locked: "0" },
    { coin: "ETH", walletBalance: "3", locked: "1" },
  ];
  okxRest.details = [
    { ccy: "USDT", availBal: "500", frozenBal: "0", cashBal: "500", eq: "500" },
    { ccy: "BTC", availBal: "0.1", frozenBal: "0", cashBal: "0.1", eq: "0.1" },
  ];
  bybitWs.books.set("orderbook.50.BTCUSDT", book(60_000));
  bybitWs.books.set("orderbook.50.ETHUSDT", book(3_000));
  okxWs.books.set("BTC-USDT", book(60_010));
  const home = mkdtempSync(join(tmpdir(), "spotdesk-bench-report-"));
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith("SPOTDESK_") && !key.startsWith("XDG_") && key !== "NODE_OPTIONS",
    ),
  );
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOME: home,
    SPOTDESK_CONFIG_DIR: join(home, "config"),
    SPOTDESK_DATA_DIR: join(home, "data"),
    SPOTDESK_STORE_KEY: STORE_KEY,
    NO_COLOR: "1",
  };
  try {
    for (let i = 0; i < ACCOUNTS.bybit; i++) {
      const added = await timed([BIN, "accounts", "add", `bybit-${i}`, "--exchange", "bybit"], {
        ...env,
        SPOTDESK_API_KEY: BYBIT.api,
        SPOTDESK_API_SECRET: BYBIT.secret,
      });
      if (added.code !== 0) return [{ name, skipped: `accounts add: ${added.err.trim().slice(0, 160)}` }];
    }
    for (let i = 0; i < ACCOUNTS.okx; i++) {
      const added = await timed([BIN, "accounts", "add", `okx-${i}`, "--exchange", "okx"], {
        ...env,
        SPOTDESK_API_KEY: OKX.api,
        SPOTDESK_API_SECRET: OKX.secret,
        SPOTDESK_API_PASSWORD: OKX.password,
      });
      if (added.code !== 0) return [{ name, skipped: `accounts add: ${added.err.trim().slice(0, 160)}` }];
    }
    const report = [
      BIN,
      "report",
      "--json",
      "--no-history",
      "--base-url-of",
      `bybit=${bybitRest.url}`,
      "--ws-url-of",
      `bybit=${bybitWs.url}`,
      "--base-url-of",
      `okx=${okxRest.url}`,
      "--ws-url-of",
      `okx=${okxWs.url}`,
    ];
    const one = [BIN, "--exchange", "bybit", "--base-url", bybitRest.url, "balances", "--json"];
    const oneEnv = { ...env, SPOTDESK_API_KEY: BYBIT.api, SPOTDESK_API_SECRET: BYBIT.secret };
    const times: number[] = [];
    const base: number[] = [];
    for (let round = 0; round <= RUNS; round++) {
      const b = await timed(one, oneEnv);
      const r = await timed(report, env);
      if (r.code !== 0)
        return [{ name, skipped: `exit code ${r.code}: ${r.err.trim().split("\n")[0]?.slice(0, 160)}` }];
      const parsed = JSON.parse(r.out) as { status: string; accounts: { status: string; unpriced: string[] }[] };
      const complete =
        parsed.status === "complete" &&
        parsed.accounts.length === ACCOUNTS.bybit + ACCOUNTS.okx &&
        parsed.accounts.every((a) => a.status === "ok" && a.unpriced.length === 0);
      if (!complete) return [{ name, skipped: `incomplete report: ${r.out.slice(0, 160)}` }];
      if (round > 0) {
        times.push(r.ms);
        base.push(b.ms);
      }
    }
    return [
      {
        name,
        unit: "ms",
        better: "lower",
        value: median(times),
        baseline: { name: "one account's balances --json on the same mock", value: median(base) },
        target: 2000,
        detail: `median of ${times.length} runs (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)} ms); ${bybitRest.server.requests.length + okxRest.server.requests.length} signed requests verified by the mocks`,
      },
    ];
  } finally {
    await Promise.all([bybitRest.close(), okxRest.close(), bybitWs.close(), okxWs.close()]);
    rmSync(home, { recursive: true, force: true });
  }
}
