import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { CoinstoreFeed } from "./feed.js";
import { CoinstoreMock } from "./ws-mock.js";

const CHANNEL = "4@depth@20";

describe("coinstore feed", () => {
  let mock: CoinstoreMock;
  let feed: CoinstoreFeed | undefined;

  beforeEach(async () => {
    mock = await CoinstoreMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.ws.url, { baseUrl: mock.http.url, ...extra });
    feed = createFeed("coinstore", "BTC/USDT", options) as CoinstoreFeed;
    feed.start();
    return { feed, logger };
  }

  it("takes the symbol id from POST symbols {symbolCodes} data[0].symbolId and subscribes {id}@depth (docs/exchange-rules.md#calls)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    const call = mock.http.requests[0]!;
    expect(call).toMatchObject({ method: "POST", path: "/api/v2/public/config/spot/symbols" });
    expect(JSON.parse(call.body)).toEqual({ symbolCodes: ["BTCUSDT"] });
    expect(mock.subscriptions).toEqual([CHANNEL]);
    expectSameBook(feed.book, mock.truth, 20);
  });

  it('accepts the symbols answer\'s success code written as the number 0 as well as the documented "0" (docs/decisions.md#d20)', async () => {
    mock.successCode = 0;
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth, 20);
  });

  it("reads the depth push in the form of Coinstore's depth example too (no T, no channel; matched by instrumentId)", async () => {
    mock.depthForm = "example";
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth, 20);
    mock.truth.set("bid", "99.50", "0");
    mock.push(CHANNEL);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "second push");
    expect(feed.stats.parseFailures).toBe(0);
  });

  it("ignores a depth push of another instrument", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    let changes = 0;
    feed.onChange(() => changes++);
    mock.ws.broadcast(
      JSON.stringify({ level: 20, instrumentId: 5, symbol: "ETHUSDT", b: [["1", "1"]], a: [["2", "1"]] }),
    );
    mock.ws.broadcast(JSON.stringify({ S: 99, T: "depth", channel: "5@depth@20", b: [["1", "1"]], a: [] }));
    mock.truth.set("ask", "100.00", "0");
    mock.push(CHANNEL);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "only our pushes");
    // frames arrive in order: the two foreign pushes came first and changed nothing
    expect(changes).toBe(1);
    expect(feed.stats.parseFailures).toBe(0);
  });

  it("refuses a symbols answer whose code is not success, logs it and shows no book (docs/decisions.md#d20)", async () => {
    mock.successCode = "1401";
    const { feed, logger } = open();
    await waitFor(() => logger.has("connect failed"), "refusal logged");
    expect(feed.state).toBe("connecting");
    expect(feed.book.top(1).bids).toEqual([]);
    expect(mock.subscriptions).toEqual([]);
  });

  it("replaces the book with every depth push, levels removed included (docs/exchange-rules.md#states 'full snapshot in every message')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.truth.set("bid", "99.50", "0");
    mock.truth.set("ask", "100.00", "0");
    mock.truth.set("ask", "100.10", "2");
    mock.push(CHANNEL);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "second push");
    expectSameBook(feed.book, mock.truth, 20);
  });

  it("logs a failed symbol lookup and retries it; then keeps alive with pong messages (docs/exchange-rules.md#errors, #states)", async () => {
    mock.symbolId = undefined;
    const { feed, logger } = open({ keepAliveMs: 40 });
    await waitFor(() => logger.has("connect failed"), "lookup failure logged");
    expect(feed.state).toBe("connecting");
    mock.symbolId = 4;
    await waitFor(() => feed.state === "live" && mock.pongs >= 1, "live after retry");
    expect(mock.subscriptions).toEqual([CHANNEL]);
  });

  it("reconnects after a drop and resubscribes with the known id; garbage is logged (docs/decisions.md#d14, docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ws.drop();
    mock.truth.set("bid", "99.00", "0");
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "correct after reconnect");
    expect(mock.http.requests).toHaveLength(1);
    mock.ws.broadcast("garbage");
    mock.ws.broadcast(JSON.stringify({ T: "depth", channel: CHANNEL, b: [["1"]] }));
    mock.truth.set("ask", "100.50", "0");
    mock.push(CHANNEL);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "after garbage");
    // the first unreadable frame throws the book away and takes it again (docs/feeds.md); later ones may reach the old socket
    expect(feed.stats.parseFailures).toBeGreaterThanOrEqual(1);
    expect(feed.stats.resyncs).toBeGreaterThanOrEqual(1);
    expect(logger.has("not understood")).toBe(true);
  });

  it("marks a stalled book stale and renews the socket (issue 4)", async () => {
    const { feed } = open({ staleAfterMs: 150 });
    await waitFor(() => feed.state === "live", "live");
    const states: string[] = [];
    feed.onState((s) => states.push(s));
    await waitFor(
      () => states.includes("stale") && mock.subscriptions.length === 2 && feed.state === "live",
      "stale, renewed",
    );
  });
});
