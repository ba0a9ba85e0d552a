import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { createFeed } from "../../exchanges/feeds.js";
import type { WebSocketLike } from "../../exchanges/types.js";
import { resolveConfig } from "../../server/config.js";
import { call, startTestServer, type TestServer } from "./helpers.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback stand-in for bit.team and api.kucoin.com; `answer` decides each reply. */
interface Upstream {
  url: string;
  seen: Seen[];
  answer: (seen: Seen, res: import("node:http").ServerResponse) => void;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const upstream = { seen: [] as Seen[] } as Upstream;
  upstream.answer = (_seen, res) => {
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"no answer set"}');
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      upstream.seen.push(seen);
      upstream.answer(seen, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return upstream;
}

// Digits beyond a double's precision: a relay that re-serializes would change them (docs/exchange-rules.md: big numbers).
const BOOK = '{"ok":true,"result":{"bids":[["0.123456789012345678",12345678901234567890.5]],"asks":[["0.2","3"]]}}';
const BULLET =
  '{"code":"200000","data":{"token":"public-token","instanceServers":[{"endpoint":"wss://ws-api-spot.kucoin.com/","pingInterval":18000}]}}';

let upstream: Upstream;
let server: TestServer;
beforeEach(async () => {
  upstream = await startUpstream();
  server = await startTestServer({
    relay: { bitteam: upstream.url, kucoin: `${upstream.url}/kucoin-root`, timeoutMs: 400, maxBytes: 4096 },
  });
});
afterEach(async () => {
  await server.cleanup();
  await upstream.close();
});

async function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(server.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") };
}

describe("gateway relays (docs/decisions.md#d14, docs/exchange-rules.md#calls public order-book calls)", () => {
  it("relays GET /api/bitteam/trade/api/orderbooks/{pair} byte for byte, with no caller cookie or credentials upstream", async () => {
    upstream.answer = (_seen, res) => {
      res.writeHead(200, { "content-type": "application/json", "set-cookie": "upstream=1" });
      res.end(BOOK);
    };
    const res = await raw("GET", "/api/bitteam/trade/api/orderbooks/del_usdt?limit=5", {
      cookie: "spotdesk_refresh=secret-refresh",
      authorization: "Bearer secret-access",
      key: "0123456789abcdef0123456789abcdef",
      "x-forwarded-for": "10.0.0.1",
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe(BOOK);
    expect(res.type).toMatch(/^application\/json/);
    expect(upstream.seen).toHaveLength(1);
    const seen = upstream.seen[0]!;
    expect(seen.method).toBe("GET");
    expect(seen.url).toBe("/trade/api/orderbooks/del_usdt"); // no query passed along
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers.key).toBeUndefined();
    expect(seen.headers["x-forwarded-for"]).toBeUndefined();
    expect(JSON.stringify(seen.headers)).not.toContain("secret");
  });

  it("relays POST /api/kucoin/api/v1/bullet-public under the configured base, without the caller's body", async () => {
    upstream.answer = (_seen, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(BULLET);
    };
    const res = await raw(
      "POST",
      "/api/kucoin/api/v1/bullet-public",
      { "content-type": "application/json", cookie: "a=b" },
      '{"inject":"me"}',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.token).toBe("public-token");
    const seen = upstream.seen[0]!;
    expect(seen).toMatchObject({ method: "POST", url: "/kucoin-root/api/v1/bullet-public", body: "{}" });
    expect(seen.headers.cookie).toBeUndefined();
  });

  it("passes the upstream status and JSON body through (a 429 stays a 429)", async () => {
    upstream.answer = (_seen, res) => {
      res.writeHead(429, { "content-type": "application/json" });
      res.end('{"ok":false,"code":429,"message":"Too many requests"}');
    };
    const res = await raw("GET", "/api/bitteam/trade/api/orderbooks/BTC_USDT");
    expect(res.status).toBe(429);
    expect(res.text).toBe('{"ok":false,"code":429,"message":"Too many requests"}');
  });

  it("relays only the whitelisted paths: anything else is 404 and never reaches the upstream", async () => {
    for (const path of [
      "/api/bitteam/trade/api/ccxt/balance",
      "/api/bitteam/trade/api/orderbooks",
      "/api/bitteam/trade/api/orderbooks/BTC_USDT/extra",
      "/api/kucoin/api/v1/bullet-private",
      "/api/kucoin/api/v1/market/orderbook/level2_100",
      "/api/kucoin/http://169.254.169.254/latest",
      "/api/other/anything",
    ]) {
      const get = await call(server, "GET", path);
      expect(get.status, path).toBe(404);
      expect(get.body.code, path).toBe(600);
      const post = await call(server, "POST", path);
      expect(post.status, path).toBe(404);
    }
    expect((await call(server, "GET", "/api/kucoin/api/v1/bullet-public")).status).toBe(405);
    expect((await call(server, "POST", "/api/bitteam/trade/api/orderbooks/BTC_USDT")).status).toBe(405);
    for (const pair of [
      "..%2F..%2Fccxt%2Fbalance",
      "BTC%2FUSDT",
      "BTC_USDT%3Fx%3D1",
      "BTC-USDT",
      "%40evil.example_com",
    ]) {
      const bad = await call(server, "GET", `/api/bitteam/trade/api/orderbooks/${pair}`);
      expect(bad.status, pair).toBe(400);
      expect(bad.body.msg, pair).toMatch(/^Invalid pair/);
    }
    expect(upstream.seen).toEqual([]);
  });

  it("answers 600 (504) naming the time-out when the upstream does not answer in time", async () => {
    upstream.answer = () => {}; // never answers
    const started = Date.now();
    const res = await call(server, "GET", "/api/bitteam/trade/api/orderbooks/BTC_USDT");
    expect(res.status).toBe(504);
    expect(res.body).toEqual({
      code: 600,
      msg: `The bitteam relay got no answer from ${new URL(upstream.url).host} within 400 ms`,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("refuses an oversized answer, a non-JSON answer and a redirect with a clear 600", async () => {
    upstream.answer = (_seen, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ result: { bids: Array.from({ length: 500 }, () => ["1", "2"]) } }));
    };
    const big = await call(server, "GET", "/api/bitteam/trade/api/orderbooks/BTC_USDT");
    expect(big.status).toBe(502);
    expect(big.body.msg).toMatch(/larger than 4096 bytes/);

    upstream.answer = (_seen, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>captcha</html>");
    };
    const html = await call(server, "POST", "/api/kucoin/api/v1/bullet-public");
    expect(html.status).toBe(502);
    expect(html.body.msg).toMatch(/^The kucoin relay got an answer that is not JSON/);

    upstream.answer = (_seen, res) => {
      res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" });
      res.end();
    };
    const redirect = await call(server, "GET", "/api/bitteam/trade/api/orderbooks/BTC_USDT");
    expect(redirect.status).toBe(502);
    expect(redirect.body.msg).toMatch(/redirect \(302\).*does not follow it/);
    expect(upstream.seen.map((s) => s.url)).not.toContain("/elsewhere");
  });

  it("answers 600 (502) when the upstream cannot be reached", async () => {
    const closed = upstream.url;
    await upstream.close();
    upstream = await startUpstream(); // for afterEach
    const restarted = await server.restart({ relay: { bitteam: closed, timeoutMs: 2000 } });
    server = restarted;
    const res = await call(server, "GET", "/api/bitteam/trade/api/orderbooks/BTC_USDT");
    expect(res.status).toBe(502);
    expect(res.body.msg).toMatch(/^The bitteam relay could not reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
  });
});

describe("relay configuration", () => {
  const dataDir = "/tmp/spotdesk-config-unused";
  it("defaults to the exchanges' public hosts; SPOTDESK_RELAY_BITTEAM and SPOTDESK_RELAY_KUCOIN override", () => {
    expect(resolveConfig({ dataDir }, {}).relay).toEqual({
      bitteam: "https://bit.team",
      kucoin: "https://api.kucoin.com",
      timeoutMs: 10_000,
      maxBytes: 1024 * 1024,
    });
    const env = resolveConfig(
      { dataDir },
      { SPOTDESK_RELAY_BITTEAM: "http://127.0.0.1:9000/", SPOTDESK_RELAY_KUCOIN: "https://kucoin.example.com/gw" },
    );
    expect(env.relay).toMatchObject({ bitteam: "http://127.0.0.1:9000", kucoin: "https://kucoin.example.com/gw" });
    expect(() => resolveConfig({ dataDir }, { SPOTDESK_RELAY_BITTEAM: "file:///etc/passwd" })).toThrow(/http\(s\) URL/);
    expect(() => resolveConfig({ dataDir }, { SPOTDESK_RELAY_KUCOIN: "https://u:p@kucoin.example.com" })).toThrow(
      /plain base URL/,
    );
  });
});

describe("the catalogue's browser relays (docs/exchanges.md \"The browser's feed\")", () => {
  it("each `browserFeed.relay` is a gateway route: the feed built as the dashboard builds it reaches the upstream", async () => {
    const relayed = Object.values(CATALOGUE).filter((info) => info.browserFeed?.relay);
    expect(relayed.map((info) => info.id).sort()).toEqual(["bitteam", "kucoin"]);
    upstream.answer = (seen, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(seen.url.includes("bullet-public") ? BULLET : BOOK);
    };
    for (const info of relayed) {
      const before = upstream.seen.length;
      // an open socket that never answers: the relayed REST call is what is checked
      const socket: WebSocketLike = {
        readyState: 1,
        binaryType: "",
        send() {},
        close() {},
        onopen: null,
        onmessage: null,
        onclose: null,
        onerror: null,
      };
      const feed = createFeed(info.id, "BTC/USDT", {
        baseUrl: `${server.url}${info.browserFeed?.relay}`,
        connect: () => socket,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      } as Parameters<typeof createFeed>[2]);
      try {
        feed.start();
        for (let i = 0; i < 100 && upstream.seen.length === before; i++) await new Promise((r) => setTimeout(r, 30));
      } finally {
        feed.stop();
      }
      const seen = upstream.seen.slice(before).map((s) => `${s.method} ${s.url}`);
      expect(seen[0]).toBe(
        info.id === "kucoin" ? "POST /kucoin-root/api/v1/bullet-public" : "GET /trade/api/orderbooks/btc_usdt",
      );
    }
  });
});
