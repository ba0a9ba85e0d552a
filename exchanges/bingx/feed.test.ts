import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { browserInflate } from "../core/inflate.js";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { BingxFeed } from "./feed.js";
import { BingxMock } from "./ws-mock.js";

const DATA_TYPE = "BTC-USDT@depth20";

describe("bingx feed", () => {
  let mock: BingxMock;
  let feed: BingxFeed | undefined;

  beforeEach(async () => {
    mock = await BingxMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.url, extra);
    feed = createFeed("bingx", "BTC/USDT", options) as BingxFeed;
    feed.start();
    return { feed, logger };
  }

  it("decompresses gzip frames and takes each push as the whole top-20 book (docs/exchange-rules.md#states 'full snapshot in every message')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([DATA_TYPE]);
    expectSameBook(feed.book, mock.truth, 20);
    mock.push(DATA_TYPE, [["99.50", "0"]], [["100.00", "9"]]);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "second push");
    expect(feed.book.bidCount).toBe(20);
  });

  it("answers the server's Ping with Pong (docs/exchange-rules.md#states 'The socket answers server pings')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ping();
    mock.ping();
    await waitFor(() => mock.pongs === 2, "pongs");
    // the JSON form is answered in kind (docs/feeds.md "bingx": both forms)
    mock.pingJson("5d0b1e38-7f8e-4f3d-9d2a-0c7b8a6f5e21", "2024-05-10T08:00:00.000+0800");
    await waitFor(() => mock.jsonPongs.length === 1, "json pong");
    expect(mock.jsonPongs[0]).toEqual({
      pong: "5d0b1e38-7f8e-4f3d-9d2a-0c7b8a6f5e21",
      time: "2024-05-10T08:00:00.000+0800",
    });
  });

  it("keeps frame order with the browser's asynchronous DecompressionStream inflate", async () => {
    const { feed } = open({ inflate: browserInflate() });
    await waitFor(() => feed.state === "live", "live");
    for (let i = 1; i <= 20; i++) mock.push(DATA_TYPE, [[`99.${String(i).padStart(2, "0")}`, String(i)]]);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "all pushes, last one wins");
  });

  it("marks a book unchanged for too long stale, renews the socket and returns to live (issue 4)", async () => {
    const states: string[] = [];
    const { feed, logger } = open({ staleAfterMs: 150 });
    feed.onState((s) => states.push(s));
    await waitFor(() => feed.state === "live", "live");
    await waitFor(() => states.includes("stale"), "stale", 2000);
    await waitFor(() => mock.server.connections >= 2 && feed.state === "live", "renewed", 2000);
    expect(logger.has("stale")).toBe(true);
  });

  it("reconnects after a drop, resubscribes, and logs garbage frames (docs/decisions.md#d14, docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.drop();
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    mock.garbage();
    mock.server.broadcast("not gzip, not json");
    mock.push(DATA_TYPE, [["99.95", "1"]]);
    await waitFor(() => sameBook(feed.book, mock.truth, 20), "after garbage");
    // the first unreadable frame throws the book away and takes it again (docs/feeds.md); later ones may reach the old socket
    expect(feed.stats.parseFailures).toBeGreaterThanOrEqual(1);
    expect(feed.stats.resyncs).toBeGreaterThanOrEqual(1);
    expect(logger.has("not understood")).toBe(true);
  });
});
