/**
 * The runner's edges on paper with a pinned clock (docs/bots.md): no published change for an
 * unchanged state, the arranger's slot at the mid, the spread-decompression refill, paper's
 * settable spread and the waiting notes, the spending limit in USDT with resting exposure.
 */
import { afterEach, describe, expect, it } from "vitest";
import { paperSpreads } from "../../exchanges/paper/market.js";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { Decimal } from "../../lib/decimal.js";
import type { BotState } from "../../server/bots/runner.js";
import { paperOn } from "../paper/helpers.js";
import { bookAt, startBot, T0, TestClock, tempDataDir, waitFor } from "./helpers.js";

const SPREAD_ENV = process.env.SPOTDESK_PAPER_SPREAD;
afterEach(() => {
  if (SPREAD_ENV === undefined) delete process.env.SPOTDESK_PAPER_SPREAD;
  else process.env.SPOTDESK_PAPER_SPREAD = SPREAD_ENV;
});

/** (ask - bid) / mid x 100 of paper's synthetic book at `ms`. */
function spreadAt(ms: number, pair = "BTC/USDT"): Decimal {
  const book = bookAt(ms, pair);
  const bid = new Decimal(book.bids[0]![0]);
  const ask = new Decimal(book.asks[0]![0]);
  return ask.minus(bid).dividedBy(bid.plus(ask).dividedBy(2)).times(100);
}

/** The adapter with a count of its open-order listings: the runner lists once per sync (one a clock second here). */
function counting(adapter: ExchangeAdapter): { adapter: ExchangeAdapter; listings: () => number } {
  let listings = 0;
  const wrapped = Object.create(adapter) as ExchangeAdapter;
  wrapped.fetchOpenOrders = (pair: string) => {
    listings++;
    return adapter.fetchOpenOrders(pair);
  };
  return { adapter: wrapped, listings: () => listings };
}

/** Moves the clock second by second, each time until the runner has looked at the new second. */
async function stepSeconds(clock: TestClock, seconds: number, listings: () => number): Promise<void> {
  for (let i = 0; i < seconds; i++) {
    const before = listings();
    clock.ms += 1000;
    await waitFor(() => listings() > before, `the runner's look at second ${i + 1}`);
  }
}

describe('no published change for an unchanged state (docs/bots.md "The runner")', () => {
  it("an idle price-bounds bot publishes its state once, not at every move of the mid", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const { adapter, listings } = counting(paperOn(dataDir, clock, { account: "bots" }));
    const published: BotState[] = [];
    startBot(
      "floating-bot",
      {
        main: { pair: "BTC/USDT", side: "Buy", quote: 50, percent: 1, marginOfError: 0.1 },
        modules: { "price-bounds": { min: 1, max: 2 } },
      },
      {
        clock,
        dataDir,
        adapter,
        extra: {
          onState: (state, isPublished) => {
            if (isPublished) published.push(state);
          },
        },
      },
    );
    await waitFor(() => published.some((s) => s.note !== undefined), "the note");
    const before = published.length;
    // 30 seconds in which paper's mid moves (and with it the target, mid x 0.99)
    await stepSeconds(clock, 30, listings);
    expect(published.slice(before)).toEqual([]);
    expect(published[published.length - 1]).toMatchObject({
      status: "running",
      order: null,
      note: "target above the price bounds [1, 2]: nothing placed",
    });
  });
});

describe('paper\'s spread can be set per pair (docs/paper-store.md "Spread")', () => {
  it("SPOTDESK_PAPER_SPREAD=BTC/USDT=2 widens BTC/USDT to at least 2% and leaves the other pairs as they were", () => {
    delete process.env.SPOTDESK_PAPER_SPREAD;
    const defaults = Array.from({ length: 60 }, (_, i) => spreadAt(T0 + i * 1000));
    // paper's own spread: one or a few levels of 1 USDT at 65 000, about 0.003-0.013%
    expect(defaults.every((s) => s.lt(0.02))).toBe(true);
    const ethBefore = bookAt(T0, "ETH/USDT");
    process.env.SPOTDESK_PAPER_SPREAD = "BTC/USDT=2, eth/btc=0.5";
    for (let i = 0; i < 60; i++) {
      const s = spreadAt(T0 + i * 1000);
      expect(s.gte(2)).toBe(true);
      expect(s.lt(2.1)).toBe(true); // 2% plus at most a few empty levels of 1 USDT
    }
    expect(spreadAt(T0, "ETH/BTC").gte(0.5)).toBe(true);
    expect(bookAt(T0, "ETH/USDT")).toEqual(ethBefore);
  });

  it("a bad entry is refused naming it", () => {
    expect(() => paperSpreads({ SPOTDESK_PAPER_SPREAD: "BTC/USDT=two" })).toThrow(
      "SPOTDESK_PAPER_SPREAD entry 'BTC/USDT=two' is not PAIR=PERCENT with a percent from 0 to 50 (for example BTC/USDT=2)",
    );
    expect(() => paperSpreads({ SPOTDESK_PAPER_SPREAD: "DOGE/USDT=2" })).toThrow(
      /SPOTDESK_PAPER_SPREAD entry 'DOGE\/USDT=2': Unknown pair 'DOGE\/USDT'/,
    );
    expect(() => paperSpreads({ SPOTDESK_PAPER_SPREAD: "BTC/USDT=51" })).toThrow(/from 0 to 50/);
  });
});

const sdSetup = {
  pair: "BTC/USDT",
  quoteUp: 50,
  dailyQuoteUp: 500,
  quoteDown: 50,
  dailyQuoteDown: 500,
  minQuote: 1,
  delay: 1,
  refillPeriod: 60,
};

describe('spread decompression on paper (docs/bots.md "Spread decompression")', () => {
  it("on paper's own spread it waits and its state says why: 'spread 0.0…% ≤ acceptable 1%'", async () => {
    delete process.env.SPOTDESK_PAPER_SPREAD;
    const clock = new TestClock(T0);
    const bot = startBot("spread-decompression-bot", sdSetup, { clock });
    const state = await waitFor(() => bot.states.find((s) => typeof s.note === "string"), "the note");
    expect(state.note).toMatch(/^spread 0\.0\d+% ≤ acceptable 1%$/);
    expect(state.orders).toEqual([]);
    expect(await bot.adapter.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it("with BTC/USDT's spread set to 2% it places a Buy one step above the bid and a Sell one step below the ask", async () => {
    process.env.SPOTDESK_PAPER_SPREAD = "BTC/USDT=2";
    const clock = new TestClock(T0);
    const bot = startBot("spread-decompression-bot", sdSetup, { clock });
    const orders = await waitFor(async () => {
      const open = await bot.adapter.fetchOpenOrders("BTC/USDT");
      return open.length === 2 ? open : undefined;
    }, "both orders");
    const book = bookAt(T0);
    const bySide = Object.fromEntries(orders.map((o) => [o.side, o.price]));
    expect(bySide).toEqual({
      Buy: new Decimal(book.bids[0]![0]).plus("0.01").toFixed(),
      Sell: new Decimal(book.asks[0]![0]).minus("0.01").toFixed(),
    });
  });

  it("a refill keeps an order whose inside price did not move (same id, its queue place), and moves one whose price moved", async () => {
    process.env.SPOTDESK_PAPER_SPREAD = "BTC/USDT=2";
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const adapter = paperOn(dataDir, clock, { account: "bots" });
    const bot = startBot("spread-decompression-bot", sdSetup, { clock, dataDir, adapter });
    const first = await waitFor(async () => {
      const open = await adapter.fetchOpenOrders("BTC/USDT");
      return open.length === 2 ? open : undefined;
    }, "both orders");
    const bid0 = bookAt(T0).bids[0]![0];
    const buy = first.find((o) => o.side === "Buy")!;
    /** the first second from `from` on whose others' best bid is (or is not) the one the Buy was placed on */
    const secondWhere = (from: number, sameBid: boolean) => {
      for (let t = from; t < from + 3_600_000; t += 1000) if ((bookAt(t).bids[0]![0] === bid0) === sameBid) return t;
      throw new Error("no such second within an hour");
    };
    // past the refill period (60 s), the inside bid unchanged: the Buy stays, same id
    clock.ms = secondWhere(T0 + 60_000, true);
    await waitFor(
      () =>
        (bot.last().runner?.strategy as { refreshed?: Record<string, number> } | undefined)?.refreshed?.[buy.id] ===
        clock.ms,
      "the refill that found the Buy's price unchanged",
    );
    expect((await adapter.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toContain(buy.id);
    // past another refill period, the inside bid moved: the Buy is moved to one step above it. (A
    // look that ran on the clock's new second before the feed showed its book found the old bid and
    // kept the Buy: the clock then moves on by another refill period.)
    clock.ms = secondWhere(clock.ms + 60_000, false);
    const refreshedAt = () =>
      (bot.last().runner?.strategy as { refreshed?: Record<string, number> } | undefined)?.refreshed?.[buy.id];
    const after = await waitFor(async () => {
      const b = (await adapter.fetchOpenOrders("BTC/USDT")).find((o) => o.side === "Buy");
      if (b && b.id !== buy.id) return b;
      if (refreshedAt() === clock.ms) clock.ms = secondWhere(clock.ms + 60_000, false);
      return undefined;
    }, "the moved Buy");
    expect((await adapter.fetchOrder("BTC/USDT", buy.id)).status).toBe("canceled");
    expect(after.price).toBe(new Decimal(bookAt(clock.ms).bids[0]![0]).plus("0.01").toFixed());
  });
});

/**
 * A floating Buy close to the mid (it fills within seconds on paper) under spending-limits {limit
 * 50, period 3600}: second by second, what filled (each order the bot placed, looked up) plus what
 * rests, counted in USDT at the mid, until the limit is reached.
 */
async function spendingRun(pair: "BTC/USDT" | "ETH/BTC", quote: number, decimals: { price: number; amount: number }) {
  delete process.env.SPOTDESK_PAPER_SPREAD;
  const clock = new TestClock(T0);
  const dataDir = tempDataDir();
  const { adapter, listings } = counting(paperOn(dataDir, clock, { account: "bots" }));
  const bot = startBot(
    "floating-bot",
    {
      main: { pair, side: "Buy", quote, percent: 0.01, marginOfError: 1 },
      modules: { "spending-limits": { limit: 50, period: 3600 } },
    },
    { clock, dataDir, adapter, extra: { decimals } },
  );
  const usdt = (ms: number) => (pair === "BTC/USDT" ? new Decimal(1) : new Decimal(bookAt(ms, "BTC/USDT").mid));
  await waitFor(() => bot.last()?.order, "the first order");
  const ids = new Set<string>();
  const totals: { filled: Decimal; resting: Decimal }[] = [];
  for (let second = 0; second < 900; second += 3) {
    await stepSeconds(clock, 3, listings);
    for (const s of bot.states) {
      const order = s.order as { id: string } | null | undefined;
      if (order) ids.add(order.id);
    }
    let filled = new Decimal(0); // in the quote currency
    let resting = new Decimal(0);
    for (const id of ids) {
      const o = await adapter.fetchOrder(pair, id);
      filled = filled.plus(new Decimal(o.filled).times(o.price));
      if (o.status === "open") resting = resting.plus(new Decimal(o.amount).minus(o.filled).times(o.price));
    }
    totals.push({ filled, resting: resting.times(usdt(clock.ms)) });
    const note = bot.last()?.note;
    if (typeof note === "string" && note.startsWith("spending limit reached")) break;
  }
  return { bot, totals, usdt };
}

describe('spending-limits in USDT, resting exposure counted (docs/bots.md "Floating")', () => {
  it("BTC/USDT, limit 50 and orders of 20: filled + resting never above 50 USDT (it was 59.58 filled a window)", async () => {
    const { bot, totals } = await spendingRun("BTC/USDT", 20, { price: 2, amount: 6 });
    for (const t of totals) expect(t.filled.plus(t.resting).lte(50)).toBe(true);
    const last = totals[totals.length - 1]!;
    // two orders of 20 filled, then the third is sized to the 10 left
    expect(last.filled.gt(49)).toBe(true);
    expect(bot.last().note).toMatch(/^spending limit reached: (49\.\d+|50) of 50 USDT filled in the last 3600 s$/);
  }, 90_000);

  it("ETH/BTC: the limit is 50 USDT (the quote's BTC counted at BTC/USDT's mid), not 50 BTC", async () => {
    // 0.0003 BTC an order, about 19.5 USDT at paper's BTC/USDT mid
    const { bot, totals } = await spendingRun("ETH/BTC", 0.0003, { price: 6, amount: 4 });
    const fills = (bot.last().runner?.strategy as { fills: { quote: string }[] } | undefined)?.fills ?? [];
    const spent = fills.reduce((sum, f) => sum.plus(f.quote), new Decimal(0));
    expect(spent.lte(50)).toBe(true);
    expect(spent.gt(45)).toBe(true);
    for (const t of totals) expect(t.resting.lte(50)).toBe(true);
    const filledBtc = totals[totals.length - 1]!.filled;
    expect(filledBtc.lt(0.001)).toBe(true); // about 50 USDT of BTC, nowhere near 50 BTC
    expect(bot.last().note).toMatch(/^spending limit reached: \d+(\.\d+)? of 50 USDT filled in the last 3600 s$/);
  }, 90_000);
});

describe('remove cancels by batch where the venue has one (docs/bots.md "The runner")', () => {
  it("100 orders on paper (batches of 100): one batch cancel, no single cancel, every order cancelled", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const paper = paperOn(dataDir, clock, { account: "bots" });
    const calls = { batch: 0, single: 0 };
    const adapter = Object.create(paper) as ExchangeAdapter;
    adapter.cancelBatch = (pair, ids) => {
      calls.batch++;
      return paper.cancelBatch(pair, ids);
    };
    adapter.cancelOrder = (pair, id) => {
      calls.single++;
      return paper.cancelOrder(pair, id);
    };
    const bot = startBot(
      "liquidity-arranger-bot",
      { pair: "BTC/USDT", ordersAmount: 100, side: "Buy", P0: 50000, P1: 60000, Q0: 5, Q1: 5 },
      { clock, dataDir, adapter },
    );
    await waitFor(async () => (await paper.fetchOpenOrders("BTC/USDT")).length === 100, "the 100 orders");
    const placed = bot.runner.openOrders.map((o) => o.id);
    await bot.runner.stop({ cancelOrders: true });
    expect(calls).toEqual({ batch: 1, single: 0 });
    expect(await paper.fetchOpenOrders("BTC/USDT")).toEqual([]);
    for (const id of placed) expect((await paper.fetchOrder("BTC/USDT", id)).status).toBe("canceled");
  });
});
