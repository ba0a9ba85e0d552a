import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { ProbitFeed } from "./feed.js";
import { ProbitMock } from "./ws-mock.js";

const MARKET = "BTC-USDT";

describe("probit feed", () => {
  let mock: ProbitMock;
  let feed: ProbitFeed | undefined;

  beforeEach(async () => {
    mock = await ProbitMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.server.url, extra);
    feed = createFeed("probit", "BTC/USDT", options) as ProbitFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes marketdata order_books, takes the reset snapshot, then applies changes where amount 0 removes a level (docs/exchange-rules.md#states)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.depth).toBe(50);
    expect(mock.subscriptions).toEqual([`${MARKET}:order_books`]);
    expectSameBook(feed.book, mock.truth);
    mock.update(
      MARKET,
      [
        ["99.50", "0"],
        ["99.70", "1.5"],
      ],
      [["100.00", "0"]],
    );
    mock.update(MARKET, [["99.70", "2.25"]], [["100.05", "3"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "changes");
    expectSameBook(feed.book, mock.truth);
    expect(feed.book.top(50).bids.some(([p]) => p === "99.5")).toBe(false);
  });

  it("after a drop reconnects, resubscribes and rebuilds from the new reset, not from the old book (docs/decisions.md#d14)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.drop();
    mock.update(MARKET, [["99.00", "0"]], [["100.50", "0"]], { send: false });
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after reconnect");
    expectSameBook(feed.book, mock.truth);
  });

  it("has no sequence numbers: a stalled book is marked stale and a new socket brings a fresh reset (issue 4)", async () => {
    const { feed } = open({ staleAfterMs: 150 });
    await waitFor(() => feed.state === "live", "live");
    mock.update(MARKET, [["99.20", "8"]], [], { send: false }); // lost: only a fresh reset brings it
    const states: string[] = [];
    feed.onState((s) => states.push(s));
    await waitFor(
      () => states.includes("stale") && mock.subscriptions.length === 2 && feed.state === "live",
      "stale, renewed",
    );
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after renewal");
  });

  it("logs garbage and a row with an unknown side, and survives (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.broadcast("nope");
    mock.server.broadcast(
      JSON.stringify({
        channel: "marketdata",
        market_id: MARKET,
        order_books: [{ side: "up", price: "1", quantity: "1" }],
      }),
    );
    mock.update(MARKET, [["99.30", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    // the first unreadable frame throws the book away and takes it again (docs/feeds.md); later ones may reach the old socket
    expect(feed.stats.parseFailures).toBeGreaterThanOrEqual(1);
    expect(feed.stats.resyncs).toBeGreaterThanOrEqual(1);
    expect(logger.has("not understood")).toBe(true);
  });
});
