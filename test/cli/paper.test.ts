/**
 * The whole command surface on paper, run as a script would run it (issue 2 "Checks"): the built
 * bin/spotdesk in a temporary home, every --json answer parsed. Each test trades on its own paper
 * account (--account) so tests do not see each other's orders.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Balances, Order } from "../../lib/types.js";
import { type Sandbox, sandbox } from "./helpers.js";

interface BookJson {
  exchange: string;
  pair: string;
  ts: number;
  bids: [string, string][];
  asks: [string, string][];
  state?: string;
}

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const DECIMAL = /^\d+(\.\d+)?$/;
/** A buy far below the synthetic market: it rests until cancelled. */
const RESTING_BUY = ["BTC/USDT", "0.001", "1000"];

describe("balances", () => {
  it("prints the Balances map with --json: decimal strings f and l (docs/exchange-rules.md#entities)", async () => {
    const { exchange, account, ...balances } = await cli.json<Balances & { exchange: string; account: string }>([
      "--account",
      "bal",
      "balances",
    ]);
    // docs/orders.md "Which account": the document names its exchange and account beside the tokens.
    expect({ exchange, account }).toEqual({ exchange: "paper", account: "bal" });
    expect(balances.USDT).toEqual({ f: "10000", l: "0" });
    for (const { f, l } of Object.values(balances)) {
      expect(f).toMatch(DECIMAL);
      expect(l).toMatch(DECIMAL);
    }
  });

  it("shows Token, Total, Free, Locked, with total = free + locked, and --nonzero", async () => {
    await cli.json(["--account", "bal", "buy", ...RESTING_BUY]);
    const table = await cli.run(["--account", "bal", "balances"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Token\s+Total\s+Free\s+Locked\n/);
    expect(table.stdout).toMatch(/USDT\s+10000\s+9999\s+1\n/);
    const all = await cli.json<Balances>(["--account", "bal", "balances"]);
    const nonZero = await cli.json<Balances>(["--account", "bal", "balances", "--nonzero"]);
    const zeros = Object.keys(all).filter((k) => all[k]!.f === "0" && all[k]!.l === "0");
    expect(Object.keys(nonZero).sort()).toEqual(
      Object.keys(all)
        .filter((k) => !zeros.includes(k))
        .sort(),
    );
  });
});

describe("buy, sell, orders, order", () => {
  it("lists a buy in `orders` and fetches it with `order`", async () => {
    const order = await cli.json<Order>(["--account", "a1", "buy", ...RESTING_BUY]);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      side: "Buy",
      amount: "0.001",
      price: "1000",
      filled: "0",
      status: "open",
      type: "limit",
    });
    expect(order.clientOrderId).toMatch(/^[0-9a-f]+$/);
    const open = await cli.json<Order[]>(["--account", "a1", "orders", "btc/usdt"]);
    expect(open.map((o) => o.id)).toEqual([order.id]);
    expect(await cli.json<Order>(["--account", "a1", "order", "BTC/USDT", order.id])).toEqual(order);
    const table = await cli.run(["--account", "a1", "orders", "BTC/USDT"]);
    expect(table.stdout).toMatch(/^ID\s+Side\s+Price\s+Amount\s+Filled\s+Status\s+Time\n/);
    expect(table.stdout).toMatch(
      new RegExp(`${order.id}\\s+Buy\\s+1000\\s+0.001\\s+0\\s+open\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC`),
    );
  });

  it("takes the amount from --quote TOTAL / PRICE, with a comma as the decimal mark (docs/dashboard-rules.md#validation)", async () => {
    const order = await cli.json<Order>(["--account", "a2", "buy", "BTC/USDT", "1000", "--quote", "2,5"]);
    expect(order).toMatchObject({ side: "Buy", price: "1000", amount: "0.0025" });
    const sell = await cli.json<Order>(["--account", "a2", "sell", "ETH/USDT", "0,5", "900000"]);
    expect(sell).toMatchObject({ side: "Sell", price: "900000", amount: "0.5", status: "open" });
  });

  it("fills a resting order only after the synthetic market crosses it (paper's clock: SPOTDESK_PAPER_NOW)", async () => {
    const t0 = 1_800_000_000_000;
    const at = (ms: number) => ({ env: { SPOTDESK_PAPER_NOW: String(ms) } });
    const book = await cli.json<BookJson>(["book", "BTC/USDT", "--depth", "1"], at(t0));
    const [bestBid] = book.bids[0]!;
    const [bestAsk] = book.asks[0]!;
    const buy = await cli.json<Order>(["--account", "fill", "buy", "BTC/USDT", "0.001", bestBid], at(t0));
    const sell = await cli.json<Order>(["--account", "fill", "sell", "BTC/USDT", "0.001", bestAsk], at(t0));
    expect([buy.status, sell.status]).toEqual(["open", "open"]);
    let filled: Order | undefined;
    let t = t0;
    for (let step = 1; step <= 60 && !filled; step++) {
      t = t0 + step * 10_000;
      const orders = await cli.json<Order[]>(["--account", "fill", "orders", "BTC/USDT"], at(t));
      if (orders.length < 2) {
        const gone = orders.some((o) => o.id === buy.id) ? sell : buy;
        filled = await cli.json<Order>(["--account", "fill", "order", "BTC/USDT", gone.id], at(t));
      }
    }
    expect(filled, "one of the two orders fills within 10 simulated minutes").toBeDefined();
    expect(filled).toMatchObject({ status: "closed", filled: "0.001" });
    // The market at that time is on the other side of the filled order's price.
    const later = await cli.json<BookJson>(["book", "BTC/USDT", "--depth", "1"], at(t));
    if (filled!.side === "Sell") expect(Number(later.bids[0]![0])).toBeGreaterThanOrEqual(Number(bestAsk));
    else expect(Number(later.asks[0]![0])).toBeLessThanOrEqual(Number(bestBid));
  }, 60_000);
});

describe("cancel, cancel-batch, cancel-all", () => {
  it("cancels one order and prints the ids cancelled", async () => {
    const order = await cli.json<Order>(["--account", "c1", "buy", ...RESTING_BUY]);
    expect(await cli.json<string[]>(["--account", "c1", "cancel", "BTC/USDT", order.id])).toEqual([order.id]);
    expect(await cli.json<Order[]>(["--account", "c1", "orders", "BTC/USDT"])).toEqual([]);
    expect((await cli.json<Order>(["--account", "c1", "order", "BTC/USDT", order.id])).status).toBe("canceled");
  });

  it("cancels a batch, and cancels all for a pair", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await cli.json<Order>(["--account", "c2", "buy", "BTC/USDT", "0.001", String(1000 + i)])).id);
    const other = await cli.json<Order>(["--account", "c2", "buy", "ETH/USDT", "0.01", "100"]);
    expect(
      (await cli.json<string[]>(["--account", "c2", "cancel-batch", "BTC/USDT", ids[0]!, ids[1]!])).sort(),
    ).toEqual([ids[0], ids[1]].sort());
    expect((await cli.json<string[]>(["--account", "c2", "cancel-all", "BTC/USDT"])).sort()).toEqual(
      [ids[2], ids[3]].sort(),
    );
    expect(await cli.json<Order[]>(["--account", "c2", "orders", "BTC/USDT"])).toEqual([]);
    expect((await cli.json<Order[]>(["--account", "c2", "orders", "ETH/USDT"])).map((o) => o.id)).toEqual([other.id]);
    const none = await cli.run(["--account", "c2", "cancel-all", "BTC/USDT"]);
    expect(none).toMatchObject({ code: 0, stdout: "Nothing cancelled\n" });
  });

  it("cancelling an unknown id is order-not-found, exit 6", async () => {
    const result = await cli.run(["--account", "c3", "cancel", "BTC/USDT", "999999"]);
    expect(result.code).toBe(6);
    // after the note that account c3 is new (docs/cli.md "Paper accounts")
    expect(result.stderr).toMatch(/^ExchangeId: paper, msg: /m);
  });
});

describe("batch", () => {
  it("creates orders from stdin ('-') and from a file, sides case-insensitive", async () => {
    const items = [
      { side: "buy", amount: "0.001", price: "1000" },
      { side: "SELL", amount: 0.01, price: "900000" },
    ];
    const fromStdin = await cli.json<Order[]>(["--account", "b1", "batch", "BTC/USDT", "-"], {
      stdin: JSON.stringify(items),
    });
    expect(fromStdin.map((o) => [o.side, o.amount, o.price])).toEqual([
      ["Buy", "0.001", "1000"],
      ["Sell", "0.01", "900000"],
    ]);
    const file = join(cli.home, "batch.json");
    writeFileSync(file, JSON.stringify([{ side: "Buy", amount: "0,002", price: "1001" }]));
    const fromFile = await cli.json<Order[]>(["--account", "b1", "batch", "BTC/USDT", file]);
    expect(fromFile).toHaveLength(1);
    expect(fromFile[0]).toMatchObject({ amount: "0.002", price: "1001" });
    expect(await cli.json<Order[]>(["--account", "b1", "orders", "BTC/USDT"])).toHaveLength(3);
  });

  it("refuses a batch over the exchange's maximum before anything is sent (docs/exchange-rules.md#validation)", async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({ side: "Buy", amount: "0.001", price: String(1000 + i) }));
    const result = await cli.run(["--account", "b2", "batch", "BTC/USDT"], { stdin: JSON.stringify(items) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("ExchangeId: paper, msg: Maximum for 'createBatch' is: 100");
    expect(await cli.json<Order[]>(["--account", "b2", "orders", "BTC/USDT"])).toEqual([]);
  });

  it("sends a long list in batches of the maximum with --split", async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ side: "Buy", amount: "0.0001", price: String(1000 + i) }));
    const orders = await cli.json<Order[]>(["--account", "b3", "batch", "BTC/USDT", "--split"], {
      stdin: JSON.stringify(items),
    });
    expect(orders).toHaveLength(150);
    expect(new Set(orders.map((o) => o.id)).size).toBe(150);
  });

  it("names the item and the field of a bad batch, and sends nothing", async () => {
    const cases: [unknown, RegExp][] = [
      [
        [
          { side: "buy", amount: "1", price: "1000" },
          { side: "hold", amount: "1", price: "1" },
        ],
        /Batch item 2: invalid side/,
      ],
      [[{ side: "buy", amount: "abc", price: "1000" }], /Batch item 1: Invalid amount 'abc'/],
      [[{ side: "buy", amount: "0", price: "1000" }], /Batch item 1: Incorrect amount \/ It is zero!/],
      [[{ side: "buy", amount: "1" }], /Batch item 1: invalid price/],
      [{ side: "buy" }, /must be a JSON array/],
      ["not json", /not valid JSON/],
      [[], /needs at least one item/],
    ];
    for (const [input, message] of cases) {
      const stdin = typeof input === "string" ? input : JSON.stringify(input);
      const result = await cli.run(["--account", "b4", "batch", "BTC/USDT", "-"], { stdin });
      expect(result.code, stdin).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const missing = await cli.run(["batch", "BTC/USDT", join(cli.home, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot read batch file");
    expect(await cli.json<Order[]>(["--account", "b4", "orders", "BTC/USDT"])).toEqual([]);
  });
});

describe("bad input (issue 2 'Bad input'): exit 2, a message naming the problem, nothing placed", () => {
  it.each([
    [["buy", "BTC/USDT", "abc", "1000"], /Invalid amount 'abc'/],
    [["buy", "BTC/USDT", "0.1", "12.3.4"], /Invalid price '12.3.4'/],
    [["buy", "BTC/USDT", "-1", "1000"], /Invalid amount '-1': it must be positive/],
    [["sell", "BTC/USDT", "0.1", "-5"], /Invalid price '-5': it must be positive/],
    [["buy", "BTC/USDT", "0", "1000"], /Incorrect amount \/ It is zero!/],
    [["buy", "BTC/USDT", "0.1", "0"], /Invalid price: it is zero/],
    [["buy", "BTC/USDT", "1000", "--quote", "0"], /Incorrect amount \/ It is zero!/],
    [["buy", "BTC/USDT", "1000", "--quote", "1e3"], /Invalid quote '1e3'/],
    [["buy", "BTC/USDT", "1000"], /Missing PRICE/],
    [["buy", "BTC/USDT", "1", "1000", "--quote", "5"], /With --quote give PAIR and PRICE only/],
    [["buy", "BTCUSDT", "1", "1000"], /Invalid pair 'BTCUSDT'/],
    [["buy", "DOGE/USDT", "1", "1"], /Unknown pair 'DOGE\/USDT'/],
    [["book", "BTC/USDT", "--depth", "zero"], /Invalid depth 'zero'/],
  ])("%j", async (args, message) => {
    const result = await cli.run(["--account", "bad", ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
  });

  it("placed nothing", async () => {
    expect(await cli.json<Order[]>(["--account", "bad", "orders", "BTC/USDT"])).toEqual([]);
  });

  it("insufficient funds is its own kind: exit 4", async () => {
    const result = await cli.run(["--account", "poor", "buy", "BTC/USDT", "1000", "1000"]);
    expect(result.code).toBe(4);
  });
});

describe("book", () => {
  it("prints {exchange, pair, ts, bids, asks}, best first, decimal strings", async () => {
    const book = await cli.json<BookJson>(["book", "ETH/USDT", "--depth", "5"]);
    expect(Object.keys(book)).toEqual(["exchange", "pair", "ts", "bids", "asks"]);
    expect(book).toMatchObject({ exchange: "paper", pair: "ETH/USDT" });
    expect(book.bids).toHaveLength(5);
    expect(book.asks).toHaveLength(5);
    const prices = (levels: [string, string][]) => levels.map(([p]) => Number(p));
    expect(prices(book.bids)).toEqual([...prices(book.bids)].sort((a, b) => b - a));
    expect(prices(book.asks)).toEqual([...prices(book.asks)].sort((a, b) => a - b));
    expect(prices(book.bids)[0]!).toBeLessThan(prices(book.asks)[0]!);
    for (const [p, a] of [...book.bids, ...book.asks]) {
      expect(p).toMatch(DECIMAL);
      expect(a).toMatch(DECIMAL);
    }
  });

  it("streams one JSON object per line per refresh with its state under --watch", async () => {
    const result = await cli.run(["book", "BTC/USDT", "--watch", "--json", "--depth", "2", "--updates", "2"], {
      timeoutMs: 10_000,
    });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as BookJson);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({ exchange: "paper", pair: "BTC/USDT", state: "live" });
      expect(line.bids).toHaveLength(2);
    }
    expect(result.stderr).toBe("");
  });

  it("prints a table for humans: Price, Amount, Total", async () => {
    const table = await cli.run(["book", "BTC/USDT", "--depth", "3"]);
    expect(table.stdout).toMatch(/Price\s+Amount\s+Total/);
  });
});

describe("two CLI processes at the same time", () => {
  it("lose no order placed concurrently on the same paper account", async () => {
    const runs = Array.from({ length: 6 }, (_, i) =>
      cli.json<Order>(["--account", "race", "buy", "BTC/USDT", "0.001", String(2000 + i)]),
    );
    const batches = [0, 1].map((k) =>
      cli.json<Order[]>(["--account", "race", "batch", "BTC/USDT"], {
        stdin: JSON.stringify(
          Array.from({ length: 5 }, (_, i) => ({ side: "Buy", amount: "0.001", price: String(3000 + k * 10 + i) })),
        ),
      }),
    );
    const placed = [...(await Promise.all(runs)), ...(await Promise.all(batches)).flat()];
    const ids = placed.map((o) => o.id);
    expect(new Set(ids).size).toBe(16);
    const open = await cli.json<Order[]>(["--account", "race", "orders", "BTC/USDT"]);
    expect(open.map((o) => o.id).sort()).toEqual([...ids].sort());
    const balances = await cli.json<Balances>(["--account", "race", "balances"]);
    const locked = placed.reduce((sum, o) => sum + Number(o.price) * Number(o.amount), 0);
    expect(Number(balances.USDT!.l)).toBeCloseTo(locked, 6);
  });
});

describe("tui (npm start)", () => {
  it("runs with no credentials and no network; without a terminal it says so and prints the live BTC/USDT book", async () => {
    const result = await cli.run(["tui"], { timeoutMs: 8_000 });
    expect(result.stderr).toContain("not a terminal");
    expect(result.stdout).toContain("BTC/USDT");
    expect(result.stdout).toMatch(/Price\s+Amount\s+Total/);
    expect(result.code === 0 || result.code === null).toBe(true);
  });
});
