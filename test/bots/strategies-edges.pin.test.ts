/**
 * The bot strategies at their edges (server/bots/strategies/, docs/bots.md, docs/mutation.md): what the
 * runner reads besides the wanted orders (tracksFills, the first state, notes, wakeAt), boundaries of
 * time windows, zero sizes at the pair's decimals, and what a resting order changes. The rules
 * themselves are in test/bots/strategies.test.ts.
 */
import { describe, expect, it } from "vitest";
import { normalQuantile, shape } from "../../server/bots/strategies/liquidity-arranger.js";
import type { Wanted } from "../../server/bots/strategies/types.js";
import { ctx, decimals, floating, grid, la, market, random, resting, sd } from "./strategy-fixtures.js";

describe("floating bot at its edges (docs/decisions.md#d21)", () => {
  const limited = (limit: number) => floating({}, { "spending-limits": { limit, period: 60 } });

  it("asks the runner for the filled amount of cancelled orders only with spending-limits", () => {
    expect(floating().tracksFills).toBe(false);
    expect(limited(150).tracksFills).toBe(true);
  });

  it("starts with the setup's p and q, no delay and no fills; without spending-limits it never keeps fills", () => {
    const s = floating();
    const first = s.init({ now: 0, random });
    expect(first).toEqual({ p: "1", q: "100", nextPlaceAt: 0, fills: [] });
    expect(s.step(first, ctx(market("99.99", "100.01"))).state).toEqual(first);
    const order = resting({ slot: 0, side: "Buy", price: "99", amount: "1" });
    const after = s.closed(first, { order, filled: "1", complete: true }, { now: 5000, random, decimals });
    expect(after.fills).toEqual([]);
  });

  it("a fill leaves the spending window exactly `period` seconds after it, and leaves the state too", () => {
    const s = limited(100);
    const order = resting({ slot: 0, side: "Buy", price: "100", amount: "1" });
    const state = s.closed(
      s.init({ now: 0, random }),
      { order, filled: "1", complete: true },
      { now: 10_000, random, decimals },
    );
    const stopped = s.step(state, ctx(market("99.99", "100.01"), [], 69_999));
    expect(stopped.want).toEqual([]);
    expect(stopped.wakeAt).toBe(70_000);
    const resumed = s.step(state, ctx(market("99.99", "100.01"), [], 70_000));
    expect(resumed.want).toHaveLength(1);
    expect(resumed.state.fills).toEqual([]);
  });

  it("a spending limit of 0 places nothing and sets no wake-up (there is no fill to wait out)", () => {
    const s = limited(0);
    const out = s.step(s.init({ now: 0, random }), ctx(market("99.99", "100.01")));
    expect(out.want).toEqual([]);
    expect(out.note).toBe("spending limit reached: 0 of 0 USDT filled in the last 60 s");
    expect(out).not.toHaveProperty("wakeAt");
  });

  it("the replacement delay holds back a new order only: an order resting in its slot stays wanted", () => {
    const s = floating();
    const order = resting({ slot: 0, side: "Buy", price: "99", amount: "1.010101" });
    const after = s.closed(
      s.init({ now: 0, random }),
      { order, filled: "0", complete: false },
      { now: 5000, random, decimals },
    );
    const out = s.step(after, ctx(market("99.99", "100.01"), [order], 5500));
    expect(out.want).toEqual([{ slot: 0, side: "Buy", price: "99", amount: "1.010101" }]);
    expect(out).not.toHaveProperty("wakeAt");
  });

  it("wants nothing, and says why, when the amount or the target price is zero at the pair's decimals", () => {
    const small = floating({ quote: 1 });
    const noAmount = small.step(
      small.init({ now: 0, random }),
      ctx(market("99.99", "100.01"), [], 0, { price: 2, amount: 0 }),
    );
    expect(noAmount.want).toEqual([]);
    expect(noAmount.note).toBe("quote 1 at 99 is zero at the pair's decimals");
    const s = floating();
    const noPrice = s.step(s.init({ now: 0, random }), ctx(market("0.003", "0.005")));
    expect(noPrice.want).toEqual([]);
    expect(noPrice.note).toBe("quote 100 at 0 is zero at the pair's decimals");
  });

  it("never keeps an order of the other side, nor one against a target of 0", () => {
    const s = floating();
    const state = s.init({ now: 0, random });
    const c = ctx(market("99.99", "100.01"));
    const sell = resting({ slot: 0, side: "Sell", price: "99", amount: "1" });
    expect(s.keep(sell, { slot: 0, side: "Buy", price: "99", amount: "1" }, state, c)).toBe(false);
    const buy = resting({ slot: 0, side: "Buy", price: "0", amount: "1" });
    expect(s.keep(buy, { slot: 0, side: "Buy", price: "0", amount: "1" }, state, c)).toBe(false);
  });
});

describe("grid bot at its edges (docs/decisions.md#d22)", () => {
  it("needs no fill look-up after a cancel, and starts unbuilt", () => {
    const s = grid();
    expect(s.tracksFills).toBe(false);
    expect(s.init({ now: 0, random })).toEqual({ builds: 0, buyScale: "1", sellScale: "1", slots: [] });
  });

  it("keeps a built grid with both sides where it is when the mid moves, without a note", () => {
    const s = grid();
    const built = s.step(s.init({ now: 0, random }), ctx(market("99.99", "100.01")));
    expect(built).not.toHaveProperty("note");
    const moved = s.step(built.state, ctx(market("49.99", "50.01")));
    expect(moved.state).toEqual(built.state);
    expect(moved.want).toEqual(built.want);
    expect(moved).not.toHaveProperty("note");
  });

  it("when every Sell filled, rebuilds with the Sells' quotes x (1 - RF) and the Buys' x (1 + RF)", () => {
    const s = grid();
    let state = s.step(s.init({ now: 0, random }), ctx(market("99.99", "100.01"))).state;
    for (const w of state.slots.filter((x) => x.side === "Sell"))
      state = s.closed(state, { order: resting(w), filled: w.amount, complete: true }, { now: 1, random, decimals });
    const rebuilt = s.step(state, ctx(market("101.99", "102.01")));
    expect(rebuilt.state).toMatchObject({ builds: 2, buyScale: "1.5", sellScale: "0.5", center: "102" });
    // Buy quote 100 x 1.5 at 102 x 0.99 = 100.98; Sell quote 100 x 0.5 at 103.02
    expect(rebuilt.want[0]).toEqual({ slot: 0, side: "Buy", price: "100.98", amount: "1.485442" });
    expect(rebuilt.want[1]).toEqual({ slot: 2, side: "Sell", price: "103.02", amount: "0.485342" });
  });

  it("leaves out, and counts in a note, the orders whose amount is zero at the pair's decimals", () => {
    const s = grid({ quote: 2, size: 2, percent: 99 });
    // s = 0.99: a Buy at 1 of quote 1 (amount 1) and a Sell at 199 of quote 1 (amount 0.005 → 0)
    const out = s.step(s.init({ now: 0, random }), ctx(market("99.99", "100.01"), [], 0, { price: 2, amount: 0 }));
    expect(out.want).toEqual([{ slot: 0, side: "Buy", price: "1", amount: "1" }]);
    expect(out.note).toBe("1 grid orders are zero at the pair's decimals");
  });

  it("keeps an order only when side, price and amount are the slot's", () => {
    const s = grid();
    const state = s.init({ now: 0, random });
    const c = ctx(market("99.99", "100.01"));
    const want: Wanted = { slot: 0, side: "Buy", price: "99", amount: "1.010101" };
    expect(s.keep(resting(want), want, state, c)).toBe(true);
    expect(s.keep(resting({ ...want, price: "98.99" }), want, state, c)).toBe(false);
  });

  it("a fill changes its own slot only", () => {
    const s = grid();
    const built = s.step(s.init({ now: 0, random }), ctx(market("99.99", "100.01"))).state;
    const after = s.closed(
      built,
      { order: resting(built.slots[0]!), filled: "1.010101", complete: true },
      { now: 1, random, decimals },
    );
    expect(after.slots.filter((w) => w.slot !== 0)).toEqual(built.slots.filter((w) => w.slot !== 0));
  });

  it("counts open Buys and Sells apart in its state record", () => {
    const s = grid();
    const open = [
      resting({ slot: 0, side: "Buy", price: "99", amount: "1" }),
      resting({ slot: 1, side: "Buy", price: "98", amount: "1" }),
      resting({ slot: 2, side: "Sell", price: "101", amount: "1" }),
    ];
    expect(s.view(s.init({ now: 0, random }), open)).toEqual({ onBuy: 2, onSell: 1 });
  });
});

describe("liquidity arranger at its edges (docs/decisions.md#d24)", () => {
  it("normalQuantile is the standard normal's inverse CDF to 1e-8, in the tails and the middle", () => {
    // reference values: Python's statistics.NormalDist().inv_cdf
    const reference: [number, number][] = [
      [0.001, -3.090232306167813],
      [0.02, -2.0537489106318225],
      [0.3, -0.5244005127080407],
      [0.5, 0],
      [0.7, 0.5244005127080407],
      [0.975, 1.9599639845400536],
      [0.999, 3.090232306167813],
    ];
    for (const [p, z] of reference) expect(normalQuantile(p)).toBeCloseTo(z, 8);
  });

  it("shapes linear as t and exponential5 as (e^(5t) - 1)/(e^5 - 1); an unknown shape is refused by name", () => {
    expect(shape("linear", 0.3)).toBe(0.3);
    expect(shape("exponential5", 0.5)).toBeCloseTo((Math.exp(2.5) - 1) / (Math.exp(5) - 1), 12);
    expect(() => shape("cubic", 0.5)).toThrow("Unknown strategy 'cubic'");
  });

  it("one order stands at P0 with quote Q0", () => {
    expect(la({ side: "Buy", ordersAmount: 1 }).step({}, ctx(market("99.99", "100.01"))).want).toEqual([
      { slot: 0, side: "Buy", price: "90", amount: "0.111111" },
    ]);
  });

  it("the linear ladder is exact, not read through 12 significant digits", () => {
    const s = la({ side: "Buy", ordersAmount: 4, P0: 1, P1: 3_000_001, Q0: 1000, Q1: 1000 });
    const { want } = s.step({}, ctx(market("9999999", "10000001")));
    expect(want.map((w) => w.price)).toEqual(["1", "1000001", "2000001", "3000001"]);
  });

  it("needs no fill look-up, has an empty state, and counts open Buys and Sells apart", () => {
    const s = la({});
    expect(s.tracksFills).toBe(false);
    expect(s.init({ now: 0, random })).toEqual({});
    const order = resting({ slot: 0, side: "Buy", price: "90", amount: "0.111111" });
    expect(s.closed({}, { order, filled: "0.1", complete: false }, { now: 0, random, decimals })).toEqual({});
    const open = [
      order,
      resting({ slot: 1, side: "Buy", price: "92", amount: "1" }),
      resting({ slot: 4, side: "Sell", price: "98", amount: "1" }),
    ];
    expect(s.view({}, open)).toEqual({ onBuy: 2, onSell: 1 });
  });

  it("an order already resting at its crossing slot price stays; the other crossing slots wait", () => {
    const s = la({ side: "Buy", P0: 95, P1: 105 });
    // slots 95, 97.5, 100, 102.5, 105; the ask is 100.01, so 102.5 and 105 would cross
    const open = [
      resting({ slot: 2, side: "Buy", price: "100", amount: "0.3" }),
      resting({ slot: 3, side: "Buy", price: "102.5", amount: "0.390243" }),
    ];
    const out = s.step({}, ctx(market("99.99", "100.01"), open));
    expect(out.want.map((w) => [w.slot, w.price])).toEqual([
      [0, "95"],
      [1, "97.5"],
      [2, "100"],
      [3, "102.5"],
    ]);
    expect(out.note).toBe("1 slots wait: they would cross the book");
    const wrongSide = [resting({ slot: 3, side: "Sell", price: "102.5", amount: "0.390243" })];
    expect(s.step({}, ctx(market("99.99", "100.01"), wrongSide)).want.map((w) => w.slot)).toEqual([0, 1, 2]);
  });

  it("leaves out a slot of quote 0 and counts it beside the waiting ones", () => {
    const out = la({ side: "Buy", P0: 95, P1: 105, Q0: 0, Q1: 40 }).step({}, ctx(market("99.99", "100.01")));
    expect(out.want.map((w) => w.slot)).toEqual([1, 2]);
    expect(out.note).toBe("2 slots wait: they would cross the book; 1 slots are zero at the pair's decimals");
  });

  it("says only that slots are zero when none waits", () => {
    const out = la({ side: "Buy", Q0: 0 }).step({}, ctx(market("99.99", "100.01")));
    expect(out.want.map((w) => w.slot)).toEqual([1, 2, 3, 4]);
    expect(out.note).toBe("1 slots are zero at the pair's decimals");
  });
});

describe("spread-decompression bot at its edges (docs/decisions.md#d23)", () => {
  it("asks the runner for the filled amount of cancelled orders, and starts with no check due and no fills", () => {
    const s = sd();
    expect(s.tracksFills).toBe(true);
    expect(s.init({ now: 0, random })).toEqual({ nextCheckAt: 0, fills: [] });
  });

  it("places both sides without a note", () => {
    const s = sd();
    const out = s.step(s.init({ now: 0, random }), ctx(market("98", "102")));
    expect(out.want).toHaveLength(2);
    expect(out).not.toHaveProperty("note");
  });

  it("a fill leaves the daily quote exactly 24 h after it, and leaves the state too", () => {
    const s = sd({ quoteUp: 10, dailyQuoteUp: 15, minQuote: 6 });
    const buy = resting({ slot: 0, side: "Buy", price: "100", amount: "0.1" });
    const state = s.closed(
      s.init({ now: 0, random }),
      { order: buy, filled: "0.1", complete: true },
      { now: 1_000_000, random, decimals },
    );
    const before = s.step(state, ctx(market("98", "102"), [], 1_000_000 + 86_399_999));
    expect(before.want.map((w) => w.side)).toEqual(["Sell"]);
    const after = s.step(state, ctx(market("98", "102"), [], 1_000_000 + 86_400_000));
    expect(after.want.map((w) => w.side)).toEqual(["Buy", "Sell"]);
    expect(after.state.fills).toEqual([]);
  });

  it("places nothing when one side of the others' book is empty, and says so", () => {
    const s = sd();
    const out = s.step(s.init({ now: 0, random }), ctx(market("98", "102", { asks: [] })));
    expect(out).toEqual({
      state: { nextCheckAt: 1_010_000, fills: [] },
      want: [],
      wakeAt: 1_010_000,
      note: "one side of the book is empty",
    });
  });

  it("with its Sell resting, places the Buy and keeps the Sell", () => {
    const s = sd();
    const sell = resting({ slot: 1, side: "Sell", price: "101.99", amount: "0.098048" }, 1_000_000);
    const out = s.step(s.init({ now: 0, random }), ctx(market("98", "102"), [sell]));
    expect(out.want).toEqual([
      { slot: 1, side: "Sell", price: "101.99", amount: "0.098048" },
      { slot: 0, side: "Buy", price: "98.01", amount: "0.10203" },
    ]);
  });

  it("places no side whose amount is zero at the pair's decimals, and says so", () => {
    const s = sd();
    const out = s.step(s.init({ now: 0, random }), ctx(market("98", "102"), [], 1_000_000, { price: 2, amount: 0 }));
    expect(out.want).toEqual([]);
    expect(out.note).toBe("Buy amount is zero at the pair's decimals; Sell amount is zero at the pair's decimals");
  });

  it("a Sell fill spends the Sell side's daily quote, not the Buy side's", () => {
    const s = sd({ quoteDown: 10, dailyQuoteDown: 15, minQuote: 6 });
    const sell = resting({ slot: 1, side: "Sell", price: "100", amount: "0.1" });
    const state = s.closed(
      s.init({ now: 0, random }),
      { order: sell, filled: "0.1", complete: true },
      { now: 1_000_000, random, decimals },
    );
    expect(s.view(state, []).dailyQuoteLeft).toEqual({ Buy: "100", Sell: "5" });
    const out = s.step(state, ctx(market("98", "102")));
    expect(out.want.map((w) => w.side)).toEqual(["Buy"]);
    expect(out.note).toBe("Sell quote 5 is below minQuote 6");
  });

  it("never keeps an order for a slot of the other side", () => {
    const s = sd();
    const state = s.init({ now: 0, random });
    const c = ctx(market("98", "102"), [], 1_000_000);
    const buy = resting({ slot: 0, side: "Buy", price: "98.01", amount: "0.1" }, 1_000_000);
    expect(s.keep(buy, { slot: 0, side: "Sell", price: "98.01", amount: "0.1" }, state, c)).toBe(false);
  });

  it("its state record lists each open order with its fill and placing time", () => {
    const s = sd();
    const order = { ...resting({ slot: 0, side: "Buy", price: "98.01", amount: "0.1" }, 7), filled: "0.02" };
    expect(s.view(s.init({ now: 0, random }), [order]).orders).toEqual([
      { id: "id-0", side: "Buy", price: "98.01", amount: "0.1", filled: "0.02", placedAt: 7 },
    ]);
  });
});
