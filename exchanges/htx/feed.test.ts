import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { HtxFeed } from "./feed.js";
import { HtxMock } from "./ws-mock.js";

const CHANNEL = "market.btcusdt.mbp.20";

describe("htx feed (docs/decisions.md#d14: htx gets a live book)", () => {
  let mock: HtxMock;
  let feed: HtxFeed | undefined;

  beforeEach(async () => {
    mock = await HtxMock.start();
    mock.truth.reset(ladder("bid", 20), ladder("ask", 20));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.url, extra);
    feed = createFeed("htx", "BTC/USDT", options) as HtxFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes mbp, requests the snapshot on the same connection and follows prevSeqNum links (docs/exchange-rules.md#exchange-facts)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([CHANNEL]);
    expect(mock.requests).toEqual([CHANNEL]);
    expect(mock.server.connections).toBe(1);
    mock.update(
      CHANNEL,
      [
        ["99.50", "0"],
        ["99.60", "2"],
      ],
      [["100.00", "1.5"]],
    );
    mock.update(CHANNEL, [], [["100.50", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates");
    expectSameBook(feed.book, mock.truth);
  });

  it("keeps every digit of levels written as bare JSON numbers, in the snapshot and in updates (docs/feeds.md)", async () => {
    mock.truth.set("bid", "99.987654321098765432", "0.100000000000000001");
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.book.top(1).bids[0]).toEqual(["99.987654321098765432", "0.100000000000000001"]);
    mock.update(CHANNEL, [["99.887654321098765433", "12345678.123456789012"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "update kept exact");
    expectSameBook(feed.book, mock.truth);
  });

  it("answers the server's ping with pong (docs/exchange-rules.md#exchange-facts: unanswered pings close the connection)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ping();
    await waitFor(() => mock.pongs === 1, "pong");
  });

  it("after a broken seqNum link throws the book away and re-requests the snapshot on the same connection", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(CHANNEL, [["99.70", "3"]], [], { send: false });
    mock.update(CHANNEL, [["99.80", "1"]], []);
    await waitFor(() => feed.stats.resyncs === 1 && mock.requests.length === 2 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    expect(mock.server.connections).toBe(1);
  });

  it("reconnects after a drop, resubscribes and survives garbage (docs/decisions.md#d14, docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.drop();
    mock.update(CHANNEL, [["98.00", "4"]], [], { send: false });
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    mock.server.broadcast(Buffer.from([0x1f, 0x8b, 0, 0]));
    mock.update(CHANNEL, [], [["101.00", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    expect(logger.has("not understood")).toBe(true);
  });
});
