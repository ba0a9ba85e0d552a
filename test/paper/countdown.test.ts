/**
 * paper's cancel-all-after countdown (docs/paper-store.md "Countdown", docs/exchange-rules.md#countdown):
 * the deadline lives with the account, so the next call of any process fires it, as of the deadline.
 */
import { describe, expect, it } from "vitest";
import { paperBook } from "../../exchanges/paper/index.js";
import { readPaperAccount } from "../../exchanges/paper/store.js";
import { Decimal } from "../../lib/decimal.js";
import { isExchangeError } from "../../lib/errors.js";
import { paperOn, SEED, T0, TestClock, tempDataDir } from "./helpers.js";

/** A Buy far below the book: it rests and nothing fills it. */
function restingBuy(pair = "BTC/USDT") {
  const bid = new Decimal(paperBook(pair, { now: () => T0, seed: SEED }).bids[0]![0]);
  return { pair, side: "Buy" as const, price: bid.times(0.5).toFixed(2), amount: "0.001" };
}

describe("paper cancelAllAfter", () => {
  it("cancels the pair's open orders once the deadline passes, in a process that never armed it", async () => {
    const dir = tempDataDir();
    const clock = new TestClock(T0);
    const armer = paperOn(dir, clock, { account: "mm" });
    const btc = await armer.createOrder(restingBuy());
    const eth = await armer.createOrder({ ...restingBuy("ETH/USDT"), amount: "0.01" });
    await armer.cancelAllAfter("BTC/USDT", 10);
    expect(readPaperAccount(armer.store.file)?.countdowns).toEqual({ "BTC/USDT": T0 + 10_000 });
    clock.ms = T0 + 9_999;
    // another adapter (another process's view): before the deadline nothing happens
    const other = paperOn(dir, clock, { account: "mm" });
    expect((await other.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([btc.id]);
    clock.ms = T0 + 60_000;
    expect(await other.fetchOpenOrders("BTC/USDT")).toEqual([]);
    const cancelled = await other.fetchOrder("BTC/USDT", btc.id);
    expect(cancelled.status).toBe("canceled");
    // the other pair was not under the countdown
    expect((await other.fetchOpenOrders("ETH/USDT")).map((o) => o.id)).toEqual([eth.id]);
    // fired once, then disarmed: the funds are back and no countdown is left
    expect(readPaperAccount(armer.store.file)?.countdowns).toBeUndefined();
    expect((await other.fetchBalances()).USDT?.l).toBe(new Decimal(eth.price).times(eth.amount).toFixed());
  });

  it("arming again pushes the deadline back; 0 disarms; no pair covers every pair", async () => {
    const dir = tempDataDir();
    const clock = new TestClock(T0);
    const paper = paperOn(dir, clock, { account: "mm" });
    const order = await paper.createOrder(restingBuy());
    await paper.cancelAllAfter("BTC/USDT", 5);
    clock.ms = T0 + 4_000;
    await paper.cancelAllAfter("BTC/USDT", 5); // refreshed: now due at T0 + 9 s
    clock.ms = T0 + 8_000;
    expect((await paper.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([order.id]);
    await paper.cancelAllAfter("BTC/USDT", 0);
    clock.ms = T0 + 100_000;
    expect((await paper.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([order.id]);
    await paper.cancelAllAfter(undefined, 1);
    clock.ms += 1_000;
    expect(await paper.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it("refuses a countdown outside 1 s to a day, naming the bounds", async () => {
    const paper = paperOn(tempDataDir(), new TestClock(T0), { account: "mm" });
    for (const bad of [-1, 0.5, 86_401]) {
      const error = await paper.cancelAllAfter("BTC/USDT", bad).catch((e: unknown) => e);
      expect(isExchangeError(error) && error.kind).toBe("bad-input");
      expect(String((error as Error).message)).toContain("0 (off) or whole seconds from 1 to 86400");
    }
    expect(paper.countdown).toEqual({ minSeconds: 1, maxSeconds: 86_400, scope: "pair" });
  });
});
