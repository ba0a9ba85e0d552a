import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../core/testing/http-mock.js";
import { recordingLogger, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { BitteamFeed } from "./feed.js";

describe("bitteam feed (polling)", () => {
  let http: MockServer;
  let feed: BitteamFeed | undefined;
  let book: { bids: string[][]; asks: string[][] };
  let failing = false;

  beforeEach(async () => {
    http = await startMockServer();
    failing = false;
    book = {
      bids: [
        ["0.0101", "500"],
        ["0.0100", "20"],
      ],
      asks: [["0.0103", "7"]],
    };
    http.on("GET /trade/api/orderbooks/del_usdt", () =>
      failing ? { status: 502, body: "bad gateway" } : { body: { ok: true, result: { ...book, pair: "del_usdt" } } },
    );
  });
  afterEach(async () => {
    feed?.stop();
    await http.close();
  });

  it("polls GET /trade/api/orderbooks/{pair_with_underscore} and shows result.bids/asks (docs/exchange-rules.md#states, #calls)", async () => {
    const logger = recordingLogger();
    feed = createFeed("bitteam", "DEL/USDT", { baseUrl: http.url, logger, pollIntervalMs: 30 } as never) as BitteamFeed;
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    const numeric = (levels: [string, string][]) => levels.map(([p, a]) => [Number(p), Number(a)]);
    const top = feed.book.top(50);
    expect(numeric(top.bids)).toEqual([
      [0.0101, 500],
      [0.01, 20],
    ]);
    expect(numeric(top.asks)).toEqual([[0.0103, 7]]);
    book = { bids: [["0.0102", "1"]], asks: [["0.0103", "7"]] };
    await waitFor(() => feed!.book.bidCount === 1, "next poll");
    expect(http.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("logs a failed poll only and keeps the last good book (docs/exchange-rules.md#states 'Failed polling is logged only')", async () => {
    const logger = recordingLogger();
    feed = createFeed("bitteam", "DEL/USDT", {
      baseUrl: http.url,
      logger,
      pollIntervalMs: 20,
      staleAfterMs: 60,
    } as never) as BitteamFeed;
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    failing = true;
    await waitFor(() => feed!.state === "stale", "stale after failures");
    expect(feed.book.bidCount).toBe(2);
    expect(logger.has("poll failed")).toBe(true);
    failing = false;
    await waitFor(() => feed!.state === "live", "live again");
  });

  it("refresh() polls at once (the manual refresh of docs/exchange-rules.md#states)", async () => {
    feed = createFeed("bitteam", "DEL/USDT", { baseUrl: http.url, pollIntervalMs: 60_000 } as never) as BitteamFeed;
    feed.start();
    await waitFor(() => feed!.state === "live", "live");
    const before = http.requests.length;
    await feed.refresh();
    expect(http.requests.length).toBe(before + 1);
  });
});
