import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { BybitFeed } from "./feed.js";
import { BybitMock } from "./ws-mock.js";

const TOPIC = "orderbook.50.BTCUSDT";

describe("bybit feed", () => {
  let mock: BybitMock;
  let feed: BybitFeed | undefined;

  beforeEach(async () => {
    mock = await BybitMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.url, extra);
    feed = createFeed("bybit", "btc/usdt", options) as BybitFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes orderbook.50 on open and shows the snapshot, then deltas with amount 0 removing a level (docs/exchange-rules.md#states)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([TOPIC]);
    expectSameBook(feed.book, mock.truth);
    mock.delta(
      TOPIC,
      [
        ["99.50", "0"],
        ["99.75", "3.5"],
      ],
      [
        ["100.00", "0"],
        ["100.25", "1"],
      ],
    );
    mock.delta(TOPIC, [["99.00", "7"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "deltas applied");
    expect(feed.book.bestBid()).toEqual(["99.75", "3.5"]);
    expect(feed.book.bestAsk()).toEqual(["100.25", "1"]);
    expectSameBook(feed.book, mock.truth);
  });

  it("throws the book away on an update-id gap and resubscribes for a fresh snapshot (docs/decisions.md#d14)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.delta(TOPIC, [["99.60", "1"]], [], { send: false }); // lost on the way: the next u jumps
    mock.delta(TOPIC, [["99.65", "2"]], []);
    await waitFor(() => feed.stats.resyncs === 1, "resync");
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "resubscribed");
    mock.delta(TOPIC, [], [["100.10", "2"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "book correct after gap");
    expect(feed.book.top(50).bids.some(([p]) => Number(p) === 99.6)).toBe(true);
    expect(feed.stats.resyncs).toBe(1);
    expect(logger.has("resync")).toBe(true);
  });

  it("lets a message with u = 1 replace the whole book (docs/exchange-rules.md#exchange-facts)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.truth.reset([["50", "1"]], [["51", "2"]]);
    mock.restart(TOPIC);
    await waitFor(() => feed.book.bidCount === 1, "restart snapshot");
    mock.delta(TOPIC, [["50.5", "4"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "delta after restart");
    expect(feed.stats.resyncs).toBe(0);
  });

  it("reconnects at once after a dropped socket and resubscribes (docs/decisions.md#d14)", async () => {
    const { feed } = open({ keepAliveMs: 60_000 });
    await waitFor(() => feed.state === "live", "live");
    const started = Date.now();
    mock.server.drop();
    await waitFor(() => mock.server.connections === 2 && mock.subscriptions.length === 2, "second connection");
    expect(Date.now() - started).toBeLessThan(1000);
    mock.delta(TOPIC, [["99.80", "9"]], [], { send: false }); // missed while away
    await waitFor(() => feed.state === "live", "live again");
    mock.delta(TOPIC, [], [["100.30", "1"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "book correct after reconnect");
  });

  it("sends {op:ping} as keep-alive and opens a new socket when the keep-alive finds none open (docs/exchange-rules.md#states)", async () => {
    const { feed } = open({ keepAliveMs: 80, reconnectBaseMs: 30_000, reconnectMaxMs: 30_000 });
    await waitFor(() => mock.pings >= 2, "pings");
    // the server goes away entirely: immediate reconnect fails, backoff is long, the keep-alive tick retries
    const port = Number(new URL(mock.url).port);
    await mock.close();
    await waitFor(() => feed.state === "connecting", "connecting");
    mock = await BybitMock.restartOn(port);
    mock.truth.reset(ladder("bid", 5), ladder("ask", 5));
    await waitFor(() => feed.state === "live", "live on the new server", 3000);
    expectSameBook(feed.book, mock.truth);
  });

  it("logs garbage and survives it (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.garbage();
    mock.garbage(JSON.stringify({ topic: TOPIC, type: "delta", data: { b: [["abc", "1"]], a: [], u: 5 } }));
    mock.garbage(Buffer.from([1, 2, 3]).toString());
    mock.delta(TOPIC, [["99.70", "2"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "delta after garbage");
    expect(feed.stats.parseFailures).toBeGreaterThanOrEqual(2);
    expect(logger.has("not understood")).toBe(true);
    expect(feed.state).toBe("live");
  });

  it("limits the subscription to the depth asked for and stops cleanly", async () => {
    const { feed } = open({ depth: 200 });
    await waitFor(() => mock.subscriptions.length === 1, "subscribed");
    expect(mock.subscriptions[0]).toBe("orderbook.200.BTCUSDT");
    feed.stop();
    expect(feed.state).toBe("closed");
    await waitFor(() => mock.server.clients.size === 0, "socket closed");
  });
});
