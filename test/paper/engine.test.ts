import { describe, expect, it } from "vitest";
import { HISTORY_LIMIT, MAX_REPLAY_STEPS, PaperEngine, type ValidOrder } from "../../exchanges/paper/engine.js";
import { BUCKET_MS, LEVEL_REFRESH_BUCKETS, type MarketSide } from "../../exchanges/paper/market.js";
import { paperPair } from "../../exchanges/paper/pairs.js";
import type { PaperOrderRecord, PaperState } from "../../exchanges/paper/state.js";
import { Decimal } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { askLotsAtOrBelow, bidLotsAtOrAbove, market, SEED, T0 } from "./helpers.js";

/**
 * The matching engine alone (exchanges/paper/engine.ts), on a state in memory: the replay of the
 * synthetic market between two calls, the fill boundaries on both sides, and the bookkeeping of
 * liquidity already taken. The buckets are found in the seeded market, so each test states the
 * situation it needs instead of relying on a lucky instant.
 */

const BTC = paperPair("BTC/USDT");
const m = market();
const B0 = Math.floor(T0 / BUCKET_MS);
const STEP = BTC.levelTicks;

function stateAt(bucket: number, balances: Record<string, string> = { USDT: "10000000", BTC: "1000" }): PaperState {
  const rows: PaperState["balances"] = {};
  for (const [currency, free] of Object.entries(balances)) rows[currency] = { free, locked: "0" };
  return {
    version: 2,
    seq: 0,
    account: "engine-test",
    createdAt: bucket * BUCKET_MS,
    lastBucket: bucket,
    nextId: 1,
    balances: rows,
    orders: [],
    taken: {},
    // the matching rules without fees (docs/paper-store.md "Fees": test/paper/fees.test.ts charges them)
    fees: { maker: "0", taker: "0" },
  };
}

function engineAt(bucket: number, balances?: Record<string, string>): PaperEngine {
  return new PaperEngine(stateAt(bucket, balances), SEED);
}

let ids = 0;
function limitOrder(side: "Buy" | "Sell", ticks: number, lots: number, clientOrderId = `c${++ids}`): ValidOrder {
  return { pair: BTC, side, price: m.price(ticks), amount: m.amount(lots), clientOrderId };
}

/** The first bucket at or after `from` where `test` holds (within a day). */
function findBucket(from: number, test: (bucket: number) => boolean): number {
  for (let b = from; b < from + 86_400; b++) if (test(b)) return b;
  throw new Error("the synthetic market never met the condition within a day");
}

const best = (side: MarketSide, b: number) => (side === "bid" ? m.bestBidTicks(b) : m.bestAskTicks(b));
const lotsAt = (side: MarketSide, ticks: number, b: number) => m.levelLots(side, ticks, b);
const balance = (engine: PaperEngine, currency: string) => engine.balances()[currency];

describe("paper engine: fill boundaries on both sides", () => {
  it("a buy priced exactly at the best ask and a sell priced exactly at the best bid fill there at once", () => {
    for (const [side, book] of [
      ["Buy", "ask"],
      ["Sell", "bid"],
    ] as const) {
      const b = findBucket(B0, (x) => lotsAt(book, best(book, x), x) > 0);
      const ticks = best(book, b);
      const lots = Math.min(lotsAt(book, ticks, b), 100_000);
      const engine = engineAt(b);
      const record = engine.place(limitOrder(side, ticks, lots), b * BUCKET_MS);
      expect([side, record.status, record.filled]).toEqual([side, "closed", m.amount(lots)]);
      const cost = new Decimal(m.price(ticks)).times(m.amount(lots));
      if (side === "Buy") {
        expect(balance(engine, "USDT")).toEqual({ f: new Decimal(10000000).minus(cost).toFixed(), l: "0" });
        expect(balance(engine, "BTC")).toEqual({ f: new Decimal(1000).plus(m.amount(lots)).toFixed(), l: "0" });
      } else {
        expect(balance(engine, "USDT")).toEqual({ f: new Decimal(10000000).plus(cost).toFixed(), l: "0" });
        expect(balance(engine, "BTC")).toEqual({ f: new Decimal(1000).minus(m.amount(lots)).toFixed(), l: "0" });
      }
    }
  });

  it("one tick short of the best price, neither side fills", () => {
    const b = findBucket(B0, (x) => lotsAt("ask", best("ask", x), x) > 0 && lotsAt("bid", best("bid", x), x) > 0);
    const engine = engineAt(b);
    const buy = engine.place(limitOrder("Buy", best("ask", b) - 1, 1000), b * BUCKET_MS);
    const sell = engine.place(limitOrder("Sell", best("bid", b) + 1, 1000), b * BUCKET_MS);
    expect([buy.status, buy.filled, sell.status, sell.filled]).toEqual(["open", "0", "open", "0"]);
  });

  it("a marketable sell is paid the bids' prices, not its lower limit, level by level", () => {
    const b = findBucket(
      B0,
      (x) => lotsAt("bid", best("bid", x), x) > 0 && lotsAt("bid", best("bid", x) - STEP, x) > 0,
    );
    const top = best("bid", b);
    const first = lotsAt("bid", top, b);
    const second = lotsAt("bid", top - STEP, b);
    const engine = engineAt(b);
    // limit two levels down: it takes the best level whole and part of the next, then stops there
    const record = engine.place(limitOrder("Sell", top - STEP, first + second + 500), b * BUCKET_MS);
    expect(record).toMatchObject({ status: "open", filled: m.amount(first + second) });
    const proceeds = new Decimal(m.price(top))
      .times(m.amount(first))
      .plus(new Decimal(m.price(top - STEP)).times(m.amount(second)));
    expect(balance(engine, "USDT")).toEqual({ f: new Decimal(10000000).plus(proceeds).toFixed(), l: "0" });
    // what did not fill stays locked in BTC
    const sold = new Decimal(m.amount(first + second + 500));
    expect(balance(engine, "BTC")).toEqual({ f: new Decimal(1000).minus(sold).toFixed(), l: m.amount(500) });
  });

  it("a resting order fills when the market reaches exactly its price, at its own price, on each side", () => {
    for (const [side, book] of [
      ["Sell", "bid"],
      ["Buy", "ask"],
    ] as const) {
      const away = side === "Sell" ? STEP : -STEP;
      // a bucket where the order rests one level beyond the best price, and where the market later
      // reaches that level exactly (not past it) with synthetic lots on it
      let start = B0;
      let reach = 0;
      let limit = 0;
      for (; start < B0 + 10_000; start++) {
        limit = best(book, start) + away;
        const at = findBucket(start + 1, (x) => (side === "Sell" ? best("bid", x) >= limit : best("ask", x) <= limit));
        if (best(book, at) === limit && lotsAt(book, limit, at) > 0) {
          reach = at;
          break;
        }
      }
      expect(reach, "a bucket where the market reaches the level exactly").toBeGreaterThan(0);
      const lots = lotsAt(book, limit, reach);
      const engine = engineAt(start);
      const record = engine.place(limitOrder(side, limit, lots + 700), start * BUCKET_MS);
      expect(record.filled).toBe("0");
      engine.replayTo(reach - 1);
      expect([side, record.filled]).toEqual([side, "0"]);
      engine.replayTo(reach);
      expect([side, record.status, record.filled]).toEqual([side, "open", m.amount(lots)]);
      expect(record.updatedAt).toBe(reach * BUCKET_MS);
    }
  });
});

describe("paper engine: the replay between two calls", () => {
  /** A resting buy at the best bid of `start`, and a later bucket `end` where the market has crossed it and left again. */
  function crossedAndLeft(): { start: number; cross: number; end: number; limit: number } {
    for (let start = B0; start < B0 + 70_000; start += 7) {
      const limit = best("bid", start);
      let cross = 0;
      for (let b = start + 1; b < start + MAX_REPLAY_STEPS / 2; b++) {
        if (askLotsAtOrBelow(m, limit, b) > 0) {
          cross = b;
          break;
        }
      }
      if (cross === 0) continue;
      for (let end = cross + 1; end < start + MAX_REPLAY_STEPS; end++) {
        if (askLotsAtOrBelow(m, limit, end) === 0) return { start, cross, end, limit };
      }
    }
    throw new Error("the synthetic market never crossed a resting buy and left again");
  }

  it("replays every second of the interval: a cross in the middle fills though the last second does not cross", () => {
    const { start, cross, end, limit } = crossedAndLeft();
    const engine = engineAt(start);
    const record = engine.place(limitOrder("Buy", limit, 1_000_000), start * BUCKET_MS);
    expect(askLotsAtOrBelow(m, limit, end)).toBe(0);
    engine.replayTo(end);
    expect(new Decimal(record.filled).isGreaterThan(0)).toBe(true);
    expect(record.updatedAt).toBeGreaterThanOrEqual(cross * BUCKET_MS);
  });

  it("one replay over an interval gives exactly what replaying it second by second gives", () => {
    const { start, end, limit } = crossedAndLeft();
    const once = engineAt(start);
    const stepwise = engineAt(start);
    for (const engine of [once, stepwise]) {
      engine.place(limitOrder("Buy", limit, 1_000_000, "bid"), start * BUCKET_MS);
      engine.place(limitOrder("Sell", best("ask", start), 1_000_000, "ask"), start * BUCKET_MS);
    }
    once.replayTo(end + 5);
    for (let b = start + 1; b <= end + 5; b++) stepwise.replayTo(b);
    expect(once.state.orders).toEqual(stepwise.state.orders);
    expect(once.balances()).toEqual(stepwise.balances());
    expect(once.state.lastBucket).toBe(end + 5);
  });

  it("liquidity already taken stays taken across replays until its level is redrawn", () => {
    // a best ask that stays the best ask, in the same draw, for the next three seconds
    const b = findBucket(B0, (x) => {
      const ask = best("ask", x);
      if (lotsAt("ask", ask, x) === 0) return false;
      const epoch = m.levelEpoch("ask", ask, x);
      for (let k = 1; k <= 3; k++)
        if (best("ask", x + k) !== ask || m.levelEpoch("ask", ask, x + k) !== epoch) return false;
      return true;
    });
    const ask = best("ask", b);
    const lots = lotsAt("ask", ask, b);
    const engine = engineAt(b);
    const record = engine.place(limitOrder("Buy", ask, lots + 5000), b * BUCKET_MS);
    expect(record.filled).toBe(m.amount(lots));
    // one call per second, as a bot polling: the lots it took are not offered to it again
    for (let k = 1; k <= 3; k++) {
      engine.replayTo(b + k);
      expect([k, record.filled]).toEqual([k, m.amount(lots)]);
    }
    // nothing filled, nothing touched: the order still reads as last changed when it was placed
    expect(record.updatedAt).toBe(b * BUCKET_MS);
    // once the level is redrawn, its fresh lots can fill the rest
    const redraw = findBucket(
      b + 4,
      (x) => m.levelEpoch("ask", ask, x) !== m.levelEpoch("ask", ask, b) && askLotsAtOrBelow(m, ask, x) > 0,
    );
    engine.replayTo(redraw);
    expect(new Decimal(record.filled).isGreaterThan(m.amount(lots))).toBe(true);
  });

  it("forgets taken liquidity of redrawn levels, so the saved state does not grow", () => {
    const b = findBucket(B0, (x) => lotsAt("ask", best("ask", x), x) > 0);
    const engine = engineAt(b);
    engine.place(limitOrder("Buy", best("ask", b), 1000), b * BUCKET_MS);
    expect(Object.keys(engine.state.taken)).toHaveLength(1);
    // exactly at the horizon the record is still needed; one bucket later it is not
    engine.replayTo(b + LEVEL_REFRESH_BUCKETS);
    expect(Object.keys(engine.state.taken)).toHaveLength(1);
    engine.dirty = false;
    engine.replayTo(b + LEVEL_REFRESH_BUCKETS + 1);
    expect(engine.state.taken).toEqual({});
    expect(engine.dirty).toBe(true);
  });

  it("a clock at or behind the last replay changes nothing and marks nothing to save", () => {
    const engine = engineAt(B0 + 10);
    engine.place(limitOrder("Buy", 100, 1000), (B0 + 10) * BUCKET_MS);
    const before = structuredClone(engine.state);
    engine.dirty = false;
    engine.replayTo(B0 + 10);
    engine.replayTo(B0 + 3);
    expect(engine.state).toEqual(before);
    expect(engine.dirty).toBe(false);
  });

  it("with no open order a replay only moves the clock; with one, progress is marked to save", () => {
    const idle = engineAt(B0);
    idle.replayTo(B0 + 100);
    expect([idle.state.lastBucket, idle.dirty]).toEqual([B0 + 100, false]);
    const busy = engineAt(B0);
    busy.place(limitOrder("Buy", 100, 1000), B0 * BUCKET_MS);
    busy.dirty = false;
    busy.replayTo(B0 + 1);
    expect([busy.state.lastBucket, busy.dirty]).toEqual([B0 + 1, true]);
  });

  it("a gap longer than MAX_REPLAY_STEPS is replayed in strides and ends at the target", () => {
    const engine = engineAt(B0);
    const sell = engine.place(limitOrder("Sell", best("ask", B0) + 1_000_000, 1000), B0 * BUCKET_MS);
    engine.replayTo(B0 + MAX_REPLAY_STEPS * 3 + 1);
    expect(engine.state.lastBucket).toBe(B0 + MAX_REPLAY_STEPS * 3 + 1);
    expect(sell.status).toBe("open");
  });

  it("replays a long gap in strides: exactly the seconds from + stride, from + 2 × stride, …, and the target", () => {
    const gap = MAX_REPLAY_STEPS * 3 + 1;
    const stride = Math.ceil(gap / MAX_REPLAY_STEPS);
    const steps = Math.ceil(gap / stride);
    // a resting buy that some visited second crosses, though neither the target nor the second
    // one stride past the last visited one (where a replay overshooting the target would look) does
    for (let probe = 0; probe < 80_000; probe++) {
      const from = B0 + (probe >> 3) * 7;
      const target = from + gap;
      const limit = best("bid", from) - (probe & 7) * STEP;
      const crosses = (b: number) => askLotsAtOrBelow(m, limit, b) > 0;
      const past = from + steps * stride;
      if (crosses(from) || crosses(target) || crosses(past - stride) || !crosses(past)) continue;
      const visited = Array.from({ length: steps }, (_, i) => (i + 1 === steps ? target : from + (i + 1) * stride));
      if (!visited.some(crosses)) continue;
      // an order too large to fill whole, so every crossing second shows in it
      const rich = { USDT: "1000000000000", BTC: "0" };
      const once = engineAt(from, rich);
      once.place(limitOrder("Buy", limit, 10_000_000_000, "strided"), from * BUCKET_MS);
      once.replayTo(target);
      // the same seconds, visited one call each
      const byHand = engineAt(from, rich);
      byHand.place(limitOrder("Buy", limit, 10_000_000_000, "strided"), from * BUCKET_MS);
      for (const second of visited) {
        byHand.state.lastBucket = second - 1;
        byHand.replayTo(second);
      }
      expect(once.state.orders[0]!.status).toBe("open");
      expect(new Decimal(once.state.orders[0]!.filled).isGreaterThan(0)).toBe(true);
      expect(once.state.orders).toEqual(byHand.state.orders);
      expect(once.balances()).toEqual(byHand.balances());
      expect(once.state.lastBucket).toBe(target);
      return;
    }
    throw new Error("no resting buy in the synthetic market fits the stride test");
  });

  it("an order placed for a later second than the last replay is not reached by the seconds before it", () => {
    // the clock jumped ahead without a replay: the order enters at `later`, the flow of the
    // seconds in between (which crosses it) happened before it existed
    for (const side of ["Buy", "Sell"] as const) {
      const crossed = (limit: number, b: number) =>
        side === "Buy" ? askLotsAtOrBelow(m, limit, b) > 0 : bidLotsAtOrAbove(m, limit, b) > 0;
      let done = false;
      for (let from = B0; from < B0 + 5000 && !done; from += 5) {
        const later = from + 20;
        const limit = side === "Buy" ? best("bid", later) : best("ask", later);
        const before = Array.from({ length: 19 }, (_, i) => from + 1 + i);
        if (!before.some((b) => crossed(limit, b)) || crossed(limit, later)) continue;
        const engine = engineAt(from);
        const record = engine.place(limitOrder(side, limit, 10_000), later * BUCKET_MS);
        expect(record.bucket).toBe(later);
        engine.replayTo(later);
        expect([side, record.filled]).toEqual([side, "0"]);
        done = true;
      }
      expect([side, done]).toEqual([side, true]);
    }
  });

  it("a replay over closed and canceled orders only moves the clock", () => {
    const engine = engineAt(B0);
    const record = engine.place(limitOrder("Buy", 100, 1000), B0 * BUCKET_MS);
    engine.cancel(record, B0 * BUCKET_MS);
    engine.dirty = false;
    engine.replayTo(B0 + 50);
    expect([engine.state.lastBucket, engine.dirty, record.status]).toEqual([B0 + 50, false, "canceled"]);
  });

  it("a marketable order takes at most the book's 50 levels, however far its limit", () => {
    const b = B0;
    const engine = engineAt(b, { USDT: "1000000000", BTC: "0" });
    const record = engine.place(limitOrder("Buy", best("ask", b) + 80 * STEP, 1_000_000_000), b * BUCKET_MS);
    const fifty = m.levels("ask", b).reduce((sum, [, lots]) => sum + lots, 0);
    expect(m.levels("ask", b).length).toBeLessThanOrEqual(50);
    expect(record.filled).toBe(m.amount(fifty));
  });

  it("resting sells share the crossing bids by price, then by time", () => {
    // a bucket where the bids later rise through a level above the start's best bid
    let start = B0;
    let cross = 0;
    let limit = 0;
    for (; start < B0 + 30_000; start += 3) {
      limit = best("bid", start) + STEP;
      cross = findBucket(start + 1, (x) => bidLotsAtOrAbove(m, limit, x) > 0);
      if (bidLotsAtOrAbove(m, limit, cross) >= 3 && cross - start < MAX_REPLAY_STEPS) break;
    }
    expect(cross - start).toBeLessThan(MAX_REPLAY_STEPS);
    const available = bidLotsAtOrAbove(m, limit, cross);
    const engine = engineAt(start);
    const early = engine.place(limitOrder("Sell", limit, 1), start * BUCKET_MS);
    const late = engine.place(limitOrder("Sell", limit, 1), start * BUCKET_MS);
    // placed last, one tick better (lower): it takes all but one lot of what crosses
    const better = engine.place(limitOrder("Sell", limit - 1, available - 1), start * BUCKET_MS);
    engine.replayTo(cross);
    expect([better.status, early.status, late.filled]).toEqual(["closed", "closed", "0"]);
  });
});

describe("paper engine: funds, cancels and history", () => {
  it("a buy may spend exactly the free quote, and not a cent more", () => {
    const engine = engineAt(B0, { USDT: "10", BTC: "0" });
    const ok = engine.place({ pair: BTC, side: "Buy", price: "100", amount: "0.1", clientOrderId: "all" }, T0);
    expect(ok.status).toBe("open");
    expect(balance(engine, "USDT")).toEqual({ f: "0", l: "10" });
    const error = (() => {
      try {
        engine.place({ pair: BTC, side: "Buy", price: "0.01", amount: "0.000001", clientOrderId: "more" }, T0);
      } catch (e) {
        return e as ExchangeError;
      }
      throw new Error("expected a refusal");
    })();
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error.kind).toBe("insufficient-funds");
    expect(error.detail).toBe(
      "Insufficient balance: a buy of 0.000001 BTC at 0.01 needs 0.00000001 USDT, 0 USDT is free",
    );
  });

  it("a sell's refusal names the base currency it lacks", () => {
    const engine = engineAt(B0, { USDT: "0", BTC: "0.5" });
    expect(() =>
      engine.place({ pair: BTC, side: "Sell", price: "100000", amount: "0.6", clientOrderId: "s" }, T0),
    ).toThrow("Insufficient balance: a sell of 0.6 BTC at 100000 needs 0.6 BTC, 0.5 BTC is free");
  });

  it("new orders get increasing ids, the bucket of their placement and the clock's time", () => {
    const engine = engineAt(B0 + 5);
    const a = engine.place(limitOrder("Buy", 100, 1000), (B0 + 5) * BUCKET_MS + 250);
    // a clock behind the last replay still places into the current bucket
    const b = engine.place(limitOrder("Buy", 100, 1000), B0 * BUCKET_MS);
    expect([a.id, a.bucket, a.timestamp, a.updatedAt]).toEqual([
      "1",
      B0 + 5,
      (B0 + 5) * BUCKET_MS + 250,
      (B0 + 5) * BUCKET_MS + 250,
    ]);
    expect([b.id, b.bucket]).toEqual(["2", B0 + 5]);
    expect(engine.state.nextId).toBe(3);
  });

  it("cancelling a partly filled sell unlocks only the unfilled base", () => {
    const b = findBucket(B0, (x) => lotsAt("bid", best("bid", x), x) > 0);
    const bid = best("bid", b);
    const lots = lotsAt("bid", bid, b);
    const engine = engineAt(b, { USDT: "0", BTC: "1000" });
    const record = engine.place(limitOrder("Sell", bid, lots + 3000), b * BUCKET_MS);
    expect(balance(engine, "BTC")!.l).toBe(m.amount(3000));
    engine.cancel(record, b * BUCKET_MS + 10);
    expect(record).toMatchObject({ status: "canceled", filled: m.amount(lots), updatedAt: b * BUCKET_MS + 10 });
    expect(balance(engine, "BTC")).toEqual({ f: new Decimal(1000).minus(m.amount(lots)).toFixed(), l: "0" });
    expect(() => engine.cancel(record, b * BUCKET_MS)).toThrow(
      `ExchangeId: paper, msg: Order '${record.id}' cannot be canceled: it is canceled`,
    );
  });

  it("keeps the newest HISTORY_LIMIT closed and canceled orders and every open one", () => {
    const engine = engineAt(B0);
    const done = (i: number, status: "closed" | "canceled"): PaperOrderRecord => ({
      id: String(i),
      clientOrderId: `h${i}`,
      pair: BTC.pair,
      side: "Buy",
      price: "1",
      amount: "1",
      filled: status === "closed" ? "1" : "0",
      status,
      timestamp: i,
      // placed in order, finished in reverse: the oldest finished is the last placed
      updatedAt: 10_000 - i,
      bucket: B0,
    });
    const open = { ...done(0, "canceled"), id: "open", clientOrderId: "open", status: "open" as const, updatedAt: 0 };
    engine.state.orders = [
      open,
      ...Array.from({ length: HISTORY_LIMIT + 2 }, (_, i) => done(i + 1, i % 2 ? "closed" : "canceled")),
    ];
    engine.trimHistory();
    const kept = engine.state.orders.map((o) => o.id);
    expect(kept).toHaveLength(HISTORY_LIMIT + 1);
    expect(kept[0]).toBe("open");
    expect(kept).not.toContain(String(HISTORY_LIMIT + 2));
    expect(kept).not.toContain(String(HISTORY_LIMIT + 1));
    expect(kept).toContain(String(HISTORY_LIMIT));
    expect(engine.dirty).toBe(true);
    engine.dirty = false;
    engine.trimHistory();
    expect(engine.dirty).toBe(false);
  });

  it("a currency the account never held counts as 0 free", () => {
    const engine = engineAt(B0, {});
    expect(() =>
      engine.place({ pair: BTC, side: "Buy", price: "100", amount: "0.01", clientOrderId: "none" }, T0),
    ).toThrow("Insufficient balance: a buy of 0.01 BTC at 100 needs 1 USDT, 0 USDT is free");
  });

  it("counts only the pair's open orders against LIMITS.paper.openOrders, not its history", () => {
    const engine = engineAt(B0);
    const closed = (i: number): PaperOrderRecord => ({
      id: `old${i}`,
      clientOrderId: `old${i}`,
      pair: BTC.pair,
      side: "Buy",
      price: "1",
      amount: "1",
      filled: "1",
      status: "closed",
      timestamp: 0,
      updatedAt: 0,
      bucket: B0,
    });
    engine.state.orders = Array.from({ length: 600 }, (_, i) => closed(i));
    expect(engine.place(limitOrder("Buy", 100, 1000), T0).status).toBe("open");
  });

  it("finds an order of the pair by id, else by client order id, and names what it did not find", () => {
    const engine = engineAt(B0);
    const a = engine.place(limitOrder("Buy", 100, 1000, "first"), T0);
    expect(engine.find(BTC.pair, a.id)).toBe(a);
    expect(engine.find(BTC.pair, "first")).toBe(a);
    for (const [pair, id] of [
      [BTC.pair, "nope"],
      ["ETH/USDT", a.id],
      ["ETH/USDT", "first"],
    ]) {
      const error = (() => {
        try {
          engine.find(pair!, id!);
        } catch (e) {
          return e as ExchangeError;
        }
        throw new Error("expected order-not-found");
      })();
      expect([error.exchange, error.kind, error.detail]).toEqual([
        "paper",
        "order-not-found",
        `Order '${id}' not found on ${pair}`,
      ]);
    }
  });

  it("refuses an order beyond LIMITS.paper.openOrders open on the pair, naming the limit", () => {
    const engine = engineAt(B0);
    for (let i = 0; i < 500; i++) engine.place(limitOrder("Buy", 100, 1000, `o${i}`), T0);
    expect(() => engine.place(limitOrder("Buy", 100, 1000, "one-more"), T0)).toThrow(
      "ExchangeId: paper, msg: Too many open orders on BTC/USDT: paper allows 500 per pair",
    );
  });

  it("refuses a second order with a client order id in use, naming it", () => {
    const engine = engineAt(B0);
    engine.place(limitOrder("Buy", 100, 1000, "twice"), T0);
    expect(() => engine.place(limitOrder("Buy", 100, 1000, "twice"), T0)).toThrow(
      "ExchangeId: paper, msg: Duplicate clientOrderId 'twice': an order with this id exists",
    );
  });

  it("lists balances by currency name, free and locked as decimal strings", () => {
    const engine = engineAt(B0, { USDT: "5", BTC: "0.5", ETH: "0" });
    expect(Object.keys(engine.balances())).toEqual(["BTC", "ETH", "USDT"]);
    expect(engine.balances().BTC).toEqual({ f: "0.5", l: "0" });
  });
});
