/**
 * `spotdesk report` (issue 22, docs/report.md) on the built CLI as a child process: paper with a
 * pinned clock and seed, then three exchange mocks on loopback (signed REST and websocket books)
 * with one account failing, then the history kept between runs.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitWs } from "../../exchanges/bybit/ws-mock.js";
import { TruthBook } from "../../exchanges/core/testing/ws-mock.js";
import { startGateMock } from "../../exchanges/gate/mock.js";
import { type OkxMock as OkxRest, startOkxMock } from "../../exchanges/okx/mock.js";
import { OkxMock as OkxWs } from "../../exchanges/okx/ws-mock.js";
import { Decimal } from "../../lib/decimal.js";
import { type Sandbox, sandbox } from "./helpers.js";

interface AssetLine {
  asset: string;
  free: string;
  locked: string;
  amount: string;
  price: string | null;
  value: string | null;
  pairs: string[];
  allocation: string | null;
  change: { amount: string; value: string | null } | null;
}
interface AccountLine {
  exchange: string;
  account: string;
  status: "ok" | "failed";
  total: string | null;
  allocation: string | null;
  unpriced: string[];
  assets: AssetLine[];
  error: { kind: string; message: string } | null;
  change: string | null;
}
interface Report {
  at: string;
  quote: string;
  status: "complete" | "partial";
  total: string;
  since: string | null;
  change: string | null;
  exchanges: { exchange: string; total: string | null; allocation: string | null; accounts: number; failed: number }[];
  accounts: AccountLine[];
  assets: {
    asset: string;
    amount: string;
    value: string | null;
    change: { amount: string; value: string | null } | null;
  }[];
}
type BalancesJson = Record<string, { f: string; l: string } | string>;

const PARTIAL = 10;
const PINNED = { SPOTDESK_PAPER_NOW: "2026-01-02T03:04:05Z", SPOTDESK_PAPER_SEED: "report-test" };

const sum = (values: string[]): string => values.reduce((a, v) => a.plus(v), new Decimal(0)).toFixed();
const account = (report: Report, exchange: string, name: string): AccountLine => {
  const found = report.accounts.find((a) => a.exchange === exchange && a.account === name);
  if (!found) throw new Error(`no ${exchange}/${name} in ${JSON.stringify(report.accounts.map((a) => a.account))}`);
  return found;
};
const line = (a: AccountLine, asset: string): AssetLine => {
  const found = a.assets.find((l) => l.asset === asset);
  if (!found) throw new Error(`no ${asset} in ${a.exchange}/${a.account}`);
  return found;
};

/** Minimal RFC 4180 reader: quoted fields with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) throw new Error(`unterminated CSV row: ${JSON.stringify(row)} ${field}`);
  return rows;
}

describe("report on paper: two accounts, pinned clock and seed", () => {
  let cli: Sandbox;
  const mids = new Map<string, string>();
  beforeAll(async () => {
    cli = sandbox();
    // The mids, from the same books `spotdesk book` shows at that instant.
    let ethBtcBid = "";
    for (const pair of ["BTC/USDT", "ETH/USDT", "SOL/USDT", "ETH/BTC"]) {
      const book = await cli.json<{ bids: [string, string][]; asks: [string, string][] }>(
        ["book", pair, "--depth", "1"],
        { env: PINNED },
      );
      mids.set(pair, new Decimal(book.bids[0]![0]).plus(book.asks[0]![0]).dividedBy(2).toFixed());
      if (pair === "ETH/BTC") ethBtcBid = book.bids[0]![0];
    }
    // bob trades first (4 ETH sold for BTC, and an order resting), so the two accounts differ.
    await cli.json(["--account", "bob", "sell", "ETH/BTC", "4", new Decimal(ethBtcBid).times("0.99").toFixed(6)], {
      env: PINNED,
    });
    await cli.json(["--account", "bob", "buy", "SOL/USDT", "10", "100"], { env: PINNED });
    await cli.json(["--account", "alice", "balances"], { env: PINNED });
  });
  afterAll(() => cli.cleanup());

  it("values each balance at the mid of its pair; totals are the sums; allocations in percent (issue 22)", async () => {
    // Keys in the environment are not used by report and say nothing: a cron job mails stderr.
    const result = await cli.run(["report", "--exchange", "paper", "--json", "--no-history"], {
      env: { ...PINNED, SPOTDESK_API_KEY: "unused-key", SPOTDESK_API_SECRET: "unused-secret" },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as Report;
    expect(report).toMatchObject({
      at: "2026-01-02T03:04:05.000Z",
      quote: "USDT",
      status: "complete",
      since: null,
      change: null,
    });
    expect(report.accounts.map((a) => a.account)).toEqual(["alice", "bob"]);
    for (const name of ["alice", "bob"]) {
      const balances = await cli.json<BalancesJson>(["--account", name, "balances"], { env: PINNED });
      const a = account(report, "paper", name);
      const expected: string[] = [];
      for (const [asset, b] of Object.entries(balances)) {
        if (typeof b === "string") continue;
        const amount = new Decimal(b.f).plus(b.l);
        if (amount.isZero()) continue;
        const mid = asset === "USDT" ? "1" : mids.get(`${asset}/USDT`)!;
        const value = amount.times(mid).toFixed();
        expect(line(a, asset)).toMatchObject({
          amount: amount.toFixed(),
          price: mid,
          value,
          pairs: asset === "USDT" ? [] : [`${asset}/USDT`],
        });
        expected.push(value);
      }
      expect(a.assets).toHaveLength(expected.length);
      expect(a.total).toBe(sum(expected));
    }
    expect(report.total).toBe(sum(report.accounts.map((a) => a.total!)));
    expect(report.exchanges).toEqual([
      { exchange: "paper", total: report.total, allocation: "100", accounts: 2, failed: 0 },
    ]);
    const alice = account(report, "paper", "alice");
    expect(alice.allocation).toBe(
      new Decimal(alice.total!).times(100).dividedBy(report.total).decimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(),
    );
    expect(sum(report.assets.map((x) => x.value!))).toBe(report.total);
  });

  it("--quote BTC: ETH on ETH/BTC, USDT through the inverse of BTC/USDT, SOL through USDT (SOL/USDT x 1/BTC/USDT)", async () => {
    const report = await cli.json<Report>(
      ["report", "--exchange", "paper", "--account", "alice", "--quote", "BTC", "--no-history"],
      { env: PINNED },
    );
    const alice = account(report, "paper", "alice");
    const perUsdt = new Decimal(1).dividedBy(mids.get("BTC/USDT")!).precision(20, Decimal.ROUND_HALF_EVEN);
    expect(line(alice, "BTC")).toMatchObject({ price: "1", value: "1", pairs: [] });
    expect(line(alice, "ETH")).toMatchObject({
      price: mids.get("ETH/BTC"),
      pairs: ["ETH/BTC"],
      value: new Decimal(10).times(mids.get("ETH/BTC")!).toFixed(),
    });
    expect(line(alice, "USDT")).toMatchObject({ price: perUsdt.toFixed(), pairs: ["BTC/USDT"] });
    const solPrice = new Decimal(mids.get("SOL/USDT")!).times(perUsdt).toFixed();
    expect(line(alice, "SOL")).toMatchObject({
      price: solPrice,
      pairs: ["SOL/USDT", "BTC/USDT"],
      value: new Decimal(100).times(solPrice).toFixed(),
    });
    expect(alice.total).toBe(sum(alice.assets.map((l) => l.value!)));
  });

  it("--quote EUR, where nothing can be priced, is an error: exit 2 naming the quote and what can be used, not a total of 0 (docs/report.md)", async () => {
    const result = await cli.run(
      ["report", "--exchange", "paper", "--account", "alice", "--quote", "EUR", "--no-history", "--json"],
      { env: PINNED },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "No price in EUR: no book reaches EUR from BTC, ETH, SOL, USDT; use --quote USDT or BTC or ETH",
    );
  });

  it("refuses bad input with exit 2 and names it", async () => {
    for (const [args, text] of [
      [["report", "--format", "xml"], "Invalid --format 'xml'"],
      [["report", "--quote", "US-D"], "Invalid --quote 'US-D'"],
      [["report", "--history", "--since", "soon"], "Invalid --since 'soon'"],
      // a unit looked up through Object.prototype once read as NaN seconds and crashed on the date
      [["report", "--history", "--since", "1 constructor"], "Invalid --since '1 constructor'"],
      [["report", "--exchange", "paper,nope"], "Unknown exchange 'nope'"],
      [["report", "--base-url-of", "bybit"], "Invalid --base-url-of 'bybit'"],
    ] as const) {
      const result = await cli.run([...args], { env: PINNED });
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(text);
      expect(result.stdout).toBe("");
    }
  });
});

describe("report on three exchange mocks, one failing", () => {
  const CREDS = {
    bybit: { api: "bybit-report-key", secret: "bybit-report-secret" },
    okx: { api: "okx-report-key", secret: "okx-report-secret", password: "okx-pass-1" },
  };
  const STORE_KEY = "report-store-key-0123456789abcde";
  let cli: Sandbox;
  let bybitRest: BybitRest;
  let okxRest: OkxRest;
  let gateRest: Awaited<ReturnType<typeof startGateMock>>;
  let bybitWs: BybitWs;
  let okxWs: OkxWs;
  const book = (bid: string, ask: string): TruthBook => {
    const truth = new TruthBook();
    truth.reset(
      [
        [bid, "1"],
        [new Decimal(bid).minus("0.01").toFixed(), "2"],
      ],
      [
        [ask, "1.5"],
        [new Decimal(ask).plus("0.01").toFixed(), "3"],
      ],
    );
    return truth;
  };
  let args: string[];

  beforeAll(async () => {
    cli = sandbox();
    [bybitRest, okxRest, gateRest, bybitWs, okxWs] = await Promise.all([
      startBybitMock(CREDS.bybit),
      startOkxMock(CREDS.okx),
      startGateMock(),
      BybitWs.start(),
      OkxWs.start(),
    ]);
    bybitRest.coins = [
      { coin: "USDT", walletBalance: "1000.5", locked: "300" },
      { coin: "BTC", walletBalance: "0.12345678901234567891", locked: "0" },
      { coin: "ETH", walletBalance: "2.5", locked: "0.5" },
      { coin: "DOGE", walletBalance: "0", locked: "0" },
    ];
    // bybit has no ETH/USDT book here: ETH is valued on ETH/BTC, then through BTC/USDT.
    bybitWs.books.set("orderbook.50.BTCUSDT", book("60000", "60010"));
    bybitWs.books.set("orderbook.50.ETHBTC", book("0.05", "0.0502"));
    okxRest.details = [
      { ccy: "USDT", availBal: "1200.25", frozenBal: "300", cashBal: "1500.25", eq: "1500.25" },
      { ccy: "BTC", availBal: "0.5", frozenBal: "0", cashBal: "0.5", eq: "0.5" },
    ];
    okxWs.books.set("BTC-USDT", book("60100", "60120"));
    const add = (exchange: string, name: string, env: Record<string, string>) =>
      cli.run(["accounts", "add", name, "--exchange", exchange], { env: { SPOTDESK_STORE_KEY: STORE_KEY, ...env } });
    for (const result of [
      await add("bybit", "main", { SPOTDESK_API_KEY: CREDS.bybit.api, SPOTDESK_API_SECRET: CREDS.bybit.secret }),
      await add("okx", "desk", {
        SPOTDESK_API_KEY: CREDS.okx.api,
        SPOTDESK_API_SECRET: CREDS.okx.secret,
        SPOTDESK_API_PASSWORD: CREDS.okx.password,
      }),
      // A gate key the exchange does not accept: this account fails with 'auth'.
      await add("gate", "old", { SPOTDESK_API_KEY: "revoked-gate-key", SPOTDESK_API_SECRET: "revoked-gate-secret" }),
    ])
      expect(result.code, result.stderr).toBe(0);
    args = [
      "--base-url-of",
      `bybit=${bybitRest.url}`,
      "--ws-url-of",
      `bybit=${bybitWs.url}`,
      "--base-url-of",
      `okx=${okxRest.url}`,
      "--ws-url-of",
      `okx=${okxWs.url}`,
      "--base-url-of",
      `gate=${gateRest.url}`,
      "--price-timeout",
      "1",
    ];
  });
  afterAll(async () => {
    await Promise.all([bybitRest?.close(), okxRest?.close(), gateRest?.close(), bybitWs?.close(), okxWs?.close()]);
    cli?.cleanup();
  });

  const balancesOf = async (exchange: "bybit" | "okx", baseUrl: string, creds: Record<string, string>) =>
    cli.json<BalancesJson>(["--exchange", exchange, "--base-url", baseUrl, "balances"], {
      env: {
        SPOTDESK_API_KEY: creds.api!,
        SPOTDESK_API_SECRET: creds.secret!,
        ...(creds.password ? { SPOTDESK_API_PASSWORD: creds.password } : {}),
      },
    });

  it("exits 10 (partial): the failed account is a row with its kind and message, the others are complete", async () => {
    const result = await cli.run(["report", "--json", "--no-history", ...args], {
      env: { SPOTDESK_STORE_KEY: STORE_KEY },
    });
    expect(result.code, result.stderr).toBe(PARTIAL);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.status).toBe("partial");
    expect(report.accounts.map((a) => `${a.exchange}/${a.account}:${a.status}`)).toEqual([
      "bybit/main:ok",
      "gate/old:failed",
      "okx/desk:ok",
    ]);

    const gate = account(report, "gate", "old");
    expect(gate.error?.kind).toBe("auth");
    expect(gate.error?.message).toMatch(/^ExchangeId: gate, msg: /);
    expect(gate.total).toBeNull();
    expect(result.stderr).toContain("gate old: auth: ExchangeId: gate");
    expect(result.stderr).not.toContain("revoked-gate-secret");

    // bybit: every balance the adapter reads (the same `balances` a person would run) at its book's mid.
    const bybitBalances = await balancesOf("bybit", bybitRest.url, CREDS.bybit);
    const btcUsdt = "60005";
    const ethBtc = "0.0501";
    const bybit = account(report, "bybit", "main");
    const amountOf = (b: BalancesJson, asset: string) => {
      const x = b[asset] as { f: string; l: string };
      return new Decimal(x.f).plus(x.l).toFixed();
    };
    expect(line(bybit, "BTC")).toMatchObject({
      amount: amountOf(bybitBalances, "BTC"),
      price: btcUsdt,
      pairs: ["BTC/USDT"],
    });
    expect(line(bybit, "BTC").value).toBe(new Decimal(amountOf(bybitBalances, "BTC")).times(btcUsdt).toFixed());
    const ethPrice = new Decimal(ethBtc).times(btcUsdt).toFixed();
    expect(line(bybit, "ETH")).toMatchObject({
      amount: amountOf(bybitBalances, "ETH"),
      price: ethPrice,
      pairs: ["ETH/BTC", "BTC/USDT"],
    });
    expect(line(bybit, "USDT")).toMatchObject({
      amount: amountOf(bybitBalances, "USDT"),
      price: "1",
      value: amountOf(bybitBalances, "USDT"),
    });
    expect(bybit.assets.map((l) => l.asset)).not.toContain("DOGE");
    expect(bybit.total).toBe(sum(bybit.assets.map((l) => l.value!)));

    const okxBalances = await balancesOf("okx", okxRest.url, CREDS.okx);
    const okx = account(report, "okx", "desk");
    expect(line(okx, "BTC")).toMatchObject({
      price: "60110",
      value: new Decimal(amountOf(okxBalances, "BTC")).times("60110").toFixed(),
    });
    expect(okx.total).toBe(sum(okx.assets.map((l) => l.value!)));

    // The failed account adds nothing: the total is the two others'.
    expect(report.total).toBe(sum([bybit.total!, okx.total!]));
    expect(report.exchanges.find((e) => e.exchange === "gate")).toEqual({
      exchange: "gate",
      total: null,
      allocation: null,
      accounts: 1,
      failed: 1,
    });
    expect(bybitWs.subscriptions).toContain("orderbook.50.ETHBTC");
  });

  it("an exchange whose every account failed shows 'no data' (null), never a total of 0 (docs/report.md)", async () => {
    const result = await cli.run(["report", "--json", "--no-history", ...args], {
      env: { SPOTDESK_STORE_KEY: STORE_KEY },
    });
    expect(result.code, result.stderr).toBe(PARTIAL);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.exchanges.find((e) => e.exchange === "gate")).toEqual({
      exchange: "gate",
      total: null,
      allocation: null,
      accounts: 1,
      failed: 1,
    });
    expect(report.exchanges.find((e) => e.exchange === "bybit")?.total).not.toBeNull();
    const table = await cli.run(["report", "--no-history", ...args], { env: { SPOTDESK_STORE_KEY: STORE_KEY } });
    const gateRow = table.stdout.split("\n").find((l) => /^gate\s+1\s+1\s/.test(l));
    expect(gateRow).toContain("no data");
    expect(gateRow).not.toMatch(/\b0\.00\b/);
  });

  it("a store key that does not open the store fails the stored accounts as rows, exit 10", async () => {
    const result = await cli.run(["report", "--json", "--no-history", ...args], {
      env: { SPOTDESK_STORE_KEY: "not-the-store-key-0123456789abcd" },
    });
    expect(result.code, result.stderr).toBe(PARTIAL);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.accounts.map((a) => [a.account, a.status, a.error?.kind])).toEqual([
      ["main", "failed", "auth"],
      ["old", "failed", "auth"],
      ["desk", "failed", "auth"],
    ]);
    expect(report.accounts[0]!.error!.message).toContain("Wrong store key");
  });

  it("--exchange narrows to a list; all ok is exit 0; CSV has the documented columns", async () => {
    const result = await cli.run(["report", "--exchange", "bybit,okx", "--format", "csv", "--no-history", ...args], {
      env: { SPOTDESK_STORE_KEY: STORE_KEY },
    });
    expect(result.code, result.stderr).toBe(0);
    const rows = parseCsv(result.stdout);
    expect(rows[0]).toEqual([
      "type",
      "at",
      "quote",
      "exchange",
      "account",
      "asset",
      "free",
      "locked",
      "amount",
      "price",
      "value",
      "allocation",
      "amount_change",
      "value_change",
      "error_kind",
      "error_message",
    ]);
    expect(rows.every((r) => r.length === 16)).toBe(true);
    expect(new Set(rows.slice(1).map((r) => r[3]))).toEqual(new Set(["bybit", "okx", ""]));
    const total = rows.find((r) => r[0] === "total")!;
    const accounts = rows.filter((r) => r[0] === "account");
    expect(total[10]).toBe(sum(accounts.map((r) => r[10]!)));
  });
});

describe("report history", () => {
  let cli: Sandbox;
  beforeAll(() => {
    cli = sandbox();
  });
  afterAll(() => cli.cleanup());

  it("two runs with a trade between show the change per asset and in total; --history --format csv parses", async () => {
    const env = PINNED;
    const first = await cli.json<Report>(["report", "--exchange", "paper", "--account", "alice"], { env });
    expect(first.since).toBeNull();
    // Balances are private: the history file is the user's alone (docs/report.md "History").
    expect(statSync(join(cli.env.SPOTDESK_DATA_DIR!, "report-history.sqlite")).mode & 0o777).toBe(0o600);
    const before = await cli.json<BalancesJson>(["--account", "alice", "balances"], { env });
    const ask = (await cli.json<{ asks: [string, string][] }>(["book", "BTC/USDT", "--depth", "1"], { env }))
      .asks[0]![0];
    await cli.json(["--account", "alice", "buy", "BTC/USDT", "0.05", new Decimal(ask).times("1.01").toFixed(2)], {
      env,
    });
    const after = await cli.json<BalancesJson>(["--account", "alice", "balances"], { env });
    const moved = (asset: string) => {
      const b = before[asset] as { f: string; l: string };
      const a = after[asset] as { f: string; l: string };
      return new Decimal(a.f).plus(a.l).minus(b.f).minus(b.l).toFixed();
    };
    // a taker Buy on paper pays its 0.1% fee in the BTC it receives (docs/paper-store.md)
    const received = "0.04995";
    expect(moved("BTC")).toBe(received);

    const second = await cli.json<Report>(["report", "--exchange", "paper", "--account", "alice"], { env });
    expect(second.since).toBe(first.at);
    const alice = account(second, "paper", "alice");
    expect(line(alice, "BTC").change).toEqual({
      amount: received,
      value: new Decimal(received).times(line(alice, "BTC").price!).toFixed(),
    });
    expect(line(alice, "USDT").change?.amount).toBe(moved("USDT"));
    expect(line(alice, "ETH").change).toEqual({ amount: "0", value: "0" });
    expect(alice.change).toBe(new Decimal(alice.total!).minus(account(first, "paper", "alice").total!).toFixed());
    expect(second.change).toBe(alice.change);
    expect(second.assets.find((a) => a.asset === "BTC")?.change?.amount).toBe(received);

    const csv = await cli.run(["report", "--history", "--format", "csv"], { env });
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parseCsv(csv.stdout);
    expect(rows).toEqual([
      ["at", "quote", "total", "change", "added", "removed", "accounts", "failed"],
      [first.at, "USDT", first.total, "", "", "", "1", "0"],
      [second.at, "USDT", second.total, second.change!, "0", "0", "1", "0"],
    ]);

    const json = await cli.json<{ at: string; total: string }[]>(["report", "--history", "--since", "7d"], { env });
    expect(json.map((r) => r.total)).toEqual([first.total, second.total]);
    const later = { ...env, SPOTDESK_PAPER_NOW: "2026-01-20T00:00:00Z" };
    expect(await cli.json(["report", "--history", "--since", "7d"], { env: later })).toEqual([]);

    // --no-history keeps nothing.
    await cli.json(["report", "--exchange", "paper", "--account", "alice", "--no-history"], { env });
    expect(await cli.json<unknown[]>(["report", "--history"], { env })).toHaveLength(2);
  });

  it("a history file that is not a database does not hide the report: printed in full, 'History not kept' on stderr, exit 10", async () => {
    const other = sandbox();
    try {
      mkdirSync(other.env.SPOTDESK_DATA_DIR!, { recursive: true });
      writeFileSync(join(other.env.SPOTDESK_DATA_DIR!, "report-history.sqlite"), "this is not SQLite, it is a note");
      const result = await other.run(["report", "--exchange", "paper", "--account", "carol", "--json"], {
        env: PINNED,
      });
      expect(result.code).toBe(PARTIAL);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.status).toBe("complete");
      expect(account(report, "paper", "carol").total).not.toBeNull();
      expect(result.stderr).toContain("History not kept:");
      const history = await other.run(["report", "--history"], { env: PINNED });
      expect(history.code).toBe(2);
      expect(history.stderr).toContain("report-history.sqlite");
    } finally {
      other.cleanup();
    }
  });
});
