import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { GateFeed } from "./feed.js";
import { GateMock } from "./ws-mock.js";

const SYMBOL = "BTC_USDT";

describe("gate feed", () => {
  let mock: GateMock;
  let feed: GateFeed | undefined;

  beforeEach(async () => {
    mock = await GateMock.start();
    mock.truth.reset(ladder("bid", 25), ladder("ask", 25));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.ws.url, { baseUrl: mock.http.url, ...extra });
    feed = createFeed("gate", "BTC/USDT", options) as GateFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes spot.order_book_update on open and applies U/u updates after the snapshot id (docs/exchange-rules.md#states)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([`${SYMBOL},100ms`]);
    expect(mock.http.requests[0]?.query).toContain("with_id=true");
    mock.update(
      SYMBOL,
      [
        ["99.50", "0"],
        ["99.70", "1.5"],
      ],
      [["100.00", "3"]],
    );
    mock.update(SYMBOL, [], [["100.50", "0"]], { ids: 1 });
    await waitFor(() => sameBook(feed.book, mock.truth), "updates");
    expectSameBook(feed.book, mock.truth);
  });

  it("tells change listeners when the REST snapshot lands, before any delta (the CLI's first book waits for it)", async () => {
    const { options } = testOptions(mock.ws.url, { baseUrl: mock.http.url });
    feed = createFeed("gate", "BTC/USDT", options) as GateFeed;
    const seen: number[] = [];
    feed.onChange(() => seen.push(feed!.book.bidCount));
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    await waitFor(() => seen.length > 0, "a change announced");
    expect(seen.at(-1)).toBe(25);
    expect(mock.http.requests).toHaveLength(1);
  });

  it("resyncs from a fresh snapshot when U skips past the last u, and ends correct (issue 4)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(SYMBOL, [["99.20", "9"]], [], { send: false });
    mock.update(SYMBOL, [["99.30", "1"]], []);
    await waitFor(() => feed.stats.resyncs === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    expect(logger.has("resync")).toBe(true);
  });

  it("pings with spot.ping, reconnects after a drop and resubscribes; garbage is logged (docs/decisions.md#d14, docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open({ keepAliveMs: 50 });
    await waitFor(() => feed.state === "live" && mock.pings >= 1, "live, pinging");
    mock.ws.drop();
    mock.update(SYMBOL, [["98.50", "2"]], [], { send: false });
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    mock.ws.broadcast("]]");
    mock.update(SYMBOL, [], [["101.00", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    expect(logger.has("not understood")).toBe(true);
  });
});
