/**
 * The runner's edges on paper with a pinned clock (docs/bots.md): no published change for an
 * unchanged state, the arranger's slot at the mid, the spread-decompression refill, paper's
 * settable spread and the waiting notes, the spending limit in USDT with resting exposure.
 */
import { describe, expect, it } from "vitest";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import type { BotState } from "../../server/bots/runner.js";
import { paperOn } from "../paper/helpers.js";
import { startBot, T0, TestClock, tempDataDir, waitFor } from "./helpers.js";

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
