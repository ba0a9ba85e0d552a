import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { BitmartFeed } from "./feed.js";
import { BitmartMock } from "./ws-mock.js";

const SYMBOL = "BTC_USDT";
const TOPIC = `spot/depth/increase100:${SYMBOL}`;

describe("bitmart feed", () => {
  let mock: BitmartMock;
  let feed: BitmartFeed | undefined;

  beforeEach(async () => {
    mock = await BitmartMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.server.url, extra);
    feed = createFeed("bitmart", "BTC/USDT", options) as BitmartFeed;
    feed.start();
    return { feed, logger };
  }

  it("reads the raw-DEFLATE binary frames of the default address: snapshot, then versioned updates level by level (docs/exchange-rules.md#states, docs/feeds.md)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.depth).toBe(20);
    expect(mock.subscriptions).toEqual([TOPIC]);
    expectSameBook(feed.book, mock.truth);
    mock.update(
      SYMBOL,
      [
        ["99.50", "0"],
        ["99.70", "1.5"],
      ],
      [["100.00", "3"]],
    );
    mock.update(SYMBOL, [], [["100.50", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates");
    expectSameBook(feed.book, mock.truth);
  });

  it("after a version gap throws the book away, asks for a snapshot with op request and ends correct (issue 4)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(SYMBOL, [["99.50", "0"]], [], { send: false });
    mock.update(SYMBOL, [["99.20", "4"]], []);
    await waitFor(() => feed.stats.resyncs === 1 && mock.requests.length === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    expect(mock.requests).toEqual([TOPIC]);
    expect(mock.server.connections).toBe(1);
  });

  it("reads the same messages sent as plain text frames (docs/feeds.md: both forms)", async () => {
    mock.frames = "text";
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth);
    mock.update(SYMBOL, [["99.50", "0"]], [["100.00", "7"]]);
    mock.update(SYMBOL, [["99.40", "2"]], [], { send: false });
    mock.update(SYMBOL, [], [["101.00", "0"]]);
    await waitFor(
      () => feed.stats.resyncs === 1 && feed.state === "live" && sameBook(feed.book, mock.truth),
      "resynced on plain frames",
    );
    expect(mock.requests).toEqual([TOPIC]);
    expect(feed.stats.parseFailures).toBe(0);
  });

  it("a version jump with no change lost still throws the book away and takes a fresh snapshot (docs/feeds.md)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(SYMBOL, [["99.10", "3"]], [], { skip: 5 });
    await waitFor(() => feed.stats.resyncs === 1 && mock.requests.length === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    mock.update(SYMBOL, [["99.15", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates after the fresh snapshot");
  });

  it("a binary frame that does not inflate is logged once per connection with the reason, and the book is taken again (docs/feeds.md)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    const states: string[] = [];
    feed.onState((s) => states.push(s));
    // a truncated deflate stream, then more of the same while the fresh snapshot is on its way
    mock.server.broadcast(Buffer.from([0xab, 0x56, 0x2a]));
    mock.server.broadcast(Buffer.from([0xab, 0x56, 0x2a]));
    await waitFor(() => mock.requests.length === 1 && feed.state === "live", "resynced");
    expect(states).toEqual(["resyncing", "live"]);
    const warned = logger.records.filter((r) => r.level === "warn" && r.message === "feed message not understood");
    expect(warned).toHaveLength(1);
    expect(warned[0]!.fields).toMatchObject({ exchange: "bitmart", pair: "BTC/USDT" });
    expect(String(warned[0]!.fields!.reason)).toMatch(/deflate-raw frame does not inflate/);
    expect(feed.stats.parseFailures).toBe(2);
    mock.update(SYMBOL, [["99.60", "5"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after the bad frames");
  });

  it("pings with the text ping, reconnects after a drop and resubscribes (docs/exchange-rules.md#states, docs/decisions.md#d14)", async () => {
    const { feed } = open({ keepAliveMs: 40 });
    await waitFor(() => feed.state === "live" && mock.pings >= 1, "live, pinging");
    mock.server.drop();
    mock.update(SYMBOL, [["98.00", "2"]], [], { send: false });
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after reconnect");
  });

  it("logs garbage and survives it (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.broadcast("{oops");
    mock.server.broadcast(
      JSON.stringify({ table: "spot/depth/increase100", data: [{ symbol: SYMBOL, type: "update", version: "x" }] }),
    );
    mock.update(SYMBOL, [["99.30", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    expect(feed.stats.parseFailures).toBe(2);
    expect(logger.has("not understood")).toBe(true);
  });
});
