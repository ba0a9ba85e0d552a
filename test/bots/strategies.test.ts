/**
 * The pure strategies against a given book (docs/decisions.md#d21–#d24, docs/bots.md): the orders wanted,
 * the reaction to a fill, and each floating module's effect.
 */
import { describe, expect, it } from "vitest";
import { Decimal } from "../../lib/decimal.js";
import { BOT_SCHEMAS, formatIssues, setupBotSchema } from "../../lib/schemas.js";
import { shape } from "../../server/bots/strategies/liquidity-arranger.js";
import { ctx, decimals, floating, grid, la, market, resting, sd } from "./strategy-fixtures.js";

describe("floating bot (docs/decisions.md#d21)", () => {
  it("wants one Buy at mid x (1 - p/100), amount quote / target, truncated to the pair's decimals", () => {
    const s = floating({});
    const { want } = s.step(s.init({ now: 0, random: () => 0.5 }), ctx(market("99.99", "100.01")));
    // mid 100, target 99.00, amount 100 / 99 = 1.010101|01… → 1.010101
    expect(want).toEqual([{ slot: 0, side: "Buy", price: "99", amount: "1.010101" }]);
  });

  it("wants a Sell at mid x (1 + p/100)", () => {
    const s = floating({ side: "Sell", percent: 2 });
    const { want } = s.step(s.init({ now: 0, random: Math.random }), ctx(market("99.99", "100.01")));
    expect(want).toEqual([{ slot: 0, side: "Sell", price: "102", amount: "0.980392" }]);
  });

  it("keeps the order while |price - target| / target x 100 <= marginOfError, replaces it beyond", () => {
    const s = floating({ marginOfError: 0.1 });
    const state = s.init({ now: 0, random: Math.random });
    const order = resting({ slot: 0, side: "Buy", price: "99", amount: "1.010101" });
    const near = s.step(state, ctx(market("100.08", "100.10"), [order])); // target 99.08: drift 0.08 %
    expect(s.keep(order, near.want[0]!, state, ctx(market("100.08", "100.10")))).toBe(true);
    const far = s.step(state, ctx(market("100.20", "100.22"), [order])); // target 99.20: drift 0.2 %
    expect(s.keep(order, far.want[0]!, state, ctx(market("100.20", "100.22")))).toBe(false);
  });

  it("after a fill or a cancel waits the replacement delay (1 s by default) before placing again", () => {
    const s = floating({});
    const order = resting({ slot: 0, side: "Buy", price: "99", amount: "1" });
    const after = s.closed(
      s.init({ now: 0, random: Math.random }),
      { order, filled: "1", complete: true },
      { now: 5000, random: Math.random, decimals },
    );
    expect(after.nextPlaceAt).toBe(6000);
    expect(s.step(after, ctx(market("99.99", "100.01"), [], 5500)).want).toEqual([]);
    expect(s.step(after, ctx(market("99.99", "100.01"), [], 5500)).wakeAt).toBe(6000);
    expect(s.step(after, ctx(market("99.99", "100.01"), [], 6000)).want).toHaveLength(1);
  });

  it("dynamic-price draws p and dynamic-quote draws q per placement, uniformly in [min, max]", () => {
    const s = floating({}, { "dynamic-price": { min: 2, max: 4 }, "dynamic-quote": { min: 50, max: 150 } });
    const low = s.init({ now: 0, random: () => 0 });
    expect(s.step(low, ctx(market("99.99", "100.01"))).want[0]).toMatchObject({
      price: "98",
      amount: String(new Decimal(50).dividedBy(98).decimalPlaces(6, 1)),
    });
    const high = s.closed(
      low,
      { order: resting({ slot: 0, side: "Buy", price: "98", amount: "1" }), filled: "0", complete: false },
      { now: 0, random: () => 0.75, decimals },
    );
    expect(high).toMatchObject({ p: "3.5", q: "125" });
    expect(s.step(high, ctx(market("99.99", "100.01"), [], 5000)).want[0]!.price).toBe("96.5");
  });

  it("dynamic-delay waits a random time between min and max seconds between replacements", () => {
    const s = floating({}, { "dynamic-delay": { min: 10, max: 20 } });
    const order = resting({ slot: 0, side: "Buy", price: "99", amount: "1" });
    const after = s.closed(
      s.init({ now: 0, random: Math.random }),
      { order, filled: "0", complete: false },
      { now: 1000, random: () => 0.25, decimals },
    );
    expect(after.nextPlaceAt).toBe(1000 + 12_500);
  });

  it("price-bounds never places outside [min, max]: nothing is wanted (so a resting order is cancelled) and the note says why", () => {
    const s = floating({}, { "price-bounds": { min: 100, max: 200 } });
    const out = s.step(s.init({ now: 0, random: Math.random }), ctx(market("99.99", "100.01")));
    expect(out.want).toEqual([]);
    expect(out.note).toBe("target below the price bounds [100, 200]: nothing placed");
    const inside = s.step(s.init({ now: 0, random: Math.random }), ctx(market("110", "112")));
    expect(inside.want[0]!.price).toBe("109.89");
  });

  it("spending-limits stops placing once the filled quote of the last period reaches the limit, and resumes after", () => {
    const s = floating({}, { "spending-limits": { limit: 150, period: 60 } });
    let state = s.init({ now: 0, random: Math.random });
    const order = resting({ slot: 0, side: "Buy", price: "100", amount: "1" });
    state = s.closed(state, { order, filled: "1", complete: true }, { now: 10_000, random: Math.random, decimals });
    expect(s.step(state, ctx(market("99.99", "100.01"), [], 20_000)).want).toHaveLength(1); // 100 of 150
    state = s.closed(state, { order, filled: "0.5", complete: false }, { now: 20_000, random: Math.random, decimals });
    const stopped = s.step(state, ctx(market("99.99", "100.01"), [], 30_000));
    expect(stopped.want).toEqual([]);
    expect(stopped.note).toMatch(/spending limit reached: 150 of 150 USDT/);
    expect(stopped.wakeAt).toBe(70_000);
    expect(s.step(state, ctx(market("99.99", "100.01"), [], 70_001)).want).toHaveLength(1);
  });

  it("its state record is `order`: the open order or null (docs/dashboard-rules.md#entities)", () => {
    const s = floating({});
    const state = s.init({ now: 0, random: Math.random });
    expect(s.view(state, [])).toEqual({ order: null });
    const o = resting({ slot: 0, side: "Buy", price: "99", amount: "1" }, 7);
    expect(s.view(state, [o])).toEqual({
      order: expect.objectContaining({
        pair: "BTC/USDT",
        id: "id-0",
        price: "99",
        side: "Buy",
        status: "open",
        timestamp: 7,
      }),
    });
  });
});

describe("grid bot (docs/decisions.md#d22)", () => {
  it("builds size/2 Buys at P(1 - k s) and size/2 Sells at P(1 + k s), s = percent/100/(size/2), each of quote/size", () => {
    const s = grid();
    const { want, state } = s.step(s.init({ now: 0, random: Math.random }), ctx(market("99.99", "100.01")));
    expect(want).toEqual([
      { slot: 0, side: "Buy", price: "99", amount: "1.010101" },
      { slot: 2, side: "Sell", price: "101", amount: "0.990099" },
      { slot: 1, side: "Buy", price: "98", amount: "1.020408" },
      { slot: 3, side: "Sell", price: "102", amount: "0.980392" },
    ]);
    expect(
      s.view(
        state,
        want.map((w) => resting(w)),
      ),
    ).toEqual({ onBuy: 2, onSell: 2 });
  });

  it("a filled Buy at x becomes a Sell of the same amount at x(1 + profit/100); a filled Sell a Buy of the same quote at x(1 - profit/100)", () => {
    const s = grid();
    const built = s.step(s.init({ now: 0, random: Math.random }), ctx(market("99.99", "100.01"))).state;
    const afterBuy = s.closed(
      built,
      { order: resting(built.slots[0]!), filled: "1.010101", complete: true },
      { now: 1, random: Math.random, decimals },
    );
    expect(afterBuy.slots.find((w) => w.slot === 0)).toEqual({
      slot: 0,
      side: "Sell",
      price: "99.99",
      amount: "1.010101",
    });
    const afterSell = s.closed(
      built,
      { order: resting(built.slots[1]!), filled: "0.990099", complete: true },
      { now: 1, random: Math.random, decimals },
    );
    // quote 101 x 0.990099 = 99.999999 at 99.99 → 1.0001
    expect(afterSell.slots.find((w) => w.slot === 2)).toEqual({
      slot: 2,
      side: "Buy",
      price: "99.99",
      amount: "1.0001",
    });
  });

  it("a cancelled (not filled) order is placed again as it was", () => {
    const s = grid();
    const built = s.step(s.init({ now: 0, random: Math.random }), ctx(market("99.99", "100.01"))).state;
    expect(
      s.closed(
        built,
        { order: resting(built.slots[0]!), filled: "0", complete: false },
        { now: 1, random: Math.random, decimals },
      ),
    ).toEqual(built);
  });

  it("when one side has no order left, rebuilds around the current mid: exhausted side x (1 - RF), the other x (1 + RF)", () => {
    const s = grid();
    let state = s.step(s.init({ now: 0, random: Math.random }), ctx(market("99.99", "100.01"))).state;
    for (const w of state.slots.filter((x) => x.side === "Buy"))
      state = s.closed(
        state,
        { order: resting(w), filled: w.amount, complete: true },
        { now: 1, random: Math.random, decimals },
      );
    const rebuilt = s.step(state, ctx(market("97.99", "98.01")));
    expect(rebuilt.state).toMatchObject({ builds: 2, buyScale: "0.5", sellScale: "1.5", center: "98" });
    // Buy quote 100 x 0.5 at 98 x 0.99 = 97.02; Sell quote 100 x 1.5 at 98.98
    expect(rebuilt.want[0]).toEqual({ slot: 0, side: "Buy", price: "97.02", amount: "0.515357" });
    expect(rebuilt.want[1]).toEqual({ slot: 2, side: "Sell", price: "98.98", amount: "1.515457" });
  });
});

describe("spread-decompression bot (docs/decisions.md#d23)", () => {
  it("when the spread exceeds acceptableSpread (1 by default), a Buy one step above the bid and a Sell one step below the ask", () => {
    const s = sd();
    const out = s.step(s.init({ now: 0, random: Math.random }), ctx(market("98", "102")));
    expect(out.want).toEqual([
      { slot: 0, side: "Buy", price: "98.01", amount: "0.10203" },
      { slot: 1, side: "Sell", price: "101.99", amount: "0.098048" },
    ]);
    expect(out.wakeAt).toBe(1_000_000 + 10_000);
  });

  it("places nothing while the spread is acceptable, and checks only every `delay` seconds", () => {
    const s = sd({ acceptableSpread: 5 });
    const first = s.step(s.init({ now: 0, random: Math.random }), ctx(market("98", "102")));
    expect(first.want).toEqual([]);
    const again = s.step(first.state, ctx(market("90", "110"), [], 1_005_000));
    expect(again.want).toEqual([]); // not yet: next check at 1 010 000
    expect(s.step(first.state, ctx(market("90", "110"), [], 1_010_000)).want).toHaveLength(2);
  });

  it("spends at most what is left of the daily quote of the last 24 h, and nothing below minQuote", () => {
    const s = sd({ quoteUp: 10, dailyQuoteUp: 15, quoteDown: 10, dailyQuoteDown: 100, minQuote: 6 });
    let state = s.init({ now: 0, random: Math.random });
    const buy = resting({ slot: 0, side: "Buy", price: "100", amount: "0.1" });
    state = s.closed(
      state,
      { order: buy, filled: "0.1", complete: true },
      { now: 1_000_000, random: Math.random, decimals },
    );
    expect(s.view(state, []).dailyQuoteLeft).toEqual({ Buy: "5", Sell: "100" });
    const out = s.step(state, ctx(market("98", "102"), [], 1_000_000));
    expect(out.want.map((w) => w.side)).toEqual(["Sell"]);
    expect(out.note).toMatch(/Buy quote 5 is below minQuote 6/);
    expect(s.step(state, ctx(market("98", "102"), [], 1_000_000 + 86_400_001)).want.map((w) => w.side)).toEqual([
      "Buy",
      "Sell",
    ]);
  });

  it("never crosses: when one step above the bid reaches the ask, that side is not placed", () => {
    expect(() => BOT_SCHEMAS["spread-decompression-bot"].parse({ pair: "BTC/USDT", acceptableSpread: 1 })).toThrow(
      /greater than 1/,
    );
    const s = sd({ acceptableSpread: 1.01 });
    // 0.01 to 0.04 is three steps: Buy 0.02 and Sell 0.03 fit
    expect(
      s.step(s.init({ now: 0, random: Math.random }), ctx(market("0.01", "0.04"))).want.map((w) => w.price),
    ).toEqual(["0.02", "0.03"]);
    // two steps: Buy 0.02 fits, the Sell at 0.02 would meet it (never its own match)
    const two = s.step(s.init({ now: 0, random: Math.random }), ctx(market("0.01", "0.03")));
    expect(two.want.map((w) => [w.side, w.price])).toEqual([["Buy", "0.02"]]);
    expect(two.note).toMatch(/Sell at 0.02 would meet its own Buy/);
    // one step: the Buy at 0.02 would meet the ask at 0.02 → neither side is placed
    const out = s.step(s.init({ now: 0, random: Math.random }), ctx(market("0.01", "0.02")));
    expect(out.want).toEqual([]);
    expect(out.note).toMatch(/Buy at 0.02 would cross; Sell at 0.01 would cross/);
  });

  it("an order older than refillPeriod is moved to the current inside prices only when they moved; else it stays in its queue place", () => {
    const s = sd();
    const state = s.init({ now: 0, random: Math.random });
    const young = resting({ slot: 0, side: "Buy", price: "98.01", amount: "0.1" }, 1_000_000);
    const c = ctx(market("98", "102"), [young], 1_059_999);
    expect(s.keep(young, s.step(state, c).want[0]!, state, c)).toBe(true);
    // aged, the inside bid unchanged (98): the same order is wanted and kept, its age counted afresh
    const c2 = ctx(market("98", "102"), [young], 1_060_000);
    const unchanged = s.step(state, c2);
    expect(unchanged.want[0]).toEqual({ slot: 0, side: "Buy", price: "98.01", amount: "0.1" });
    expect(s.keep(young, unchanged.want[0]!, unchanged.state, c2)).toBe(true);
    expect(unchanged.state.refreshed).toEqual({ "id-0": 1_060_000 });
    // until the next refill period it is not looked at again for its age
    const later = s.step(unchanged.state, ctx(market("97", "102"), [young], 1_065_000));
    expect(later.want[0]).toMatchObject({ price: "98.01" });
    // aged again and the bid moved to 97: moved to 97.01
    const c3 = ctx(market("97", "102"), [young], 1_120_000);
    const moved = s.step(unchanged.state, c3);
    expect(moved.want[0]).toMatchObject({ side: "Buy", price: "97.01" });
    expect(s.keep(young, moved.want[0]!, moved.state, c3)).toBe(false);
    // the refill (our cancel) is placed again at once, not at the next check
    const after = s.closed(
      { nextCheckAt: 2_000_000, fills: [] },
      { order: young, filled: "0", complete: false },
      { now: 1_060_000, random: Math.random, decimals },
    );
    expect(s.step(after, ctx(market("97", "102"), [], 1_060_000)).want[0]).toMatchObject({
      side: "Buy",
      price: "97.01",
    });
  });

  it("a bot that waits says why: 'spread 0.01% ≤ acceptable 1%'", () => {
    const s = sd();
    // 100.00 / 100.01: (0.01 / 100.005) x 100 = 0.009999…% → 0.01%
    const out = s.step(s.init({ now: 0, random: Math.random }), ctx(market("100", "100.01")));
    expect(out.want).toEqual([]);
    expect(out.note).toBe("spread 0.01% ≤ acceptable 1%");
    const tight = s.step(s.init({ now: 0, random: Math.random }), ctx(market("65000", "65002")));
    expect(tight.note).toBe("spread 0.003% ≤ acceptable 1%");
  });

  it("the inside prices are the others': its own order at the best bid is not stepped over", () => {
    const s = sd();
    const own = resting({ slot: 0, side: "Buy", price: "98.01", amount: "0.1" }, 1_000_000);
    const m = market("98.01", "102", {
      bids: [
        ["98.01", "0.1"],
        ["98", "1"],
      ],
    });
    const out = s.step(s.init({ now: 0, random: Math.random }), ctx(m, [own], 1_000_000));
    expect(out.want.filter((w) => w.side === "Buy")).toEqual([{ slot: 0, side: "Buy", price: "98.01", amount: "0.1" }]);
  });
});

describe("liquidity arranger (docs/decisions.md#d24)", () => {
  it("order i at t = i/(n-1): price P0 + (P1 - P0) f(t), quote Q0 + (Q1 - Q0) g(t), linear", () => {
    const { want } = la({ side: "Buy" }).step({}, ctx(market("99.99", "100.01")));
    expect(want.map((w) => [w.side, w.price, w.amount])).toEqual([
      ["Buy", "90", "0.111111"],
      ["Buy", "92", "0.217391"],
      ["Buy", "94", "0.319148"],
      ["Buy", "96", "0.416666"],
      ["Buy", "98", "0.510204"],
    ]);
  });

  it("shapes: exponentialK (e^(Kt) - 1)/(e^K - 1), gauss dense in the middle, inverseGauss large at the ends", () => {
    expect(shape("exponential3", 0.5)).toBeCloseTo((Math.exp(1.5) - 1) / (Math.exp(3) - 1), 12);
    expect(shape("gauss", 0)).toBe(0);
    expect(shape("gauss", 1)).toBe(1);
    expect(shape("gauss", 0.5)).toBeCloseTo(0.5, 8);
    // dense in the middle: the step near t = 0.5 is smaller than the step near the ends
    expect(shape("gauss", 0.55) - shape("gauss", 0.45)).toBeLessThan(shape("gauss", 0.1) - shape("gauss", 0));
    expect(shape("inverseGauss", 0)).toBeCloseTo(1, 12);
    expect(shape("inverseGauss", 0.5)).toBe(0);
    const { want } = la({ side: "Buy", priceStrategy: "exponential10" }).step({}, ctx(market("99.99", "100.01")));
    expect(want[2]!.price).toBe(
      String(
        new Decimal(90).plus(new Decimal(8).times(shape("exponential10", 0.5).toPrecision(12))).decimalPlaces(2, 1),
      ),
    );
  });

  it("without a side: Buys below the mid, Sells above; a slot that would cross the book waits", () => {
    const s = la({ P0: 95, P1: 105, ordersAmount: 5 });
    const out = s.step({}, ctx(market("99.99", "100.01")));
    expect(out.want.map((w) => [w.side, w.price])).toEqual([
      ["Buy", "95"],
      ["Buy", "97.5"],
      ["Sell", "102.5"],
      ["Sell", "105"],
    ]);
    expect(out.note).toMatch(/1 slots wait/);
    const sells = la({ side: "Sell", P0: 95, P1: 105 }).step({}, ctx(market("99.99", "100.01")));
    expect(sells.want.map((w) => w.price)).toEqual(["100", "102.5", "105"]);
  });

  it("the slot at the mid never buys and sells at one price: a resting Buy keeps its side while the mid wiggles past it", () => {
    // slots 99, 100, 101; the bot's Buy at 100 rests (not yet shown in the venue's book)
    const s = la({ P0: 99, P1: 101, ordersAmount: 3 });
    const buy = resting({ slot: 1, side: "Buy", price: "100", amount: "0.2" });
    // the others' mid falls to 99.995, just under the slot: the Buy does not cross (ask 100.01), so it stays a Buy
    const out = s.step({}, ctx(market("99.98", "100.01"), [buy]));
    expect(out.want.find((w) => w.slot === 1)).toMatchObject({ side: "Buy", price: "100" });
    // without a resting order, a slot exactly at the others' mid waits
    const atMid = s.step({}, ctx(market("99.99", "100.01")));
    expect(atMid.want.map((w) => [w.side, w.price])).toEqual([
      ["Buy", "99"],
      ["Sell", "101"],
    ]);
    expect(atMid.note).toBe("1 slots wait: at the mid");
  });

  it("never a Sell at or below its own Buy (nor a Buy at or above its own Sell): that slot waits", () => {
    // slots 100, 100.3, 100.6; others 99.50 / 101 (mid 100.25); its Buy at 100.6 rests and does not cross
    const s = la({ P0: 100, P1: 100.6, ordersAmount: 3 });
    const buy = resting({ slot: 2, side: "Buy", price: "100.6", amount: "0.1" });
    const out = s.step({}, ctx(market("99.5", "101"), [buy]));
    expect(out.want.map((w) => [w.slot, w.side, w.price])).toEqual([
      [0, "Buy", "100"],
      [2, "Buy", "100.6"],
    ]);
    expect(out.note).toBe("1 slots wait: they would meet the bot's own orders");
  });

  it("a filled or missing order is wanted again at its slot; an exact one is kept", () => {
    const s = la({ side: "Buy" });
    const first = s.step({}, ctx(market("99.99", "100.01")));
    const open = first.want.slice(1).map((w) => resting(w));
    const again = s.step({}, ctx(market("99.99", "100.01"), open));
    expect(again.want).toEqual(first.want);
    expect(open.every((o, i) => s.keep(o, again.want[i + 1]!, {}, ctx(market("99.99", "100.01"))))).toBe(true);
  });
});

describe("bot form validation (docs/dashboard-rules.md#validation, #constants)", () => {
  const issues = (botType: string, setup: unknown) => {
    const r = setupBotSchema.safeParse({ botType, setup });
    return r.success ? [] : formatIssues(r.error);
  };
  const main = { pair: "BTC/USDT", side: "Buy", quote: 10, percent: 1, marginOfError: 0.1 };

  it("a module param that is not a number is 'Incorrect params for {module} module'; negatives are taken as absolute values", () => {
    expect(issues("floating-bot", { main, modules: { "dynamic-price": { min: "x", max: 2 } } })).toEqual([
      "setup.modules.dynamic-price: Incorrect params for dynamic-price module",
    ]);
    expect(issues("floating-bot", { main, modules: { "spending-limits": { limit: 10 } } })).toEqual([
      "setup.modules.spending-limits: Incorrect params for spending-limits module",
    ]);
    expect(issues("floating-bot", { main, modules: { "price-bounds": { min: 5, max: 2 } } })).toEqual([
      "setup.modules.price-bounds: Incorrect params for price-bounds module",
    ]);
    const parsed = BOT_SCHEMAS["floating-bot"].parse({ main, modules: { "dynamic-delay": { min: -1, max: "-3" } } });
    expect(parsed.modules["dynamic-delay"]).toEqual({ min: 1, max: 3 });
  });

  it("percent within the sliders' ranges; grid order count even", () => {
    expect(issues("floating-bot", { main: { ...main, percent: 51 } })).toEqual([
      "setup.main.percent: Percent must be greater than 0 and at most 50",
    ]);
    expect(issues("floating-bot", { main: { ...main, marginOfError: 1.5 } })[0]).toMatch(
      /marginOfError: Margin of error must be between 0 and 1/,
    );
    expect(issues("grid-bot", { pair: "BTC/USDT", quote: 10, size: 3 })).toEqual([
      "setup.size: Order count must be greater than 0 and even",
    ]);
    expect(issues("grid-bot", { pair: "BTC/USDT", quote: 10, size: 4, percent: 0.5 })).toEqual([
      "setup.percent: Percent must be between 1 and 99",
    ]);
    expect(issues("grid-bot", { pair: "BTC/USDT", quote: 10, size: 4, profit: 6 })).toEqual([
      "setup.profit: Profit must be greater than 0 and at most 5",
    ]);
    expect(
      issues("liquidity-arranger-bot", {
        pair: "BTC/USDT",
        ordersAmount: 3,
        P0: 1,
        P1: 2,
        Q0: 1,
        Q1: 2,
        side: "Both",
      })[0],
    ).toMatch(/^setup.side/);
    expect(issues("liquidity-arranger-bot", { pair: "BTC/USDT", ordersAmount: 3, P0: 1, P1: 2, Q0: 1, Q1: 2 })).toEqual(
      [],
    );
  });
});
