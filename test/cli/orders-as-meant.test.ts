/**
 * Issue 20 on paper through the built CLI: orders go out only as meant (docs/orders.md). The
 * market is pinned with SPOTDESK_PAPER_NOW so the best prices read first are the ones the guard
 * measures against.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "../../lib/decimal.js";
import type { Balances, Order } from "../../lib/types.js";
import { type Sandbox, sandbox } from "./helpers.js";

type LabelledOrder = Order & { exchange: string; account: string };
type LabelledBalances = Balances & { exchange: string; account: string };

const T0 = 1_800_000_000_000;
const at = { env: { SPOTDESK_PAPER_NOW: String(T0) } };

let cli: Sandbox;
let bestBid: string;
let bestAsk: string;
beforeAll(async () => {
  cli = sandbox();
  const book = await cli.json<{ bids: [string, string][]; asks: [string, string][] }>(
    ["book", "BTC/USDT", "--depth", "1"],
    at,
  );
  bestBid = book.bids[0]![0];
  bestAsk = book.asks[0]![0];
});
afterAll(() => cli.cleanup());

/** Half the best bid and one and a half times the best ask, at BTC/USDT's 2 price decimals. */
const halfUnderBid = () => new Decimal(bestBid).times("0.5").decimalPlaces(2, Decimal.ROUND_DOWN).toFixed();
const halfOverAsk = () => new Decimal(bestAsk).times("1.5").decimalPlaces(2, Decimal.ROUND_UP).toFixed();

async function state(account: string) {
  const balances = await cli.json<LabelledBalances>(["--account", account, "balances"], at);
  const orders = await cli.json<LabelledOrder[]>(["--account", account, "orders", "BTC/USDT"], at);
  return { balances, orders };
}

describe("unambiguous numbers (docs/orders.md 'Numbers on the command line')", () => {
  it("refuses `spotdesk sell BTC/USDT 0.01 70,000 --json`, showing both readings; nothing placed", async () => {
    const before = await state("num");
    const result = await cli.run(["--account", "num", "sell", "BTC/USDT", "0.01", "70,000", "--json"], at);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Ambiguous price '70,000'");
    expect(result.stderr).toContain("70.000");
    expect(result.stderr).toContain("70000");
    expect(await state("num")).toEqual(before);
  });

  it("still takes 0,5 and 12,25 with a comma decimal mark", async () => {
    const order = await cli.json<Order>(["--account", "num2", "buy", "SOL/USDT", "0,5", "12,25"], at);
    expect(order).toMatchObject({ amount: "0.5", price: "12.25" });
  });

  it("refuses leading or trailing spaces and digits beyond the pair's decimals (docs/decisions.md#d1)", async () => {
    const spaced = await cli.run(["--account", "num", "buy", "BTC/USDT", " 0.001", "1000"], at);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain("Invalid amount ' 0.001': remove the leading or trailing spaces");
    const price = await cli.run(["--account", "num", "buy", "BTC/USDT", "0.001", "1000.123"], at);
    expect(price.code).toBe(2);
    expect(price.stderr).toContain("Invalid price '1000.123': BTC/USDT prices allow at most 2 decimals");
    const amount = await cli.run(["--account", "num", "buy", "BTC/USDT", "0.0000001", "1000"], at);
    expect(amount.code).toBe(2);
    expect(amount.stderr).toContain("BTC/USDT amounts allow at most 6 decimals");
    const batch = await cli.run(["--account", "num", "batch", "BTC/USDT"], {
      ...at,
      stdin: JSON.stringify([{ side: "Buy", amount: "0.001", price: "1,000" }]),
    });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain("Batch item 1: Ambiguous price '1,000'");
    expect((await state("num")).orders).toEqual([]);
  });

  it("rounds a --quote amount down to the pair's decimals with a note on stderr", async () => {
    const result = await cli.run(["--account", "num3", "buy", "BTC/USDT", "3000", "--quote", "10", "--json"], at);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ amount: "0.003333", price: "3000" });
    expect(result.stderr).toContain("rounded down to 0.003333 (BTC/USDT amounts allow 6 decimals)");
  });
});

describe("far-price guard (docs/orders.md 'Far-price guard')", () => {
  it("refuses a sell 50% under the best bid: nothing placed, balances unchanged", async () => {
    const before = await state("far1");
    const price = halfUnderBid();
    const result = await cli.run(["--account", "far1", "sell", "BTC/USDT", "0.01", price, "--json"], at);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`Sell price ${price} USDT is 50% below the best bid ${bestBid} USDT`);
    expect(result.stderr).toContain("far-price limit 5%");
    expect(result.stderr).toContain("--allow-far-price");
    const error = JSON.parse(result.stderr.trim().split("\n").at(-1)!) as { error: { guard: { reason: string } } };
    expect(error.error.guard.reason).toBe("far");
    expect(await state("far1")).toEqual(before);
  });

  it("refuses a buy 50% over the best ask: nothing placed, balances unchanged", async () => {
    const before = await state("far2");
    const price = halfOverAsk();
    const result = await cli.run(["--account", "far2", "buy", "BTC/USDT", "0.01", price, "--json"], at);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Buy price ${price} USDT is 50% above the best ask ${bestAsk} USDT`);
    expect(await state("far2")).toEqual(before);
  });

  it("places both with --allow-far-price", async () => {
    const sell = await cli.json<LabelledOrder>(
      ["--account", "far3", "sell", "BTC/USDT", "0.01", halfUnderBid(), "--allow-far-price"],
      at,
    );
    expect(sell).toMatchObject({ side: "Sell", amount: "0.01", exchange: "paper", account: "far3" });
    const buy = await cli.json<LabelledOrder>(
      ["--account", "far3", "buy", "BTC/USDT", "0.01", halfOverAsk(), "--allow-far-price"],
      at,
    );
    expect(buy).toMatchObject({ side: "Buy", amount: "0.01" });
  });

  it("refuses a batch with one far item, naming it, and places none of the items", async () => {
    const before = await state("far4");
    const items = [
      { side: "Buy", amount: "0.001", price: "1000" },
      { side: "Sell", amount: "0.01", price: halfUnderBid() },
    ];
    const result = await cli.run(["--account", "far4", "batch", "BTC/USDT"], { ...at, stdin: JSON.stringify(items) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Batch item 2: Refused, nothing sent: Sell price");
    expect(await state("far4")).toEqual(before);
    const placed = await cli.json<Order[]>(["--account", "far4", "batch", "BTC/USDT", "--allow-far-price"], {
      ...at,
      stdin: JSON.stringify(items),
    });
    expect(placed).toHaveLength(2);
  });

  it("takes the limit from --far-price-percent, else from the account's setting", async () => {
    const flag = await cli.run(
      ["--account", "far5", "sell", "BTC/USDT", "0.01", halfUnderBid(), "--far-price-percent", "60", "--json"],
      at,
    );
    expect(flag.code, flag.stderr).toBe(0);
    const set = await cli.json<{ farPricePercent: string }>(["accounts", "set", "far6", "--far-price-percent", "60"]);
    expect(set).toEqual({ exchange: "paper", name: "far6", farPricePercent: "60" });
    const stored = await cli.run(["--account", "far6", "sell", "BTC/USDT", "0.01", halfUnderBid(), "--json"], at);
    expect(stored.code, stored.stderr).toBe(0);
    // the flag still wins over the account's setting
    const tighter = await cli.run(
      ["--account", "far6", "sell", "BTC/USDT", "0.01", halfUnderBid(), "--far-price-percent", "1"],
      at,
    );
    expect(tighter.code).toBe(2);
    expect(tighter.stderr).toContain("far-price limit 1%");
    const bad = await cli.run(["accounts", "set", "far6", "--far-price-percent", "-3"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid --far-price-percent '-3'");
  });
});

describe('paper fees (docs/paper-store.md "Fees")', () => {
  it("accounts set --maker-fee/--taker-fee sets a paper account's fees, and a taking sell pays the taker fee in the quote", async () => {
    const set = await cli.json(["accounts", "set", "fees1", "--maker-fee", "0.02", "--taker-fee", "0.2"], at);
    expect(set).toEqual({ exchange: "paper", name: "fees1", makerFee: "0.02", takerFee: "0.2" });
    const sold = await cli.json<Order>(["--account", "fees1", "sell", "BTC/USDT", "0.01", bestBid, "--json"], at);
    expect(sold.status).toBe("closed");
    expect(sold.fee).toEqual({ amount: new Decimal(sold.cost!).times("0.002").toFixed(), currency: "USDT" });
    const bad = await cli.run(["accounts", "set", "fees1", "--taker-fee", "12"], at);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid taker fee '12': expected a percent from 0 to 10");
    const none = await cli.run(["accounts", "set", "fees1"], at);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Nothing to set: give --far-price-percent N, or on paper --maker-fee N");
  });
});

describe("client order ids and repeated cancels (docs/orders.md)", () => {
  it("the same --client-order-id twice places one order and prints it again, exit 0", async () => {
    const args = ["--account", "cid", "buy", "BTC/USDT", "0.001", "1000", "--client-order-id", "retry-7", "--json"];
    const first = await cli.run(args, at);
    expect(first.code, first.stderr).toBe(0);
    const again = await cli.run(args, at);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect(again.stderr).toContain("client order id 'retry-7' already exists (open): nothing sent");
    const orders = (await state("cid")).orders;
    expect(orders.map((o) => o.clientOrderId)).toEqual(["retry-7"]);
    expect(orders[0]).toMatchObject({ exchange: "paper", account: "cid" });
    // a retry that asks for another price places nothing and is refused, naming both orders' terms
    const changed = await cli.run(
      ["--account", "cid", "buy", "BTC/USDT", "0.001", "1001", "--client-order-id", "retry-7", "--json"],
      at,
    );
    expect(changed.code, changed.stderr).toBe(2);
    expect(changed.stderr).toContain(
      "Client order id 'retry-7' is already used by order 1: Buy 0.001 BTC/USDT at 1000 (open); this order asks Buy 0.001 BTC/USDT at 1001: nothing sent",
    );
    expect((await state("cid")).orders).toHaveLength(1);
  });

  it("a repeated cancel of a canceled order exits 0 and says so", async () => {
    const order = await cli.json<Order>(["--account", "rc", "buy", "BTC/USDT", "0.001", "1000"], at);
    expect(await cli.json<string[]>(["--account", "rc", "cancel", "BTC/USDT", order.id], at)).toEqual([order.id]);
    const again = await cli.run(["--account", "rc", "cancel", "BTC/USDT", order.id, "--json"], at);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
    expect(again.stderr).toContain(`Order ${order.id} is already canceled: nothing to cancel`);
    const unknown = await cli.run(["--account", "rc", "cancel", "BTC/USDT", "999999"], at);
    expect(unknown.code).toBe(6);
  });

  it("cancel-batch names each id it did not cancel and fails when one may be left", async () => {
    const a = await cli.json<Order>(["--account", "cb", "buy", "BTC/USDT", "0.001", "1000"], at);
    const b = await cli.json<Order>(["--account", "cb", "buy", "BTC/USDT", "0.001", "1001"], at);
    await cli.json(["--account", "cb", "cancel", "BTC/USDT", b.id], at);
    const done = await cli.run(["--account", "cb", "cancel-batch", "BTC/USDT", a.id, b.id, "--json"], at);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual([a.id]);
    expect(done.stderr).toContain(`Not cancelled: ${b.id} (already canceled)`);

    const c = await cli.json<Order>(["--account", "cb", "buy", "BTC/USDT", "0.001", "1002"], at);
    const left = await cli.run(["--account", "cb", "cancel-batch", "BTC/USDT", c.id, "424242", "--json"], at);
    expect(left.code).toBe(6);
    expect(left.stdout).toBe("");
    expect(left.stderr).toContain("Not cancelled: 424242 (not found)");
    expect(left.stderr).toContain(`1 of 2 orders not cancelled: 424242 (not found); cancelled: ${c.id}`);
    const json = JSON.parse(left.stderr.trim().split("\n").at(-1)!) as { error: { cancelled: string[] } };
    expect(json.error.cancelled).toEqual([c.id]);

    // paper also cancels by client order id: that id is cancelled, not "left"
    const d = await cli.json<Order>(
      ["--account", "cb", "buy", "BTC/USDT", "0.001", "1003", "--client-order-id", "cb-d"],
      at,
    );
    const byClientId = await cli.run(["--account", "cb", "cancel-batch", "BTC/USDT", "cb-d", "--json"], at);
    expect(byClientId.code, byClientId.stderr).toBe(0);
    expect(JSON.parse(byClientId.stdout)).toEqual([d.id]);
    expect(byClientId.stderr).not.toContain("Not cancelled");
  });
});

describe("batch --split partial failure (issue 16)", () => {
  it("says exactly how many orders were placed and which were not", async () => {
    const items = [
      ...Array.from({ length: 100 }, (_, i) => ({ side: "Buy", amount: "0.001", price: String(1000 + i) })),
      { side: "Buy", amount: "0.001", price: "1100" },
      // 100 BTC at 1101: far more USDT than the account holds
      { side: "Buy", amount: "100", price: "1101" },
    ];
    const result = await cli.run(["--account", "split", "batch", "BTC/USDT", "--split", "--json"], {
      ...at,
      stdin: JSON.stringify(items),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("100 of 102 orders placed (");
    expect(result.stderr).toContain("items 101-102 not placed: the batch of items 101-102 failed:");
    const json = JSON.parse(result.stderr.trim().split("\n").at(-1)!) as { error: { placed: Order[] } };
    expect(json.error.placed).toHaveLength(100);
    // docs/cli.md "Partial results": the placed orders are also the stdout document, as on success
    const stdout = JSON.parse(result.stdout) as Order[];
    expect(stdout.map((o) => o.id)).toEqual(json.error.placed.map((o) => o.id));
    expect(stdout[0]).toMatchObject({ exchange: "paper", account: "split", price: "1000" });
    expect((await state("split")).orders).toHaveLength(100);
  });
});

describe("no live book", () => {
  it("refuses when the exchange's book does not arrive, unless --allow-far-price", async () => {
    const env = { SPOTDESK_API_KEY: "k".repeat(16), SPOTDESK_API_SECRET: "s".repeat(16) };
    const dead = ["--exchange", "bybit", "--base-url", "http://127.0.0.1:9", "--ws-url", "ws://127.0.0.1:9"];
    const result = await cli.run([...dead, "buy", "BTC/USDT", "0.01", "30000"], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("not checked: no live BTC/USDT order book");
    expect(result.stderr).toContain("--allow-far-price");
    // With the flag the book is not read: the order goes to the (dead) exchange and fails there.
    const waived = await cli.run([...dead, "buy", "BTC/USDT", "0.01", "30000", "--allow-far-price"], { env });
    expect(waived.code).toBe(8);
    expect(waived.stderr).not.toContain("order book");
  }, 30_000);
});
