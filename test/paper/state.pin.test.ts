import { describe, expect, it } from "vitest";
import {
  applyEntries,
  newPaperState,
  type PaperOrderRecord,
  StateChanges,
  toOrder,
} from "../../exchanges/paper/state.js";

/**
 * A paper account's state and the journal entries that carry its changes (docs/paper-store.md
 * "Files"): an entry holds the rows a call changed as they are after it, and replaying it gives
 * the same state in every process.
 */

function record(id: string, overrides: Partial<PaperOrderRecord> = {}): PaperOrderRecord {
  return {
    id,
    clientOrderId: `c-${id}`,
    pair: "BTC/USDT",
    side: "Buy",
    price: "50000",
    amount: "0.02",
    filled: "0",
    cost: "0",
    status: "open",
    timestamp: 10,
    updatedAt: 10,
    bucket: 1,
    ...overrides,
  };
}

describe("a new account", () => {
  it("holds every paper currency, the demo balances or the given ones (upper-cased, normalized)", () => {
    const demo = newPaperState("desk", 5000, 5);
    expect(demo).toEqual({
      version: 2,
      account: "desk",
      createdAt: 5000,
      seq: 0,
      lastBucket: 5,
      nextId: 1,
      balances: {
        BTC: { free: "1", locked: "0" },
        ETH: { free: "10", locked: "0" },
        SOL: { free: "100", locked: "0" },
        USDT: { free: "10000", locked: "0" },
      },
      orders: [],
      taken: {},
    });
    const own = newPaperState("desk", 0, 0, { usdt: "12.50", DOGE: "3" });
    expect(own.balances).toEqual({
      BTC: { free: "0", locked: "0" },
      ETH: { free: "0", locked: "0" },
      SOL: { free: "0", locked: "0" },
      USDT: { free: "12.5", locked: "0" },
      DOGE: { free: "3", locked: "0" },
    });
  });
});

describe("the entry of a call", () => {
  it("holds only what changed, as it is now; nothing but the counters when nothing did", () => {
    const state = newPaperState("desk", 0, 7);
    state.nextId = 4;
    const changes = new StateChanges();
    expect(changes.empty).toBe(true);
    expect(changes.entry(state, 3)).toEqual({ seq: 3, lastBucket: 7, nextId: 4 });
    const a = record("1");
    const b = record("2");
    state.orders.push(a, b);
    changes.order(a);
    changes.order(a);
    changes.balance("USDT");
    changes.balance("NOPE");
    state.taken.k1 = [5, 7];
    changes.taken("k1");
    changes.taken("k2");
    expect(changes.empty).toBe(false);
    a.filled = "0.01";
    // a currency the state does not hold is left out, not written as undefined
    expect(Object.keys(changes.entry(state, 4).balances ?? {})).toEqual(["USDT"]);
    expect(changes.entry(state, 4)).toEqual({
      seq: 4,
      lastBucket: 7,
      nextId: 4,
      balances: { USDT: { free: "10000", locked: "0" } },
      orders: [{ ...a }],
      taken: { k1: [5, 7], k2: null },
    });
    // an order placed and dropped in one call is only dropped
    changes.order(b);
    changes.dropped("2");
    changes.dropped("9");
    const entry = changes.entry(state, 5);
    expect(entry.dropped).toEqual(["2", "9"]);
    expect(entry.orders?.map((o) => o.id)).toEqual(["1"]);
    // every order of the call dropped: no orders at all
    const onlyDropped = new StateChanges();
    onlyDropped.order(b);
    onlyDropped.dropped("2");
    expect(onlyDropped.entry(state, 6)).toEqual({ seq: 6, lastBucket: 7, nextId: 4, dropped: ["2"] });
  });

  it("counts changes since the checkpoint: the replay's progress before it, the call's after it", () => {
    const changes = new StateChanges();
    changes.progress();
    expect(changes.empty).toBe(false);
    expect(changes.changedSinceCheckpoint).toBe(true);
    changes.checkpoint();
    expect(changes.changedSinceCheckpoint).toBe(false);
    expect(changes.count).toBe(1);
    for (const change of [
      () => changes.balance("USDT"),
      () => changes.order(record("1")),
      () => changes.dropped("1"),
      () => changes.taken("k"),
      () => changes.progress(),
    ]) {
      changes.checkpoint();
      change();
      expect(changes.changedSinceCheckpoint).toBe(true);
    }
    expect(changes.count).toBe(6);
    // repeated changes of one row count each time
    changes.balance("USDT");
    expect(changes.count).toBe(7);
  });
});

describe("replaying entries", () => {
  it("applies counters, balances, new and changed orders, drops and taken liquidity in order", () => {
    const state = newPaperState("desk", 0, 0);
    state.orders.push(record("1"), record("2"), record("3"));
    state.taken = { gone: [1, 1], kept: [2, 2] };
    const original3 = state.orders[2]!;
    applyEntries(state, [
      {
        seq: 1,
        lastBucket: 5,
        nextId: 5,
        balances: { USDT: { free: "1", locked: "2" } },
        orders: [record("4"), record("3", { filled: "0.01" })],
        taken: { gone: null, fresh: [3, 5] },
      },
      {
        seq: 2,
        lastBucket: 6,
        nextId: 6,
        dropped: ["1", "404"],
        orders: [record("3", { filled: "0.02", status: "closed" })],
      },
    ]);
    expect(state.seq).toBe(2);
    expect(state.lastBucket).toBe(6);
    expect(state.nextId).toBe(6);
    expect(state.balances.USDT).toEqual({ free: "1", locked: "2" });
    expect(state.balances.BTC).toEqual({ free: "1", locked: "0" });
    expect(state.orders.map((o) => [o.id, o.filled, o.status])).toEqual([
      ["2", "0", "open"],
      ["3", "0.02", "closed"],
      ["4", "0", "open"],
    ]);
    // a changed order is updated in place, not added again
    expect(state.orders[1]).toBe(original3);
    expect(state.taken).toEqual({ kept: [2, 2], fresh: [3, 5] });
  });

  it("an order dropped and placed again under its id in a later entry stays dropped only until then", () => {
    const state = newPaperState("desk", 0, 0);
    state.orders.push(record("1"));
    applyEntries(state, [{ seq: 1, lastBucket: 0, nextId: 2, dropped: ["1"] }]);
    expect(state.orders).toEqual([]);
    applyEntries(state, []);
    expect(state.seq).toBe(1);
  });
});

describe("an order as the adapter answers it", () => {
  it("has the average fill price, cut to 12 decimals, only once something filled", () => {
    expect(toOrder(record("1"))).toEqual({
      pair: "BTC/USDT",
      id: "1",
      clientOrderId: "c-1",
      price: "50000",
      amount: "0.02",
      filled: "0",
      type: "limit",
      side: "Buy",
      status: "open",
      timestamp: 10,
    });
    expect(toOrder(record("1", { filled: "0.01", cost: "500.5" })).average).toBe("50050");
    expect(toOrder(record("1", { filled: "3", cost: "1" })).average).toBe("0.333333333333");
    expect(toOrder(record("1", { filled: "3", cost: "2" })).average).toBe("0.666666666666");
    const { cost: _cost, ...withoutCost } = record("1", { filled: "0.01" });
    expect("average" in toOrder(withoutCost)).toBe(false);
  });
});
