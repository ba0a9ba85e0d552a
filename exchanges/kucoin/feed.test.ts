import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import { KUCOIN_PLACEHOLDER_TOKEN, type KucoinFeed } from "./feed.js";
import { KucoinMock } from "./ws-mock.js";

const SYMBOL = "BTC-USDT";
const TOPIC = `/market/level2:${SYMBOL}`;

describe("kucoin feed", () => {
  let mock: KucoinMock;
  let feed: KucoinFeed | undefined;

  beforeEach(async () => {
    mock = await KucoinMock.start();
    mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra: Record<string, unknown> = {}) {
    // no --ws-url: the address comes from the bullet call on --base-url (docs/exchange-rules.md#calls)
    const { options, logger } = testOptions(mock.ws.url, { baseUrl: mock.http.url, ...extra });
    if (!("wsUrl" in extra)) delete options.wsUrl;
    feed = createFeed("kucoin", "BTC/USDT", options) as KucoinFeed;
    feed.start();
    return { feed, logger };
  }

  it("takes token and endpoint from POST bullet-public and subscribes /market/level2 after the welcome (docs/exchange-rules.md#calls)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.http.requests[0]).toMatchObject({ method: "POST", path: "/api/v1/bullet-public" });
    expect(mock.ws.requestUrls[0]).toContain("token=tok-1");
    expect(mock.subscriptions).toEqual([TOPIC]);
    expectSameBook(feed.book, mock.truth);
  });

  it("uses the placeholder token when the token request fails (docs/exchange-rules.md#states)", async () => {
    mock.token = undefined;
    const { feed, logger } = open({ wsUrl: mock.ws.url });
    await waitFor(() => feed.state === "live", "live");
    expect(mock.ws.requestUrls[0]).toContain(`token=${KUCOIN_PLACEHOLDER_TOKEN}`);
    expect(logger.has("placeholder")).toBe(true);
  });

  it("buffers deltas while the REST snapshot is on its way and replays those after its sequence (issue 4)", async () => {
    mock.snapshotDelayMs = 150;
    mock.afterSnapshotTaken = () => {
      mock.afterSnapshotTaken = undefined;
      mock.delta(
        SYMBOL,
        [
          ["99.50", "0"],
          ["99.80", "2"],
        ],
        [],
      );
      mock.delta(SYMBOL, [], [["100.00", "0.25"]]);
    };
    mock.ws.onConnect((client) => {
      client.send(JSON.stringify({ id: "w", type: "welcome" }));
      // deltas before the snapshot is taken: already inside it, must be skipped, not applied twice
      setTimeout(() => mock.delta(SYMBOL, [["99.00", "0"]], [["100.50", "4"]]), 0);
    });
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth);
    mock.delta(SYMBOL, [["98.00", "3"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "live delta");
    expect(feed.stats.resyncs).toBe(0);
  });

  it("resyncs from a fresh REST snapshot after a sequence gap and ends correct (docs/exchange-rules.md#exchange-facts)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.delta(SYMBOL, [["99.10", "5"]], [], { send: false });
    mock.delta(SYMBOL, [], [["100.00", "0"]]);
    await waitFor(() => feed.stats.resyncs === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after gap");
    expect(mock.http.requests.filter((r) => r.path.endsWith("level2_100"))).toHaveLength(2);
  });

  it("answers keep-alive with pings, reconnects after a drop with a new token call and resubscribes (docs/decisions.md#d14)", async () => {
    const { feed } = open({ keepAliveMs: 50 });
    await waitFor(() => feed.state === "live" && mock.pings >= 1, "live, pinging");
    mock.token = "tok-2";
    mock.ws.drop();
    mock.delta(SYMBOL, [["97.00", "1"]], [], { send: false });
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    expect(mock.ws.requestUrls[1]).toContain("token=tok-2");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after reconnect");
  });

  it("logs garbage and survives it (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.ws.broadcast("\u0000\u0001");
    mock.ws.broadcast(
      JSON.stringify({ type: "message", topic: TOPIC, data: { changes: { bids: [["x", "1", "9"]] } } }),
    );
    mock.delta(SYMBOL, [["99.30", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "after garbage");
    expect(feed.stats.parseFailures).toBe(2);
    expect(logger.has("not understood")).toBe(true);
  });
});
