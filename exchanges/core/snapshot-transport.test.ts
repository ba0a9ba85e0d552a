/**
 * One HTTP transport for orders and book snapshots (docs/feeds.md "Snapshots"): in Node a feed's
 * REST calls go through the adapters' RestClient, so the proxy of docs/decisions.md#d12 (`--proxy`) carries
 * a polled book (bitteam) and a REST snapshot behind a websocket (gate) as it carries orders.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../test/exchanges/run-cli.js";
import { nodeFeedOptions } from "../feed-node.js";
import { createFeed } from "../feeds.js";
import { GateMock } from "../gate/ws-mock.js";
import type { BookFeed } from "../types.js";
import { expectSameBook, testOptions } from "./testing/feed-helpers.js";
import { type MockServer, startMockServer } from "./testing/http-mock.js";
import { tunnellingProxy } from "./testing/proxy.js";
import { ladder, recordingLogger, waitFor } from "./testing/ws-mock.js";

describe("feed snapshots take the adapters' transport and its proxy (docs/decisions.md#d12)", () => {
  let feed: BookFeed | undefined;
  afterEach(() => feed?.stop());

  describe("bitteam, polled", () => {
    let http: MockServer;
    beforeEach(async () => {
      http = await startMockServer();
      http.on("GET /trade/api/orderbooks/del_usdt", () => ({
        body: { ok: true, result: { bids: [["0.0101", "500"]], asks: [["0.0103", "7"]], pair: "del_usdt" } },
      }));
    });
    afterEach(() => http.close());

    it("polls its book through --proxy, naming the exchange's host to the proxy", async () => {
      const proxy = await tunnellingProxy(() => http.url);
      try {
        feed = createFeed("bitteam", "DEL/USDT", {
          ...nodeFeedOptions(),
          baseUrl: "http://bitteam.invalid",
          proxy: proxy.url,
          logger: recordingLogger(),
          pollIntervalMs: 30,
        } as never);
        feed.start();
        await waitFor(() => feed!.state === "live", "live through the proxy");
        expect(feed.book.top(5).bids).toEqual([["0.0101", "500"]]);
        expect(proxy.seen[0]).toBe("CONNECT bitteam.invalid:80");
        // inside the tunnel: the adapters' request, gzip accepted, the exchange's host named
        expect(http.requests[0]?.headers).toMatchObject({ host: "bitteam.invalid", accept: "application/json" });
        expect(http.requests[0]?.headers["accept-encoding"]).toContain("gzip");
      } finally {
        await proxy.close();
      }
    });

    it("the built CLI's `book --proxy` prints the book it polled through the proxy", async () => {
      const proxy = await tunnellingProxy(() => http.url);
      try {
        const result = await runCli(
          [
            "--exchange",
            "bitteam",
            "--base-url",
            "http://bitteam.invalid",
            "--proxy",
            proxy.url,
            "--json",
            "book",
            "DEL/USDT",
          ],
          {},
        );
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
        const book = JSON.parse(result.stdout) as { bids: string[][]; asks: string[][] };
        expect([book.bids, book.asks]).toEqual([[["0.0101", "500"]], [["0.0103", "7"]]]);
        expect(proxy.seen).toContain("CONNECT bitteam.invalid:80");
      } finally {
        await proxy.close();
      }
    });

    it("without a proxy calls the host itself: an unresolvable host leaves the book empty and the feed polling", async () => {
      const logger = recordingLogger();
      feed = createFeed("bitteam", "DEL/USDT", {
        ...nodeFeedOptions(),
        baseUrl: "http://bitteam.invalid",
        logger,
        pollIntervalMs: 30,
      } as never);
      feed.start();
      await waitFor(
        () => logger.records.some((r) => r.level === "warn" || r.level === "error"),
        "a failed poll logged",
      );
      expect(feed.book.bidCount).toBe(0);
      expect(http.requests).toHaveLength(0);
    });
  });

  describe("gate, REST snapshot behind a websocket", () => {
    let mock: GateMock;
    beforeEach(async () => {
      mock = await GateMock.start();
      mock.truth.reset(ladder("bid", 10), ladder("ask", 10));
    });
    afterEach(() => mock.close());

    it("fetches the snapshot through --proxy while the socket connects directly", async () => {
      const proxy = await tunnellingProxy(() => mock.http.url);
      try {
        const { options } = testOptions(mock.ws.url, { baseUrl: "http://gate.invalid", proxy: proxy.url });
        feed = createFeed("gate", "BTC/USDT", options);
        feed.start();
        await waitFor(() => feed!.state === "live", "live");
        expectSameBook(feed.book, mock.truth);
        expect(proxy.seen).toContain("CONNECT gate.invalid:80");
        expect(mock.http.requests[0]?.path).toBe("/api/v4/spot/order_book");
        expect(mock.http.requests[0]?.headers.host).toBe("gate.invalid");
      } finally {
        await proxy.close();
      }
    });
  });
});
