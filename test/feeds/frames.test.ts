/**
 * The one frame decoder of every feed (docs/feeds.md "Frames"): text as is; binary by its first
 * bytes — gzip, zlib, otherwise raw deflate — and plain text sent as binary. Played through the
 * bitmart feed against its websocket mock, so a venue that compresses, or stops compressing,
 * needs no code of its own.
 */
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BitmartFeed } from "../../exchanges/bitmart/feed.js";
import { BitmartMock } from "../../exchanges/bitmart/ws-mock.js";
import { browserInflate, compressionOf, plainText } from "../../exchanges/core/inflate.js";
import { parseJsonKeepingLevels } from "../../exchanges/core/levels.js";
import { sameBook, testOptions } from "../../exchanges/core/testing/feed-helpers.js";
import { ladder, waitFor } from "../../exchanges/core/testing/ws-mock.js";
import { nodeInflate } from "../../exchanges/feed-node.js";
import { createFeed } from "../../exchanges/feeds.js";

const TEXT = '{"table":"spot/depth/increase100","data":[]}';

describe("compressionOf", () => {
  it("tells gzip by 1f 8b, zlib by a valid 78 header, and takes anything else for raw deflate", () => {
    expect(compressionOf(gzipSync(TEXT))).toBe("gzip");
    for (const level of [0, 1, 6, 9]) expect(compressionOf(deflateSync(TEXT, { level }))).toBe("deflate");
    expect(compressionOf(deflateRawSync(TEXT))).toBe("deflate-raw");
    // 78 followed by a byte that does not make a zlib header is raw deflate data
    expect(compressionOf(Uint8Array.from([0x78, 0x00, 0x01]))).toBe("deflate-raw");
    expect(compressionOf(new Uint8Array(0))).toBe("deflate-raw");
  });

  it("reads plain text sent as binary only when it is UTF-8 text that looks like JSON", () => {
    expect(plainText(Buffer.from(` ${TEXT}`))).toBe(` ${TEXT}`);
    expect(plainText(Buffer.from("pong"))).toBeUndefined();
    expect(plainText(Uint8Array.from([0x7b, 0xff, 0xfe]))).toBeUndefined();
  });
});

describe("inflate: Node's zlib and the browser's DecompressionStream agree", () => {
  for (const [format, bytes] of [
    ["gzip", gzipSync(TEXT)],
    ["deflate", deflateSync(TEXT)],
    ["deflate-raw", deflateRawSync(TEXT)],
  ] as const) {
    it(`inflates ${format}`, async () => {
      expect(Buffer.from(nodeInflate(bytes, format) as Uint8Array).toString()).toBe(TEXT);
      const browser = browserInflate()!;
      expect(Buffer.from(await browser(bytes, format)).toString()).toBe(TEXT);
    });
  }
});

describe("one decoder for every frame form", () => {
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

  for (const frames of ["deflate-raw", "deflate", "gzip", "binary-text", "text"] as const) {
    for (const inflate of ["node", "browser"] as const) {
      it(`keeps the true book from ${frames} frames with the ${inflate} inflate, a version gap included`, async () => {
        mock.frames = frames;
        const { options } = testOptions(mock.server.url, inflate === "browser" ? { inflate: browserInflate() } : {});
        feed = createFeed("bitmart", "BTC/USDT", options) as BitmartFeed;
        feed.start();
        await waitFor(() => feed!.state === "live", "live");
        for (let i = 1; i <= 10; i++) mock.update("BTC_USDT", [[`99.${String(i).padStart(2, "0")}`, String(i)]], []);
        mock.update("BTC_USDT", [["98.00", "1"]], [], { send: false });
        mock.update("BTC_USDT", [], [["100.00", "0"]]);
        await waitFor(
          () => feed!.stats.resyncs === 1 && feed!.state === "live" && sameBook(feed!.book, mock.truth),
          "healed",
        );
        expect(feed.stats.parseFailures).toBe(0);
      });
    }
  }

  it("keeps frames in order when a text frame follows binary ones still inflating in the browser's asynchronous inflate", async () => {
    const { options } = testOptions(mock.server.url, { inflate: browserInflate() });
    feed = createFeed("bitmart", "BTC/USDT", options) as BitmartFeed;
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    for (let i = 1; i <= 5; i++) {
      mock.frames = "deflate-raw";
      mock.update("BTC_USDT", [[`99.${60 + i}`, String(i)]], []);
      mock.frames = "text";
      mock.update("BTC_USDT", [], [[`100.${60 + i}`, String(i)]]);
    }
    await waitFor(() => sameBook(feed!.book, mock.truth), "all updates");
    // a text frame handled before the binary one ahead of it would have been a version gap
    expect(feed.stats.resyncs).toBe(0);
    expect(feed.stats.parseFailures).toBe(0);
  });

  it("switches form on a reconnect without a word of configuration (compressed, then plain)", async () => {
    const { options } = testOptions(mock.server.url);
    feed = createFeed("bitmart", "BTC/USDT", options) as BitmartFeed;
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    mock.frames = "text";
    mock.server.drop();
    mock.update("BTC_USDT", [["97.00", "1"]], [], { send: false });
    await waitFor(
      () => mock.subscriptions.length === 2 && feed!.state === "live" && sameBook(feed!.book, mock.truth),
      "back, plain",
    );
    expect(feed.stats.parseFailures).toBe(0);
  });
});

describe("parseJsonKeepingLevels (lbank, htx: levels as bare JSON numbers)", () => {
  it("reads every array-element number as its decimal text and leaves other numbers and strings alone", () => {
    const text =
      '{"depth":{"asks":[[0.12345678901234567890,1e-7],[2, 3]],"bids":[]},"count":100,"note":"a,1] [2,3]","seqNum":123456789012,"ts":[5]}';
    expect(parseJsonKeepingLevels(text)).toEqual({
      depth: {
        asks: [
          ["0.12345678901234567890", "1e-7"],
          ["2", "3"],
        ],
        bids: [],
      },
      count: 100,
      note: "a,1] [2,3]",
      seqNum: 123456789012,
      ts: ["5"],
    });
  });

  it("still refuses text that is not JSON", () => {
    expect(() => parseJsonKeepingLevels("{[1,2")).toThrow();
  });

  it("tells array elements from object values inside arrays, and leaves true, false and null alone", () => {
    expect(parseJsonKeepingLevels('[{"a":1,"b":[2, -3.5e-2]},4,true,null,"x\\",5"]')).toEqual([
      { a: 1, b: ["2", "-3.5e-2"] },
      "4",
      true,
      null,
      'x",5',
    ]);
  });
});
