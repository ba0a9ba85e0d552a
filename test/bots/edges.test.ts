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
