import { describe, expect, it, vi } from "vitest";
import { createPaperFeed, paperBook } from "../../exchanges/paper/index.js";
import type { FeedState } from "../../exchanges/types.js";
import { market, paperOn, SEED, T0, TestClock, tempDataDir } from "./helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("paper's book feed", () => {
  it("goes connecting → live on start and closed on stop", () => {
    const feed = createPaperFeed("BTC/USDT", { now: new TestClock().now, seed: SEED });
    const states: FeedState[] = [];
    feed.onState((s) => states.push(s));
    expect(feed.state).toBe("connecting");
    feed.start();
    expect(feed.state).toBe("live");
    feed.stop();
    expect(states).toEqual(["live", "closed"]);
    expect(feed.state).toBe("closed");
  });

  it("fills the order book with the synthetic market at the clock's instant, to the requested depth", () => {
    const clock = new TestClock(T0 + 42_000);
    const feed = createPaperFeed("ETH/USDT", { now: clock.now, seed: SEED, depth: 10 });
    feed.start();
    const expected = paperBook("ETH/USDT", { now: clock.now, seed: SEED, depth: 10 });
    expect(feed.book.top(50)).toEqual({ bids: expected.bids, asks: expected.asks });
    expect(feed.book.midPrice()).toBeDefined();
    feed.stop();
  });

  it("shows paper's default depth of 20 levels", () => {
    const feed = createPaperFeed("BTC/USDT", { now: new TestClock().now, seed: SEED });
    feed.start();
    expect(feed.book.bidCount).toBe(20);
    expect(feed.book.askCount).toBe(20);
    feed.stop();
  });

  it("takes a new snapshot when the market's second changes, and none while it does not", async () => {
    const clock = new TestClock();
    const feed = createPaperFeed("BTC/USDT", { now: clock.now, seed: SEED, intervalMs: 10 });
    let changes = 0;
    feed.onChange(() => changes++);
    feed.start();
    expect(changes).toBe(1);
    const version = feed.book.version;
    await sleep(60);
    expect(feed.book.version).toBe(version);
    clock.ms += 1000;
    await vi.waitFor(() => expect(changes).toBe(2), { timeout: 3000 });
    await sleep(60);
    expect(changes).toBe(2);
    expect(feed.book.top(20)).toEqual({
      bids: paperBook("BTC/USDT", { now: clock.now, seed: SEED }).bids,
      asks: paperBook("BTC/USDT", { now: clock.now, seed: SEED }).asks,
    });
    feed.stop();
  });

  it("stop() clears its timer: the book no longer moves", async () => {
    const clock = new TestClock();
    const feed = createPaperFeed("BTC/USDT", { now: clock.now, seed: SEED, intervalMs: 10 });
    feed.start();
    feed.stop();
    const version = feed.book.version;
    clock.ms += 5000;
    await sleep(60);
    expect(feed.book.version).toBe(version);
  });

  it("refresh() takes a fresh snapshot now", async () => {
    const clock = new TestClock();
    const feed = createPaperFeed("BTC/USDT", { now: clock.now, seed: SEED, intervalMs: 60_000 });
    feed.start();
    const version = feed.book.version;
    clock.ms += 3000;
    await feed.refresh();
    expect(feed.book.version).toBeGreaterThan(version);
    expect(feed.book.bestBid()).toEqual(paperBook("BTC/USDT", { now: clock.now, seed: SEED }).bids[0]);
    feed.stop();
  });

  it("with an account, shows the account's own open orders at their prices, and drops them once cancelled", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const m = market();
    const paper = paperOn(dir, clock);
    // the account exists first: the order below is a line of its journal, not of its snapshot
    await paper.fetchBalances();
    // a sell one tick above the best bid: inside the spread, so it becomes the best ask
    const inside = m.price(m.bestBidTicks(clock.bucket) + 1);
    const order = await paper.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.123", price: inside });
    const feed = createPaperFeed("BTC/USDT", {
      now: clock.now,
      seed: SEED,
      dataDir: dir,
      account: "default",
      intervalMs: 10,
    });
    feed.start();
    expect(feed.book.bestAsk()).toEqual([inside, "0.123"]);
    expect(feed.book.askCount).toBe(20);
    await paper.cancelOrder("BTC/USDT", order.id);
    await vi.waitFor(
      () => expect(feed.book.bestAsk()).toEqual(paperBook("BTC/USDT", { now: clock.now, seed: SEED }).asks[0]),
      {
        timeout: 3000,
      },
    );
    feed.stop();
  });

  it("an unknown pair is bad-input naming the known pairs", () => {
    expect(() => createPaperFeed("XRP/EUR", {})).toThrow(/Unknown pair 'XRP\/EUR'. Known pairs on paper: BTC\/USDT/);
  });
});
