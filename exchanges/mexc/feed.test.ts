import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { MexcFeed } from "./feed.js";
import { decodePush } from "./proto.js";
import { MexcWsMock } from "./ws-mock.js";

const SYMBOL = "BTCUSDT";
const CHANNEL = `spot@public.aggre.depth.v3.api.pb@100ms@${SYMBOL}`;

/** Protobuf wire format by hand, independent of the schema under test. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
function field(id: number, payload: number[]): number[] {
  return [...varint((id << 3) | 2), ...varint(payload.length), ...payload];
}
const text = (s: string) => [...new TextEncoder().encode(s)];

describe("mexc feed (protobuf)", () => {
  let mock: MexcWsMock;
  let feed: MexcFeed | undefined;

  beforeEach(async () => {
    mock = await MexcWsMock.start();
    mock.truth.reset(ladder("bid", 25), ladder("ask", 25));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.ws.url, { baseUrl: mock.http.url, ...extra });
    feed = createFeed("mexc", "BTC/USDT", options) as MexcFeed;
    feed.start();
    return { feed, logger };
  }

  const snapshots = () => mock.http.requests.filter((r) => r.path === "/api/v3/depth");

  it("reads MEXC's field numbers: channel 1, publicAggreDepths 313, asks 1, bids 2, fromVersion 4, toVersion 5, price 1, quantity 2", () => {
    const level = (p: string, q: string) => [...field(1, text(p)), ...field(2, text(q))];
    const depths = [
      ...field(1, level("100.5", "2")),
      ...field(2, level("99.5", "0")),
      ...field(4, text("11")),
      ...field(5, text("12")),
    ];
    const bytes = new Uint8Array([...field(1, text(CHANNEL)), ...field(3, text(SYMBOL)), ...field(313, depths)]);
    const push = decodePush(bytes);
    expect(push.channel).toBe(CHANNEL);
    expect(push.symbol).toBe(SYMBOL);
    expect(push.publicAggreDepths).toMatchObject({
      asks: [{ price: "100.5", quantity: "2" }],
      bids: [{ price: "99.5", quantity: "0" }],
      fromVersion: "11",
      toVersion: "12",
    });
  });

  it("subscribes the protobuf aggre.depth channel, starts from GET /api/v3/depth and applies versioned pushes level by level (docs/exchange-rules.md#states)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.depth).toBe(20);
    expect(mock.subscriptions).toEqual([CHANNEL]);
    expect(parseQuery(snapshots()[0]!.query)).toMatchObject({ symbol: SYMBOL });
    mock.update(
      SYMBOL,
      [
        ["99.50", "0"],
        ["99.70", "1.5"],
      ],
      [["100.00", "3"]],
    );
    mock.update(SYMBOL, [], [["100.50", "0"]], { versions: 1 });
    await waitFor(() => sameBook(feed.book, mock.truth), "updates");
    expectSameBook(feed.book, mock.truth);
    expect(feed.stats.resyncs).toBe(0);
  });

  it("after a version gap throws the book away, refetches the snapshot and ends correct (issue 4: mexc fromVersion/toVersion)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(SYMBOL, [["99.50", "0"]], [["102.00", "4"]], { send: false });
    mock.update(SYMBOL, [["99.30", "1"]], []);
    await waitFor(() => feed.stats.resyncs === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
    expect(snapshots()).toHaveLength(2);
    expect(logger.has("resync")).toBe(true);
  });

  it("pings with {method: PING}, reconnects after a drop, resubscribes and takes a fresh snapshot (docs/exchange-rules.md#states, docs/decisions.md#d14)", async () => {
    const { feed } = open({ keepAliveMs: 40 });
    await waitFor(() => feed.state === "live" && mock.pings >= 1, "live, pinging");
    mock.ws.drop();
    mock.update(
      SYMBOL,
      [
        ["98.00", "4"],
        ["99.00", "0"],
      ],
      [],
      { send: false },
    );
    await waitFor(() => mock.subscriptions.length === 2 && snapshots().length === 2 && feed.state === "live", "back");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after reconnect");
    mock.update(SYMBOL, [], [["101.00", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates after reconnect");
  });

  it("logs bytes that are not a push and unknown text, and survives (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ws.broadcast(Buffer.from([0x0a, 0xff, 0x01]));
    mock.ws.broadcast("not json");
    mock.update(SYMBOL, [["99.40", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    expect(feed.stats.parseFailures).toBe(2);
    expect(logger.has("not understood")).toBe(true);
  });

  it("marks a book stale when the socket stalls, and recovers it with a new socket (issue 4)", async () => {
    const { feed } = open({ staleAfterMs: 120 });
    await waitFor(() => feed.state === "live", "live");
    mock.ws.stalled = true;
    await waitFor(() => feed.state === "stale" || mock.ws.connections >= 2, "stale");
    mock.ws.stalled = false;
    await waitFor(() => mock.ws.connections >= 2 && feed.state === "live", "renewed");
    expectSameBook(feed.book, mock.truth);
  });
});
