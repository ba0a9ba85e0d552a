/**
 * Pins of the socket machinery every websocket feed shares (exchanges/core/socket-feed.ts,
 * docs/exchange-rules.md#feeds, docs/feeds.md), found by mutation testing (docs/mutation.md
 * "Feeds"). Played through bybit's feed against its websocket mock on loopback: the book a user
 * sees, the states the screen shows, what the log says.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BitteamFeed } from "../bitteam/feed.js";
import { BybitFeed } from "../bybit/feed.js";
import { BybitMock } from "../bybit/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { KucoinFeed } from "../kucoin/feed.js";
import { KucoinMock } from "../kucoin/ws-mock.js";
import type { FeedState } from "../types.js";
import { compressionOf, plainText } from "./inflate.js";
import {
  crc32Signed,
  decimalText,
  FeedParseError,
  isRecord,
  parseJsonKeepingLevels,
  parseLevelObjects,
  parseLevels,
  priceKey,
  sequence,
} from "./levels.js";
import type { FeedRuntimeOptions } from "./options.js";
import { expectSameBook, sameBook, testOptions } from "./testing/feed-helpers.js";
import { type MockReply, type MockServer, startMockServer } from "./testing/http-mock.js";
import { ladder, recordingLogger, waitFor } from "./testing/ws-mock.js";

const TOPIC = "orderbook.50.BTCUSDT";
const SYMBOL = "BTC-USDT";

describe("the shared socket feed, through bybit", () => {
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
    return { feed, logger };
  }

  it("tells the state listeners each change once, and the change listeners once per book version", async () => {
    const { feed } = open();
    const states: FeedState[] = [];
    let changes = 0;
    feed.onState((s) => states.push(s));
    feed.onChange(() => changes++);
    feed.start();
    feed.start(); // a second start opens no second socket
    await waitFor(() => feed.state === "live", "live");
    expect(states).toEqual(["connecting", "live"]);
    const atLive = changes;
    expect(atLive).toBeGreaterThanOrEqual(1);
    mock.delta(TOPIC, [["99.75", "3"]], []);
    await waitFor(() => changes === atLive + 1, "one change per delta");
    // a pong changes nothing: no announcement
    const pings = mock.pings;
    await waitFor(() => mock.pings > pings, "a keep-alive answered");
    expect(changes).toBe(atLive + 1);
    expect(mock.server.connections).toBe(1);
    expect(feed.stats.sockets).toBe(1);
    feed.stop();
    feed.stop();
    expect(states).toEqual(["connecting", "live", "closed"]);
  });

  it("keeps feeding the book when a listener throws, and logs the throw (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    let calm = 0;
    feed.onState(() => {
      throw new Error("state listener broke");
    });
    feed.onChange(() => {
      throw { message: "change listener broke" };
    });
    feed.onChange(() => calm++);
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    const atLive = calm;
    expect(atLive).toBeGreaterThanOrEqual(1);
    mock.delta(TOPIC, [["99.75", "3"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "delta applied");
    expect(calm).toBe(atLive + 1);
    const thrown = logger.records.filter((r) => r.message === "feed listener threw");
    expect(thrown.map((r) => r.fields?.error)).toContain("state listener broke");
    expect(thrown.map((r) => r.fields?.error)).toContain("change listener broke");
    expect(thrown.every((r) => r.level === "error" && r.fields?.exchange === "bybit")).toBe(true);
  });

  it("stops telling a listener once it unsubscribed", async () => {
    const { feed } = open();
    const states: FeedState[] = [];
    let changes = 0;
    const offState = feed.onState((s) => states.push(s));
    const offChange = feed.onChange(() => changes++);
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    offState();
    offChange();
    const atLive = changes;
    mock.delta(TOPIC, [["99.75", "3"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "delta applied");
    feed.stop();
    expect(states).toEqual(["connecting", "live"]);
    expect(changes).toBe(atLive);
  });

  it("refresh() throws the book away and takes a fresh snapshot; stopped, it does nothing", async () => {
    const { feed, logger } = open();
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    const states: FeedState[] = [];
    feed.onState((s) => states.push(s));
    mock.delta(TOPIC, [["99.60", "1"]], [], { send: false }); // a change the feed never saw
    await feed.refresh();
    await waitFor(() => feed.state === "live" && sameBook(feed.book, mock.truth), "fresh snapshot");
    expect(states).toEqual(["resyncing", "live"]);
    expect(feed.stats.resyncs).toBe(1);
    expect(logger.records.find((r) => r.message === "feed resync")?.fields).toMatchObject({
      exchange: "bybit",
      pair: "BTC/USDT",
      reason: "manual refresh",
    });
    feed.stop();
    await feed.refresh();
    expect(feed.stats.resyncs).toBe(1);
    expect(feed.state).toBe("closed");
  });

  it("logs the first unreadable frame of a connection at warn and the rest at debug, and takes the book again", async () => {
    const { feed, logger } = open();
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    mock.garbage("{not json");
    await waitFor(() => feed.stats.parseFailures === 1, "first failure");
    await waitFor(() => feed.state === "live", "live again");
    expect(feed.stats.resyncs).toBe(1);
    mock.garbage("[also not");
    await waitFor(() => feed.stats.parseFailures === 2, "second failure");
    const notUnderstood = logger.records.filter((r) => r.message === "feed message not understood");
    expect(notUnderstood.map((r) => r.level)).toEqual(["warn", "debug"]);
    expect(notUnderstood[0]?.fields).toMatchObject({ exchange: "bybit", pair: "BTC/USDT", sample: "{not json" });
    expect(String(notUnderstood[0]?.fields?.reason)).toMatch(/JSON/);
    await waitFor(() => feed.state === "live" && sameBook(feed.book, mock.truth), "book taken again");
    expect(feed.stats.resyncs).toBe(2);
    // a new connection warns again
    mock.server.drop();
    await waitFor(() => mock.server.connections === 2 && feed.state === "live", "reconnected");
    mock.garbage("{third");
    await waitFor(() => feed.stats.parseFailures === 3, "third failure");
    expect(logger.records.filter((r) => r.message === "feed message not understood").map((r) => r.level)).toEqual([
      "warn",
      "debug",
      "warn",
    ]);
  });

  it("does not resync on an unreadable frame before the first snapshot", async () => {
    mock.server.onConnect((client) => client.send("{early garbage"));
    const { feed } = open();
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    expect(feed.stats.parseFailures).toBe(1);
    expect(feed.stats.resyncs).toBe(0);
    expect(mock.subscriptions).toEqual([TOPIC]);
  });

  it("marks a book that stopped changing stale, opens a new socket, and is live again with its snapshot", async () => {
    const { feed, logger } = open({ staleAfterMs: 120, keepAliveMs: 60_000 });
    const states: FeedState[] = [];
    feed.onState((s) => states.push(s));
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    mock.server.stalled = true; // the next socket gets no snapshot: it stays stale
    await waitFor(() => feed.state === "stale", "stale");
    await waitFor(() => mock.server.connections === 2, "a new socket");
    const stale = logger.records.find((r) => r.message === "feed stale: book unchanged");
    expect(stale?.level).toBe("warn");
    expect(Number(stale?.fields?.ms)).toBeGreaterThanOrEqual(120);
    await new Promise((r) => setTimeout(r, 300));
    expect(feed.state).toBe("stale");
    expect(mock.server.connections).toBe(2); // stale is checked only while live
    mock.server.stalled = false;
    mock.truth.reset(ladder("bid", 4), ladder("ask", 4));
    void feed.refresh();
    await waitFor(() => feed.state === "live", "live again");
    expectSameBook(feed.book, mock.truth);
    expect(states.slice(0, 3)).toEqual(["connecting", "live", "stale"]);
  });

  it("keeps a live book that changes within the stale time live", async () => {
    const { feed } = open({ staleAfterMs: 400, keepAliveMs: 60_000 });
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    for (let i = 0; i < 8; i++) {
      mock.delta(TOPIC, [[`99.${10 + i}`, "1"]], []);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(feed.state).toBe("live");
    expect(mock.server.connections).toBe(1);
  });

  it("a feed with staleAfterMs 0 never goes stale", async () => {
    const { feed } = open({ staleAfterMs: 0, keepAliveMs: 60_000 });
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    await new Promise((r) => setTimeout(r, 300));
    expect(feed.state).toBe("live");
    expect(mock.server.connections).toBe(1);
  });

  it("counts keep-alives and sends them only on an open socket", async () => {
    const { feed } = open({ keepAliveMs: 50 });
    feed.start();
    await waitFor(() => mock.pings >= 3, "pings");
    expect(feed.stats.keepAlives).toBeGreaterThanOrEqual(3);
    expect(mock.server.received.filter((t) => t.includes('"ping"')).length).toBe(mock.pings);
  });

  it("reads the depth asked for, whole, and the venue's default for none, zero or a negative one", () => {
    expect(open({ depth: 7.9 }).feed.depth).toBe(7);
    expect(open({ depth: 0 }).feed.depth).toBe(50);
    expect(open({ depth: -5 }).feed.depth).toBe(50);
    expect(open().feed.depth).toBe(50);
  });

  it("logs a connect failure and tries again with backoff until the address answers", async () => {
    const { options, logger } = testOptions(mock.url);
    let calls = 0;
    const connect = options.connect!;
    options.connect = (url) => {
      calls++;
      if (calls < 3) throw new Error(`refused ${calls}`);
      return connect(url);
    };
    feed = createFeed("bybit", "btc/usdt", options) as BybitFeed;
    feed.start();
    await waitFor(() => feed!.state === "live", "live after two refusals");
    expect(calls).toBe(3);
    const failed = logger.records.filter((r) => r.message === "feed connect failed");
    expect(failed.map((r) => r.fields?.error)).toEqual(["refused 1", "refused 2"]);
    expectSameBook(feed.book, mock.truth);
  });

  it("stopped, it closes its socket, keeps no timer going and opens nothing more", async () => {
    const { feed } = open({ keepAliveMs: 30, staleAfterMs: 40 });
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    feed.stop();
    await waitFor(() => mock.server.clients.size === 0, "socket closed");
    await new Promise((r) => setTimeout(r, 200));
    expect(mock.server.connections).toBe(1);
    expect(feed.state).toBe("closed");
  });
});

describe("a venue module that throws, through bybit", () => {
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

  it("logs a subscription that throws, and subscribes on the next socket", async () => {
    const { options, logger } = testOptions(mock.url);
    let calls = 0;
    class Flaky extends BybitFeed {
      protected override subscribe(): void {
        if (++calls === 1) throw new Error("subscribe broke");
        super.subscribe();
      }
    }
    feed = new Flaky("BTC/USDT", options);
    feed.start();
    await waitFor(() => logger.has("feed subscribe failed"), "logged");
    expect(logger.records.find((r) => r.message === "feed subscribe failed")).toMatchObject({
      level: "error",
      fields: { exchange: "bybit", error: "subscribe broke" },
    });
    mock.server.drop();
    await waitFor(() => feed!.state === "live", "live on the next socket");
    expectSameBook(feed.book, mock.truth);
  });

  it("opens a new socket when asking for a snapshot throws", async () => {
    const { options, logger } = testOptions(mock.url, { keepAliveMs: 60_000 });
    class Flaky extends BybitFeed {
      protected override requestSnapshot(): void {
        throw new Error("snapshot broke");
      }
    }
    feed = new Flaky("BTC/USDT", options);
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    mock.delta(TOPIC, [["99.60", "1"]], [], { send: false });
    await feed.refresh();
    await waitFor(() => mock.server.connections === 2 && feed!.state === "live", "a new socket");
    expect(logger.records.find((r) => r.message === "feed snapshot request failed")).toMatchObject({
      level: "error",
      fields: { exchange: "bybit", error: "snapshot broke" },
    });
    expectSameBook(feed.book, mock.truth);
  });

  it("names a binary frame nobody can read by its size and reason, and keeps the book", async () => {
    const { options, logger } = testOptions(mock.url);
    feed = new BybitFeed("BTC/USDT", options);
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    mock.server.broadcast(Buffer.from([1, 2, 3]));
    await waitFor(() => feed!.stats.parseFailures === 1, "failure");
    const record = logger.records.find((r) => r.message === "feed message not understood");
    expect(record?.fields?.sample).toBe("<3 bytes>");
    expect(String(record?.fields?.reason)).toMatch(/^deflate-raw frame does not inflate: /);
    await waitFor(() => feed!.state === "live" && sameBook(feed!.book, mock.truth), "book taken again");
  });
});

describe("the REST snapshot and its buffered deltas, through kucoin", () => {
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

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.ws.url, { baseUrl: mock.http.url, ...extra });
    feed = createFeed("kucoin", "BTC/USDT", options) as KucoinFeed;
    const states: FeedState[] = [];
    feed.onState((s) => states.push(s));
    feed.start();
    return { feed, logger, states };
  }

  const snapshots = () => mock.http.requests.filter((r) => r.path.endsWith("level2_100")).length;

  function push(start: number, end: number, bids: string[][]): void {
    mock.ws.broadcast(
      JSON.stringify({
        type: "message",
        topic: `/market/level2:${SYMBOL}`,
        subject: "trade.l2update",
        data: { changes: { bids, asks: [] }, sequenceStart: start, sequenceEnd: end, symbol: SYMBOL },
      }),
    );
  }

  it("applies of a delta straddling the snapshot only the changes after its sequence", async () => {
    mock.snapshotDelayMs = 150;
    mock.afterSnapshotTaken = () => {
      mock.afterSnapshotTaken = undefined;
      // the snapshot says 5000; 99.50 at 5000 is already in it (with its old amount), 99.90 at 5001 is not
      push(5000, 5001, [
        ["99.50", "77", "5000"],
        ["99.90", "1", "5001"],
      ]);
      mock.truth.set("bid", "99.90", "1");
      mock.seq = 5001;
    };
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expectSameBook(feed.book, mock.truth);
    expect(feed.book.bestBid()).toEqual(["99.90", "1"]);
    mock.delta(SYMBOL, [["99.80", "2"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "the next delta follows");
    expect(feed.stats.resyncs).toBe(0);
  });

  it("a buffered delta with a gap after the snapshot takes another snapshot before the book goes live", async () => {
    mock.snapshotDelayMs = 150;
    mock.afterSnapshotTaken = () => {
      mock.afterSnapshotTaken = undefined;
      push(5003, 5004, [["99.90", "1", "5004"]]); // 5001..5002 never came
      mock.truth.set("bid", "99.90", "1");
      mock.seq = 5004;
    };
    const { feed, logger, states } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(states).toEqual(["connecting", "resyncing", "live"]);
    expect(snapshots()).toBe(2);
    expect(logger.records.find((r) => r.message === "feed resync")?.fields).toMatchObject({
      reason: "sequence gap",
      expected: 5001,
      first: 5003,
      last: 5004,
    });
    expectSameBook(feed.book, mock.truth);
  });

  it("a delta starting right after the book applies; one ending at or before it is skipped", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    push(4999, 5000, [["99.50", "55", "5000"]]); // old: skipped
    push(5001, 5001, [["99.95", "3", "5001"]]); // next: applied
    mock.truth.set("bid", "99.95", "3");
    mock.seq = 5001;
    await waitFor(() => sameBook(feed.book, mock.truth), "next applied, old skipped");
    push(5002, 5002, [["99.96", "4", "5002"]]);
    mock.truth.set("bid", "99.96", "4");
    mock.seq = 5002;
    await waitFor(() => sameBook(feed.book, mock.truth), "and the one after");
    expect(feed.stats.resyncs).toBe(0);
  });

  it("retries a failed snapshot with backoff, logging each failure, until one comes", async () => {
    let refused = 0;
    mock.http.intercept((r) =>
      r.path.endsWith("level2_100") && refused++ < 2 ? { status: 500, body: {} } : undefined,
    );
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(snapshots()).toBe(3);
    const failed = logger.records.filter((r) => r.message === "feed snapshot failed");
    expect(failed).toHaveLength(2);
    expect(failed.every((r) => r.level === "warn" && r.fields?.exchange === "kucoin")).toBe(true);
    expectSameBook(feed.book, mock.truth);
  });

  it("a snapshot that lands after stop() changes nothing", async () => {
    mock.snapshotDelayMs = 200;
    const { feed, states } = open();
    await waitFor(() => snapshots() === 1, "snapshot asked");
    feed.stop();
    await new Promise((r) => setTimeout(r, 350));
    expect(feed.book.bidCount).toBe(0);
    expect(states).toEqual(["connecting", "closed"]);
  });

  it("a failed snapshot after stop() is not retried", async () => {
    mock.http.intercept((r) => (r.path.endsWith("level2_100") ? { status: 500, body: {}, delayMs: 100 } : undefined));
    const { feed } = open();
    await waitFor(() => snapshots() === 1, "snapshot asked");
    feed.stop();
    await new Promise((r) => setTimeout(r, 350));
    expect(snapshots()).toBe(1);
  });

  it("gives up on a snapshot that lets more than 5,000 deltas pile up, and takes another", async () => {
    mock.snapshotDelayMs = 1500;
    mock.afterSnapshotTaken = () => {
      mock.afterSnapshotTaken = undefined;
      setTimeout(() => {
        mock.snapshotDelayMs = 0; // the next snapshot comes at once
      }, 0);
      for (let i = 0; i < 5_001; i++) mock.delta(SYMBOL, [["99.90", String(1 + (i % 7))]], []);
    };
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live", 8000);
    expect(logger.records.find((r) => r.message === "feed resync")?.fields?.reason).toBe(
      "snapshot too slow: delta buffer full",
    );
    expect(feed.stats.resyncs).toBe(1);
    await waitFor(() => sameBook(feed.book, mock.truth), "book correct");
  });
});

describe("the polled book, through bitteam", () => {
  let http: MockServer;
  let feed: BitteamFeed | undefined;
  let answer: () => MockReply;
  const BOOK = { bids: [["0.0101", "500"]], asks: [["0.0103", "7"]], pair: "del_usdt" };

  beforeEach(async () => {
    http = await startMockServer();
    answer = () => ({ body: { ok: true, result: BOOK } });
    http.on("GET /trade/api/orderbooks/del_usdt", () => answer());
  });
  afterEach(async () => {
    feed?.stop();
    await http.close();
  });

  function open(extra = {}) {
    const logger = recordingLogger();
    feed = createFeed("bitteam", "DEL/USDT", {
      baseUrl: http.url,
      logger,
      pollIntervalMs: 20,
      ...extra,
    } as FeedRuntimeOptions) as BitteamFeed;
    const states: FeedState[] = [];
    feed.onState((s) => states.push(s));
    return { feed, logger, states };
  }

  it("tells each state once over many polls, keeps polling past a throwing listener, and logs the throw", async () => {
    const { feed, logger, states } = open();
    let changes = 0;
    feed.onChange(() => {
      throw new Error("listener broke");
    });
    const off = feed.onChange(() => changes++);
    feed.start();
    feed.start();
    await waitFor(() => changes >= 3, "three polls");
    off();
    const seen = changes;
    await waitFor(() => http.requests.length >= seen + 3, "more polls");
    expect(changes).toBe(seen);
    expect(states).toEqual(["connecting", "live"]);
    expect(logger.records.find((r) => r.message === "feed listener threw")?.fields).toMatchObject({
      exchange: "bitteam",
      error: "listener broke",
    });
    feed.stop();
    expect(states).toEqual(["connecting", "live", "closed"]);
  });

  it("a failed poll within the stale time keeps the book live", async () => {
    const { feed, logger } = open({ staleAfterMs: 60_000 });
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    answer = () => ({ status: 502, body: "bad gateway" });
    const failures = feed.stats.failures;
    await waitFor(() => feed.stats.failures >= failures + 3, "failed polls");
    expect(feed.state).toBe("live");
    expect(feed.book.bidCount).toBe(1);
    expect(logger.records.find((r) => r.message === "feed poll failed")?.level).toBe("warn");
  });

  it("an answer that lands after stop() changes nothing and polls no more", async () => {
    answer = () => ({ body: { ok: true, result: BOOK }, delayMs: 150 });
    const { feed, states } = open();
    feed.start();
    await waitFor(() => http.requests.length === 1, "first poll asked");
    feed.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(feed.book.bidCount).toBe(0);
    expect(states).toEqual(["connecting", "closed"]);
    expect(http.requests.length).toBe(1);
  });

  it("concurrent refreshes share one request", async () => {
    answer = () => ({ body: { ok: true, result: BOOK }, delayMs: 50 });
    const { feed } = open({ pollIntervalMs: 60_000 });
    feed.start();
    await waitFor(() => feed.state === "live", "live");
    const before = http.requests.length;
    await Promise.all([feed.refresh(), feed.refresh(), feed.refresh()]);
    expect(http.requests.length).toBe(before + 1);
    await feed.refresh();
    expect(http.requests.length).toBe(before + 2);
  });
});

describe("reading levels (exchanges/core/levels.ts)", () => {
  it("takes the decimals exchanges write and refuses anything else, naming what is wrong", () => {
    for (const ok of ["0", "12", "1.", "1.50", ".5", "1e-5", "1E+3", "2.5e7"])
      expect(decimalText(ok, "price")).toBe(ok);
    expect(decimalText(0.0001, "amount")).toBe("0.0001");
    for (const bad of ["", "-1", "+1", "1.2.3", " 1", "1 ", "abc", "1abc", "e5", ".", "1e", "0x10", "NaN"])
      expect(() => decimalText(bad, "price"), bad).toThrow(`bad price: ${JSON.stringify(bad)}`);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true, {}])
      expect(() => decimalText(bad, "amount")).toThrow(FeedParseError);
    expect(() => decimalText(-2, "amount")).toThrow("bad amount: -2");
  });

  it("reads [price, amount, ...] rows, ignoring extra columns, and names the row it cannot read", () => {
    expect(parseLevels(undefined)).toEqual([]);
    expect(parseLevels(null)).toEqual([]);
    expect(
      parseLevels([
        ["1.5", "2", "9"],
        [3, 4],
      ]),
    ).toEqual([
      ["1.5", "2"],
      ["3", "4"],
    ]);
    expect(() => parseLevels({}, "bids")).toThrow("bids is not a list");
    expect(() => parseLevels([["1", "2"], ["3"]], "asks")).toThrow("asks[1] is not [price, amount]");
    expect(() => parseLevels(["12"], "asks")).toThrow("asks[0] is not [price, amount]");
    expect(() => parseLevels([["x", "1"]])).toThrow("bad price");
    expect(() => parseLevels([["1", "x"]])).toThrow("bad amount");
    expect(() => parseLevels([[]])).toThrow("levels[0] is not [price, amount]");
  });

  it("reads {price, amount} objects by the names given", () => {
    expect(parseLevelObjects(undefined, "p", "q")).toEqual([]);
    expect(parseLevelObjects(null, "p", "q")).toEqual([]);
    expect(parseLevelObjects([{ p: "1.5", q: "2" }], "p", "q")).toEqual([["1.5", "2"]]);
    expect(() => parseLevelObjects("x", "p", "q", "bids")).toThrow("bids is not a list");
    expect(() => parseLevelObjects([{ p: "1", q: "1" }, null], "p", "q", "asks")).toThrow("asks[1] is not an object");
    expect(() => parseLevelObjects([7], "p", "q")).toThrow("levels[0] is not an object");
    expect(() => parseLevelObjects([{ p: "1" }], "p", "q")).toThrow("bad amount");
  });

  it("keeps the digits of bare numbers in arrays, leaves object values and strings alone", () => {
    expect(parseJsonKeepingLevels('{"seq":12,"bids":[[0.0252,0.5833],[ 1e-7 , 2E+3 ]]}')).toEqual({
      seq: 12,
      bids: [
        ["0.0252", "0.5833"],
        ["1e-7", "2E+3"],
      ],
    });
    expect(parseJsonKeepingLevels("[\n\t0.10000000000000000001,-5]")).toEqual(["0.10000000000000000001", "-5"]);
    // a string holding brackets, commas, digits and escaped quotes is left as it is
    expect(parseJsonKeepingLevels('{"s":"a\\",1],[2","n":[3]}')).toEqual({ s: 'a",1],[2', n: ["3"] });
    expect(parseJsonKeepingLevels('[{"p":1.5},"x",true,null,[2]]')).toEqual([{ p: 1.5 }, "x", true, null, ["2"]]);
    expect(parseJsonKeepingLevels('{"a":{"b":[1]},"c":2}')).toEqual({ a: { b: ["1"] }, c: 2 });
    expect(parseJsonKeepingLevels("[]")).toEqual([]);
    expect(() => parseJsonKeepingLevels("[1,")).toThrow(SyntaxError);
  });

  it("reads a sequence number from a number or its text, nothing else", () => {
    expect(sequence(12, "u")).toBe(12);
    expect(sequence("12", "u")).toBe(12);
    expect(sequence(0, "u")).toBe(0);
    for (const bad of ["", "x", 1.5, "1.5", 2 ** 53, null, undefined, [1]])
      expect(() => sequence(bad, "seqId"), String(bad)).toThrow(`bad seqId: ${JSON.stringify(bad)}`);
  });

  it("computes the signed CRC-32 of the UTF-8 bytes (bitget's and okx's checksum)", () => {
    // the check value of CRC-32/ISO-HDLC, 0xcbf43926, as a signed 32-bit integer
    expect(crc32Signed("123456789")).toBe(-873187034);
    expect(crc32Signed("")).toBe(0);
    expect(crc32Signed("é")).toBe(235179326); // the two UTF-8 bytes c3 a9, not the code unit e9
    expect(crc32Signed("3366.1:7.0:3366.8:9.0:3366.0:2.0")).toBe(-358984628);
  });

  it("keys prices canonically and tells records from lists and null", () => {
    expect(priceKey("1.50")).toBe("1.5");
    expect(priceKey("1e-3")).toBe("0.001");
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isRecord("x")).toBe(false);
  });
});

describe("telling and undoing compression (exchanges/core/inflate.ts)", () => {
  it("takes a zlib header only with method 8, a window of at most 7 and a multiple of 31", () => {
    expect(compressionOf(Uint8Array.from([0x78, 0x9c]))).toBe("deflate");
    expect(compressionOf(Uint8Array.from([0x08, 0x1d]))).toBe("deflate"); // CINFO 0
    expect(compressionOf(Uint8Array.from([0x88, 0x00 + ((31 - ((0x88 << 8) % 31)) % 31)]))).toBe("deflate-raw"); // CINFO 8
    expect(compressionOf(Uint8Array.from([0x79, 0x00 + ((31 - ((0x79 << 8) % 31)) % 31)]))).toBe("deflate-raw"); // CM 9
    expect(compressionOf(Uint8Array.from([0x78, 0x9d]))).toBe("deflate-raw");
    expect(compressionOf(Uint8Array.from([0x1f, 0x8b]))).toBe("gzip");
    expect(compressionOf(Uint8Array.from([0x1f, 0x8c]))).toBe("deflate-raw");
    expect(compressionOf(Uint8Array.from([0x1e, 0x8b]))).toBe("deflate-raw");
    expect(compressionOf(Uint8Array.from([0x1f]))).toBe("deflate-raw");
  });

  it("reads bytes as plain text only when, past white space, they start like JSON and are UTF-8", () => {
    for (const text of ['\t\r\n {"a":1}', "[1]", '"x"']) expect(plainText(Buffer.from(text))).toBe(text);
    for (const text of ["", " \n\t\r", "x[1]", "1", " }"]) expect(plainText(Buffer.from(text)), text).toBeUndefined();
  });
});
