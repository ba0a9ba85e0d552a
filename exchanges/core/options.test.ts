/**
 * The feed options of exchanges/core/options.ts: the reconnect backoff (docs/decisions.md#d14), the
 * REST host (--base-url) and the feed's REST calls, here through fetch on a real loopback server.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backoffDelay, defaultFetchJson, FEED_DEFAULTS, feedFetchJson, restBase } from "./options.js";
import { type MockServer, startMockServer } from "./testing/http-mock.js";

describe("backoffDelay (docs/decisions.md#d14)", () => {
  it("retries at once first, then doubles from the base up to the cap, scaled into [0.5, 1)", () => {
    const full = () => 0.999999;
    expect(backoffDelay(0, 500, 30_000, full)).toBe(0);
    expect(backoffDelay(-1, 500, 30_000, full)).toBe(0);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 500, 30_000, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, 500, 30_000, () => 0))).toEqual([250, 500, 1000]);
    expect(backoffDelay(7, 500, 30_000, () => 1)).toBe(30_000);
    expect(backoffDelay(1000, 500, 30_000, () => 0)).toBe(15_000);
    expect(backoffDelay(2, 333, 30_000, () => 0.5)).toBe(500);
  });
});

describe("restBase", () => {
  it("takes --base-url before the exchange's host, without trailing slashes", () => {
    expect(restBase({ baseUrl: "http://127.0.0.1:9//" }, "https://api.x.com")).toBe("http://127.0.0.1:9");
    expect(restBase({}, "https://api.x.com/")).toBe("https://api.x.com");
  });
});

describe("the feed's REST calls", () => {
  let server: MockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("GETs JSON, POSTs a JSON body with its type and the caller's headers, and answers text when asked", async () => {
    server.on("GET /depth", () => ({ body: '{"lastUpdateId":12345678901234567890}' }));
    server.on("POST /token", () => ({ body: { token: "t" } }));
    const fetchJson = defaultFetchJson();
    expect(await fetchJson(`${server.url}/depth`, { text: true })).toBe('{"lastUpdateId":12345678901234567890}');
    expect(await fetchJson(`${server.url}/depth`)).toEqual({ lastUpdateId: Number("12345678901234567890") });
    expect(await fetchJson(`${server.url}/token`, { method: "POST", body: "{}", headers: { "x-a": "1" } })).toEqual({
      token: "t",
    });
    const [get, , post] = server.requests;
    expect([get?.method, get?.headers.accept, get?.headers["content-type"], get?.body]).toEqual([
      "GET",
      "application/json",
      undefined,
      "",
    ]);
    expect([post?.method, post?.headers["content-type"], post?.headers["x-a"], post?.body]).toEqual([
      "POST",
      "application/json",
      "1",
      "{}",
    ]);
  });

  it("fails an HTTP error naming its status and path, and a silent host after its time-out", async () => {
    server.on("GET /gone", () => ({ status: 503, body: "x".repeat(300) }));
    await expect(defaultFetchJson()(`${server.url}/gone?q=1`)).rejects.toThrow(
      `HTTP 503 from /gone: ${"x".repeat(200)}`,
    );
    await expect(defaultFetchJson()(`${server.url}/gone`)).rejects.not.toThrow("x".repeat(201));
    server.on("GET /slow", () => ({ body: "{}", delayMs: 3000 }));
    await expect(defaultFetchJson(200)(`${server.url}/slow`)).rejects.toThrow(/abort|time/i);
    server.on("GET /late", () => ({ body: '{"ok":1}', delayMs: 500 }));
    expect(await defaultFetchJson()(`${server.url}/late`)).toEqual({ ok: 1 });
    expect(FEED_DEFAULTS.httpTimeoutMs).toBe(10_000);
  });

  it("takes the given fetchJson first, then the transport with the feed's time-out, proxy and logger, else fetch", async () => {
    const given = async () => "given";
    expect(feedFetchJson("bybit", { fetchJson: given, transport: () => async () => "transport" })).toBe(given);
    const opened: unknown[] = [];
    const viaTransport = feedFetchJson("okx", {
      proxy: "http://proxy:1",
      httpTimeoutMs: 1234,
      transport: (exchange, options) => {
        opened.push([exchange, options.timeoutMs, options.proxy, options.logger]);
        return async () => "transport";
      },
    });
    expect(await viaTransport("u")).toBe("transport");
    feedFetchJson("gate", {
      transport: (_e, options) => {
        opened.push(options.timeoutMs);
        return async () => 0;
      },
    });
    expect(opened).toEqual([["okx", 1234, "http://proxy:1", undefined], 10_000]);
    server.on("GET /p", () => ({ body: [1] }));
    expect(await feedFetchJson("gate", {})(`${server.url}/p`)).toEqual([1]);
    server.on("GET /q", () => ({ body: "{}", delayMs: 3000 }));
    await expect(feedFetchJson("gate", { httpTimeoutMs: 200 })(`${server.url}/q`)).rejects.toThrow(/abort|time/i);
  });
});
