import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateOrder } from "../../exchanges/paper/adapter.js";
import { paperStateFile } from "../../exchanges/paper/store.js";
import { ExchangeError } from "../../lib/errors.js";
import { rejection } from "../rejection.js";
import { paperOn, TestClock, tempDataDir } from "./helpers.js";

/**
 * paper's adapter (docs/paper-store.md, docs/orders.md): what it refuses before the account is
 * touched, and the text of each refusal; batches all or nothing; paper's pairs. Real files in a
 * temp directory.
 */

function refusal(run: () => unknown): ExchangeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected a refusal");
}

describe("paper: order validation", () => {
  it("truncates amount and price to the pair's decimals, trims text and takes numbers", () => {
    expect(
      validateOrder("btc/usdt", { side: "Buy", amount: " 0.1234567 ", price: "65000.129", clientOrderId: "abc" }),
    ).toEqual({
      pair: expect.objectContaining({ pair: "BTC/USDT" }),
      side: "Buy",
      amount: "0.123456",
      price: "65000.12",
      clientOrderId: "abc",
    });
    const sol = validateOrder("SOL/USDT", { side: "Sell", amount: 1.239 as unknown as string, price: ".5" });
    expect(sol.amount).toBe("1.23");
    expect(sol.price).toBe("0.5");
    expect(sol.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(validateOrder("SOL/USDT", { side: "Sell", amount: "2.", price: "1" }).amount).toBe("2");
    expect(validateOrder("SOL/USDT", { side: "Sell", amount: "2", price: ".555" }).price).toBe("0.555");
  });

  it("names the field and the value it refuses", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ side: "buy" }, "Invalid side 'buy': expected Buy or Sell"],
      [{ side: undefined }, "Invalid side 'undefined': expected Buy or Sell"],
      [{ amount: "-1" }, "Invalid amount '-1': expected a positive decimal number"],
      [{ amount: "1e3" }, "Invalid amount '1e3': expected a positive decimal number"],
      [{ amount: "" }, "Invalid amount '': expected a positive decimal number"],
      [{ amount: "1 2" }, "Invalid amount '1 2': expected a positive decimal number"],
      [{ amount: "x1" }, "Invalid amount 'x1': expected a positive decimal number"],
      [{ amount: "1x" }, "Invalid amount '1x': expected a positive decimal number"],
      [{ amount: null }, "Invalid amount 'null': expected a positive decimal number"],
      [{ amount: true }, "Invalid amount 'true': expected a positive decimal number"],
      [{ price: "1,5" }, "Invalid price '1,5': expected a positive decimal number"],
      [{ price: "." }, "Invalid price '.': expected a positive decimal number"],
      [{ amount: "0.0000001" }, "Incorrect amount / It is zero!"],
      [{ amount: "0" }, "Incorrect amount / It is zero!"],
      [{ price: "0.001" }, "Invalid price '0.001': it is zero at BTC/USDT's 2 decimals"],
      [{ clientOrderId: "has space" }, "Invalid client order id 'has space'"],
    ];
    for (const [fields, text] of cases) {
      const error = refusal(() =>
        validateOrder("BTC/USDT", { side: "Buy", amount: "0.01", price: "50000", ...fields } as never),
      );
      expect(error.kind).toBe("bad-input");
      expect(error.exchange).toBe("paper");
      expect(error.detail.startsWith(text)).toBe(true);
    }
    expect(refusal(() => validateOrder("DOGE/USDT", { side: "Buy", amount: "1", price: "1" })).detail).toBe(
      "Unknown pair 'DOGE/USDT'. Known pairs on paper: BTC/USDT, ETH/USDT, SOL/USDT, ETH/BTC",
    );
  });
});

describe("paper: calls", () => {
  it("an order id is required to cancel or fetch; a blank one touches nothing", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock());
    for (const id of ["", "  ", undefined as unknown as string]) {
      const error = await rejection(paper.cancelOrder("BTC/USDT", id));
      expect(error.detail).toBe("An order id is required");
      expect(error.kind).toBe("bad-input");
      expect(error.exchange).toBe("paper");
      expect((await rejection(paper.fetchOrder("BTC/USDT", id))).detail).toBe("An order id is required");
      expect((await rejection(paper.cancelBatch("BTC/USDT", ["1", id]))).detail).toBe("An order id is required");
    }
    expect(readdirSync(dir)).toEqual([]);
    const placed = await paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" });
    expect((await paper.fetchOrder("BTC/USDT", ` ${placed.id} `)).id).toBe(placed.id);
  });

  it("a batch is all or nothing: a bad item names its place and nothing is placed", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock());
    const good = { side: "Buy" as const, amount: "0.01", price: "50000" };
    const invalid = await rejection(paper.createBatch("BTC/USDT", [good, good, { ...good, price: "-1" }]));
    expect(invalid.detail).toBe(
      "Batch item 3: Invalid price '-1': expected a positive decimal number (nothing was placed)",
    );
    expect(invalid.kind).toBe("bad-input");
    expect(invalid.exchange).toBe("paper");
    // the second item needs more USDT than is left after the first
    const funds = await rejection(paper.createBatch("BTC/USDT", [good, { ...good, amount: "1" }]));
    expect(funds.detail).toMatch(/^Batch item 2: .+ \(nothing was placed\)$/);
    expect(funds.kind).toBe("insufficient-funds");
    expect(await paper.fetchOpenOrders("BTC/USDT")).toEqual([]);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
    const placed = await paper.createBatch("BTC/USDT", [good, { ...good, side: "Sell", price: "90000" }]);
    expect(placed.map((o) => [o.side, o.price, o.status])).toEqual([
      ["Buy", "50000", "open"],
      ["Sell", "90000", "open"],
    ]);
    expect(await rejection(paper.createBatch("BTC/USDT", []))).toBeInstanceOf(ExchangeError);
  });

  it("a batch cancel skips ids closed or unknown, takes client order ids, and cancels each once", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock());
    const a = await paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" });
    const b = await paper.createOrder({
      pair: "BTC/USDT",
      side: "Buy",
      amount: "0.01",
      price: "50001",
      clientOrderId: "mine-b",
    });
    const eth = await paper.createOrder({ pair: "ETH/USDT", side: "Buy", amount: "0.1", price: "1000" });
    expect(await paper.cancelBatch("BTC/USDT", ["404", a.id, "mine-b", a.id, eth.id])).toEqual([a.id, b.id]);
    expect(await paper.cancelBatch("BTC/USDT", [a.id])).toEqual([]);
    expect((await paper.fetchOpenOrders("ETH/USDT")).map((o) => o.id)).toEqual([eth.id]);
    expect(await paper.cancelAll("ETH/USDT")).toEqual([eth.id]);
    expect(await paper.cancelAll("ETH/USDT")).toEqual([]);
  });

  it("finds an order by its client order id only, on its pair", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock());
    const a = await paper.createOrder({
      pair: "BTC/USDT",
      side: "Buy",
      amount: "0.01",
      price: "50000",
      clientOrderId: "c1",
    });
    expect((await paper.findOrderByClientOrderId("BTC/USDT", "c1"))?.id).toBe(a.id);
    expect(await paper.findOrderByClientOrderId("ETH/USDT", "c1")).toBeUndefined();
    expect(await paper.findOrderByClientOrderId("BTC/USDT", a.id)).toBeUndefined();
    const badId = await rejection(paper.findOrderByClientOrderId("BTC/USDT", "bad id"));
    expect(badId.kind).toBe("bad-input");
    expect(badId.exchange).toBe("paper");
  });

  it("options reach the store: account, lock time-out, stale age and journal size", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), {
      account: "desk",
      lockTimeoutMs: 1234,
      staleLockMs: 5678,
      journalCompactBytes: 1,
      startingBalances: { usdt: "5" },
    });
    expect(paper.account).toBe("desk");
    expect(paper.store.file).toBe(paperStateFile(dir, "desk"));
    expect((paper.store as unknown as { lockOptions: object }).lockOptions).toEqual({ timeoutMs: 1234, staleMs: 5678 });
    expect((paper.store as unknown as { compactBytes: number }).compactBytes).toBe(1);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "5", l: "0" });
    expect(JSON.parse(readFileSync(paperStateFile(dir, "desk"), "utf8")).account).toBe("desk");
    const plain = paperOn(dir, new TestClock());
    expect((plain.store as unknown as { lockOptions: object }).lockOptions).toEqual({});
    expect(plain.seed).toBe("test-seed");
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["desk.json"]);
  });

  it("paper's pairs, sorted, with the tick and lot of their decimals", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    expect(await paper.fetchPairs()).toEqual([
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001" },
      { pair: "ETH/BTC", tick: "0.000001", lot: "0.0001" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0001" },
      { pair: "SOL/USDT", tick: "0.001", lot: "0.01" },
    ]);
    await expect(paper.close()).resolves.toBeUndefined();
    expect(paper.id).toBe("paper");
  });
});
