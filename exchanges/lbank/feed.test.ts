import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { LbankFeed } from "./feed.js";
import { LbankMock } from "./ws-mock.js";

const PAIR = "btc_usdt";

describe("lbank feed (docs/decisions.md#d14: lbank gets a live book; snapshots only)", () => {
  let mock: LbankMock;
  let feed: LbankFeed | undefined;

  beforeEach(async () => {
    mock = await LbankMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.server.url, extra);
    feed = createFeed("lbank", "BTC/USDT", options) as LbankFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes depth 50 for the pair on open and replaces the book with every push, levels removed included (docs/exchange-rules.md#states 'full snapshot in every message')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.depth).toBe(50);
    expect(mock.subscriptions).toEqual([`${PAIR}@50`]);
    expectSameBook(feed.book, mock.truth);
    mock.truth.set("bid", "99.50", "0");
    mock.truth.set("ask", "100.25", "7");
    mock.push(PAIR);
    await waitFor(() => sameBook(feed.book, mock.truth), "second snapshot");
    expectSameBook(feed.book, mock.truth);
  });

  it("keeps every digit of levels written as bare JSON numbers, never rounding them through floats (docs/feeds.md)", async () => {
    mock.truth.set("bid", "99.987654321098765432", "0.100000000000000001");
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.book.top(1).bids[0]).toEqual(["99.987654321098765432", "0.100000000000000001"]);
    expectSameBook(feed.book, mock.truth);
  });

  it("reads levels written as strings as well as the documented JSON numbers (docs/feeds.md: both forms)", async () => {
    mock.numbers = false;
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth);
    mock.truth.set("ask", "100.00", "0");
    mock.push(PAIR);
    await waitFor(() => sameBook(feed.book, mock.truth), "second snapshot");
  });

  it("answers the server's ping with pong and sends its own ping as keep-alive (docs/exchange-rules.md#states)", async () => {
    const { feed } = open({ keepAliveMs: 40 });
    await waitFor(() => feed.state === "live" && mock.pings >= 1, "live, pinging");
    mock.ping();
    await waitFor(() => mock.pongs === 1, "pong");
    expect(feed.stats.parseFailures).toBe(0);
  });

  it("reconnects after a drop and resubscribes; a stalled book is marked stale and renewed (docs/decisions.md#d14, issue 4)", async () => {
    const { feed } = open({ staleAfterMs: 150 });
    await waitFor(() => feed.state === "live", "live");
    mock.server.drop();
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    const states: string[] = [];
    feed.onState((s) => states.push(s));
    await waitFor(
      () => states.includes("stale") && mock.subscriptions.length === 3 && feed.state === "live",
      "stale, renewed",
    );
    expectSameBook(feed.book, mock.truth);
  });

  it("logs garbage and survives it (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.broadcast("<html>");
    mock.server.broadcast(JSON.stringify({ type: "depth", pair: PAIR, depth: { bids: [["1", "x"]] } }));
    mock.truth.set("bid", "99.00", "0");
    mock.push(PAIR);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    // the first unreadable frame throws the book away and takes it again (docs/feeds.md); later ones may reach the old socket
    expect(feed.stats.parseFailures).toBeGreaterThanOrEqual(1);
    expect(feed.stats.resyncs).toBeGreaterThanOrEqual(1);
    expect(logger.has("not understood")).toBe(true);
  });
});
