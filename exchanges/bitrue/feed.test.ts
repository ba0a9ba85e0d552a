import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { BitrueFeed } from "./feed.js";
import { BitrueMock } from "./ws-mock.js";

const CHANNEL = "market_btcusdt_simple_depth_step0";

describe("bitrue feed (snapshots only)", () => {
  let mock: BitrueMock;
  let feed: BitrueFeed | undefined;

  beforeEach(async () => {
    mock = await BitrueMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.server.url, extra);
    feed = createFeed("bitrue", "BTC/USDT", options) as BitrueFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes simple_depth_step0 on open and replaces the book with every gzip push, levels removed included (docs/exchange-rules.md#states 'full snapshot in every message')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.depth).toBe(20);
    expect(mock.subscriptions).toEqual([CHANNEL]);
    expectSameBook(feed.book, mock.truth);
    mock.truth.set("bid", "99.50", "0");
    mock.truth.set("ask", "100.25", "7");
    mock.push(CHANNEL);
    await waitFor(() => sameBook(feed.book, mock.truth), "second snapshot");
    expectSameBook(feed.book, mock.truth);
  });

  it("answers the server's ping with pong (docs/exchange-rules.md#states 'The socket answers server pings')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ping("1663815268584");
    await waitFor(() => mock.pongs === 1, "pong");
    // the documented string form and a number form are echoed as they came
    mock.ping(1663815268585);
    await waitFor(() => mock.pongs === 2, "second pong");
    expect(mock.pingPongs).toEqual([
      { ping: "1663815268584", pong: "1663815268584" },
      { ping: 1663815268585, pong: 1663815268585 },
    ]);
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
    mock.server.broadcast(Buffer.from([0x1f, 0x8b, 0, 0]));
    mock.server.broadcast(JSON.stringify({ channel: CHANNEL, tick: { buys: [["1", "x"]] } }));
    mock.truth.set("bid", "99.00", "0");
    mock.push(CHANNEL);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    // the first unreadable frame throws the book away and takes it again (docs/feeds.md); later ones may reach the old socket
    expect(feed.stats.parseFailures).toBeGreaterThanOrEqual(1);
    expect(feed.stats.resyncs).toBeGreaterThanOrEqual(1);
    expect(logger.has("not understood")).toBe(true);
  });
});
