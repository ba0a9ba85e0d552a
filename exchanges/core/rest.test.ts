/**
 * The one REST client of the exchange layer (exchanges/core/rest.ts) on real loopback servers: the
 * bytes sent, compressed answers, the time-out (docs/dashboard-rules.md#constants), the proxy
 * (docs/decisions.md#d12), dry run (docs/cli.md "Dry run") and network errors as ExchangeErrors
 * (docs/exchange-rules.md#errors).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Logger } from "../../lib/log.js";
import { rejection as failure } from "../../test/rejection.js";
import { buildQuery, DryRun, encodeQueryValue, RestClient, retryAfterMs } from "./rest.js";
import { type MockServer, startMockServer } from "./testing/http-mock.js";
import { tunnellingProxy } from "./testing/proxy.js";

const get = (path: string, query = "") => ({ method: "GET" as const, path, query, body: "", headers: {} });

describe("RestClient on a loopback server", () => {
  let server: MockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("sends the path, query, body and headers as built, and answers status, headers and text", async () => {
    server.on("POST /api/order", () => ({ status: 201, headers: { "x-seen": "yes" }, body: '{"id":1}' }));
    const rest = new RestClient("bybit", { baseUrl: `${server.url}//` });
    expect(rest.baseUrl).toBe(server.url);
    const body = '{"note":"é"}';
    const response = await rest.send({
      method: "POST",
      path: "/api/order",
      query: "a=1&b=x%20y",
      body,
      headers: { "x-sign": "abc" },
    });
    expect([response.status, response.text, response.headers["x-seen"]]).toEqual([201, '{"id":1}', "yes"]);
    const [sent] = server.requests;
    expect([sent?.method, sent?.path, sent?.query, sent?.body]).toEqual(["POST", "/api/order", "a=1&b=x%20y", body]);
    expect(sent?.headers["x-sign"]).toBe("abc");
    expect(sent?.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(sent?.headers["content-length"]).toBe("13");
    expect(sent?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("sends a GET without body, length or '?', and lets the caller's headers replace its own", async () => {
    server.on("GET /time", () => ({ body: "{}" }));
    const rest = new RestClient("okx", { baseUrl: server.url });
    expect(rest.url(get("/time"))).toBe(`${server.url}/time`);
    expect(rest.url(get("/time", "x=1"))).toBe(`${server.url}/time?x=1`);
    await rest.send({ ...get("/time"), headers: { "accept-encoding": "identity" } });
    const [sent] = server.requests;
    expect([sent?.query, sent?.body, sent?.headers["content-length"]]).toEqual(["", "", undefined]);
    expect(sent?.headers["accept-encoding"]).toBe("identity");
  });

  it("logs each answer at debug with exchange, method, path, status and time, never the query", async () => {
    server.on("GET /x", () => ({ status: 404, body: "{}" }));
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const logger: Logger = {
      debug: (message, fields) => lines.push([message, fields]),
      info() {},
      warn() {},
      error() {},
    };
    const response = await new RestClient("gate", { baseUrl: server.url, logger }).send(get("/x", "signature=secret"));
    expect(response.status).toBe(404);
    expect(lines).toHaveLength(1);
    const [message, fields] = lines[0]!;
    expect(message).toBe("http");
    expect({ ...fields, ms: typeof fields?.ms }).toEqual({
      exchange: "gate",
      method: "GET",
      path: "/x",
      status: 404,
      ms: "number",
    });
    expect(fields?.ms as number).toBeGreaterThanOrEqual(0);
    expect(fields?.ms as number).toBeLessThan(60_000);
  });

  it("times out a silent exchange as a network error naming the request, not its URL", async () => {
    server.on("GET /slow", () => ({ body: "{}", delayMs: 3000 }));
    const error = await failure(
      new RestClient("mexc", { baseUrl: server.url, timeoutMs: 200 }).send(get("/slow", "sig=1")),
    );
    expect([error.exchange, error.kind, error.code]).toEqual(["mexc", "network", "ETIMEDOUT"]);
    expect(error.detail).toBe("Request timed out after 200 ms (GET /slow)");
    expect((error.cause as Error).message).toBe("timed out after 200 ms");
  });

  it("leaves no time-out timer behind an answered request (a CLI command exits at once)", async () => {
    server.on("GET /fast", () => ({ body: "{}" }));
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
    const before = timers();
    await new RestClient("mexc", { baseUrl: server.url, timeoutMs: 60_000 }).send(get("/fast"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers()).toBe(before);
  });

  it("waits 10 s by default: an answer after a second arrives", async () => {
    server.on("GET /late", () => ({ body: '{"ok":true}', delayMs: 1000 }));
    const response = await new RestClient("mexc", { baseUrl: server.url }).send(get("/late"));
    expect(response.text).toBe('{"ok":true}');
  });

  it("builds and signs but sends nothing in a dry run", async () => {
    const rest = new RestClient("kucoin", { baseUrl: server.url, dryRun: true });
    const request = {
      method: "DELETE" as const,
      path: "/api/v1/orders",
      query: "symbol=BTC-USDT",
      body: "",
      headers: { "KC-API-SIGN": "s" },
    };
    let thrown: unknown;
    try {
      await rest.send(request);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DryRun);
    const dry = thrown as DryRun;
    expect([dry.name, dry.message, dry.url]).toEqual([
      "DryRun",
      "Dry run: DELETE /api/v1/orders not sent",
      `${server.url}/api/v1/orders?symbol=BTC-USDT`,
    ]);
    expect(dry.request).toBe(request);
    expect(server.requests).toEqual([]);
  });

  it("reaches the exchange through the proxy, which is told the exchange's host (docs/decisions.md#d12)", async () => {
    server.on("GET /api/v3/time", () => ({ body: '{"serverTime":1}' }));
    const proxy = await tunnellingProxy(() => server.url);
    try {
      const rest = new RestClient("mexc", { baseUrl: "http://api.mexc.invalid", proxy: proxy.url });
      expect((await rest.send(get("/api/v3/time"))).text).toBe('{"serverTime":1}');
      expect((await rest.send(get("/api/v3/time"))).text).toBe('{"serverTime":1}');
      expect(proxy.seen[0]).toBe("CONNECT api.mexc.invalid:80");
      expect(server.requests.map((r) => r.path)).toEqual(["/api/v3/time", "/api/v3/time"]);
    } finally {
      await proxy.close();
    }
  });

  it("tunnels an https address through the proxy too, naming host and port 443", async () => {
    const proxy = await tunnellingProxy(() => server.url);
    try {
      const rest = new RestClient("mexc", { baseUrl: "https://api.mexc.invalid", proxy: proxy.url });
      // the tunnel leads to a plain server here, so TLS fails after the CONNECT
      expect((await failure(rest.send(get("/api/v3/time")))).kind).toBe("network");
      expect(proxy.seen).toEqual(["CONNECT api.mexc.invalid:443"]);
    } finally {
      await proxy.close();
    }
  });

  it("a proxy that refuses the tunnel is a network error in the proxy agent's words, without a code of Node's", async () => {
    const refusing = createServer((_req, res) => res.writeHead(405).end());
    refusing.on("connect", (_req, socket) => socket.end("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n"));
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const proxy = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      const error = await failure(
        new RestClient("mexc", { baseUrl: "http://api.mexc.invalid", proxy }).send(get("/x")),
      );
      expect([error.kind, error.code, error.detail]).toEqual(["network", "ENETWORK", "Bad response: 407 (GET /x)"]);
      expect(server.requests).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it("without a proxy, a host that does not resolve is a network error proving nothing was sent", async () => {
    const error = await failure(new RestClient("xt", { baseUrl: "http://api.xt.invalid" }).send(get("/v4/time")));
    expect(error.kind).toBe("network");
    expect(["ENOTFOUND", "EAI_AGAIN"]).toContain(error.code);
  });
});

describe("RestClient's network failures (docs/exchange-rules.md#errors)", () => {
  it("a refused connection is ECONNREFUSED with Node's words, the request named", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failure(new RestClient("okx", { baseUrl: `http://127.0.0.1:${port}` }).send(get("/api/v5/x")));
    expect([error.kind, error.code]).toEqual(["network", "ECONNREFUSED"]);
    expect(error.detail).toBe(`connect ECONNREFUSED 127.0.0.1:${port} (GET /api/v5/x)`);
  });

  it("an address that is no URL is a network error that sent nothing, not a crash", async () => {
    const error = await failure(new RestClient("okx", { baseUrl: "not a url" }).send(get("/api/v5/x")));
    expect([error.kind, error.code]).toEqual(["network", "ERR_INVALID_URL"]);
    expect(error.detail).toBe("Invalid URL (GET /api/v5/x)");
  });

  it("speaks TLS to an https address (a plain server there fails the handshake)", async () => {
    const server = await startMockServer();
    try {
      const error = await failure(
        new RestClient("okx", { baseUrl: server.url.replace("http:", "https:") }).send(get("/api/v5/x")),
      );
      expect(error.kind).toBe("network");
      expect(error.code).not.toBe("ERR_INVALID_PROTOCOL");
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("RestClient decodes compressed answers", () => {
  let server: Server;
  let url: string;
  let reply: { encoding?: string; body: Buffer };
  beforeEach(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, reply.encoding ? { "content-encoding": reply.encoding } : {});
      res.end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("reads gzip, x-gzip, deflate and br (any case), and passes identity and unknown encodings through", async () => {
    const text = '{"price":"65000.5","name":"ü"}';
    const raw = Buffer.from(text, "utf8");
    const cases: [string | undefined, Buffer, string][] = [
      ["gzip", gzipSync(raw), text],
      ["GZIP", gzipSync(raw), text],
      ["x-gzip", gzipSync(raw), text],
      ["deflate", deflateSync(raw), text],
      ["br", brotliCompressSync(raw), text],
      ["identity", raw, text],
      [undefined, raw, text],
      ["compress", Buffer.from("plain"), "plain"],
    ];
    const rest = new RestClient("bitget", { baseUrl: url });
    for (const [encoding, body, expected] of cases) {
      reply = { ...(encoding ? { encoding } : {}), body };
      expect((await rest.send(get("/x"))).text, String(encoding)).toBe(expected);
    }
  });

  it("a body that does not decode is a network error, not a crash", async () => {
    reply = { encoding: "gzip", body: Buffer.from("not gzip") };
    const error = await failure(new RestClient("bitget", { baseUrl: url }).send(get("/x")));
    expect([error.kind, error.code]).toEqual(["network", "Z_DATA_ERROR"]);
    expect(error.detail).toMatch(/ \(GET \/x\)$/);
  });
});

describe("queries and Retry-After", () => {
  it("encodes only what needs it, upper-case hex as encodeURIComponent writes it", () => {
    expect(encodeQueryValue("BTC-USDT_1.5~")).toBe("BTC-USDT_1.5~");
    expect(encodeQueryValue("a b/c")).toBe("a%20b%2Fc");
    expect(encodeQueryValue("")).toBe("");
    expect(encodeQueryValue("/")).toBe("%2F");
    expect(encodeQueryValue(" ")).toBe("%20");
  });

  it("skips undefined values, keeps the given order unless sorted, and takes another encoder", () => {
    const params = { z: "1", a: undefined, m: true, b: 2, "k y": "a b" };
    expect(buildQuery(params)).toBe("z=1&m=true&b=2&k%20y=a%20b");
    expect(buildQuery(params, { sort: true })).toBe("b=2&k%20y=a%20b&m=true&z=1");
    expect(buildQuery(params, { encode: (v) => v.toUpperCase() })).toBe("Z=1&M=TRUE&B=2&K Y=A B");
    expect(buildQuery({})).toBe("");
  });

  it("reads Retry-After in seconds or as a date, never below zero", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "2" }, now)).toBe(2000);
    expect(retryAfterMs({ "retry-after": ["3", "9"] }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": "-5" }, now)).toBe(0);
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(retryAfterMs({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }, now)).toBe(0);
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "" }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
    const later = retryAfterMs({ "retry-after": new Date(Date.now() + 60_000).toUTCString() });
    expect(later).toBeGreaterThan(50_000);
    expect(later).toBeLessThanOrEqual(60_000);
  });
});
