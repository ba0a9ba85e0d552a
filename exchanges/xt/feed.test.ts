import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { XtFeed } from "./feed.js";
import { XtMock } from "./ws-mock.js";

const SYMBOL = "btc_usdt";
const TOPIC = `depth_update@${SYMBOL}`;

describe("xt feed", () => {
  let mock: XtMock;
  let feed: XtFeed | undefined;

  beforeEach(async () => {
    mock = await XtMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.ws.url, { baseUrl: mock.http.url, ...extra });
    feed = createFeed("xt", "BTC/USDT", options) as XtFeed;
    feed.start();
    return { feed, logger };
  }

  const snapshots = () => mock.http.requests.filter((r) => r.path === "/v4/public/depth");

  it("subscribes depth_update on open, starts from GET /v4/public/depth and applies fi..i updates level by level (docs/exchange-rules.md#states)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.depth).toBe(50);
    expect(mock.subscriptions).toEqual([TOPIC]);
    expect(parseQuery(snapshots()[0]!.query)).toMatchObject({ symbol: SYMBOL });
    expectSameBook(feed.book, mock.truth);
    mock.update(
      SYMBOL,
      [
        ["99.50", "0"],
        ["99.70", "1.5"],
      ],
      [["100.00", "3"]],
    );
    mock.update(SYMBOL, [], [["100.50", "0"]], { ids: 1 });
    mock.update(SYMBOL, [["85.00", "7"]], [["100.25", "0.5"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates");
    expectSameBook(feed.book, mock.truth);
    // the ids run beyond 2^53: a feed that rounded them would see false gaps here
    expect(feed.stats.resyncs).toBe(0);
  });

  it("buffers updates while the snapshot is on its way: drops those inside it, replays those after lastUpdateId (issue 4)", async () => {
    mock.snapshotDelayMs = 150;
    mock.afterSnapshotTaken = () => {
      mock.afterSnapshotTaken = undefined;
      mock.update(
        SYMBOL,
        [
          ["99.50", "0"],
          ["99.80", "2"],
        ],
        [],
      );
      mock.update(SYMBOL, [], [["100.00", "0.25"]]);
    };
    mock.ws.onConnect(() => {
      // before the snapshot is taken: already inside it, must not be applied twice
      setTimeout(() => mock.update(SYMBOL, [["99.00", "0"]], [["100.50", "4"]]), 0);
    });
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth);
    expect(feed.stats.resyncs).toBe(0);
  });

  it("after a sequence gap throws the book away, refetches the snapshot and ends on the true book (docs/exchange-rules.md#exchange-facts: xt gap)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(SYMBOL, [["99.50", "0"]], [["101.00", "9"]], { send: false }); // lost: 99.50 must disappear
    mock.update(SYMBOL, [["99.20", "1"]], []);
    await waitFor(() => feed.stats.resyncs === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after gap");
    expect(feed.book.top(50).bids.some(([p]) => p === "99.5")).toBe(false);
    expect(snapshots()).toHaveLength(2);
    expect(logger.has("resync")).toBe(true);
    mock.update(SYMBOL, [], [["100.00", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates after the resync");
  });

  it("after a reconnect resubscribes, takes a fresh snapshot and ends on the true book, not the old one (docs/exchange-rules.md#exchange-facts: xt reconnect)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ws.drop();
    // while the socket is down the book moves: a level disappears, another appears
    mock.update(
      SYMBOL,
      [
        ["99.00", "0"],
        ["99.90", "6"],
      ],
      [["100.00", "0"]],
      { send: false },
    );
    await waitFor(() => mock.subscriptions.length === 2 && snapshots().length === 2 && feed.state === "live", "back");
    expect(mock.subscriptions).toEqual([TOPIC, TOPIC]);
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after reconnect");
    mock.update(SYMBOL, [["99.90", "0"]], [["100.50", "1"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates after reconnect");
    expectSameBook(feed.book, mock.truth);
    expect(mock.ws.connections).toBe(2);
  });

  it("sends the text ping as keep-alive and reads the pong (docs/exchange-rules.md#states)", async () => {
    const { feed } = open({ keepAliveMs: 40 });
    await waitFor(() => feed.state === "live" && mock.pings >= 2, "pings");
    expect(feed.stats.parseFailures).toBe(0);
  });

  it("logs garbage and a malformed update, and keeps the book (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ws.broadcast("]]");
    mock.ws.broadcast(
      JSON.stringify({ topic: "depth_update", event: TOPIC, data: { s: SYMBOL, fi: 1, i: 2, b: [["x", "1"]] } }),
    );
    mock.update(SYMBOL, [["99.30", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    expect(feed.stats.parseFailures).toBe(2);
    expect(logger.has("not understood")).toBe(true);
  });
});
