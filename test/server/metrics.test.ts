/**
 * docs/operations.md#metrics: "`GET /metrics` in Prometheus' text format through a maintained
 * client library (`prom-client`)", parsed here by a Prometheus text parser
 * (parse-prometheus-text-format) with each family present: process and event loop, HTTP requests
 * by route and status with a latency histogram, live-channel connections, feed state and age per
 * venue and pair, bots by type and status, orders placed, cancelled, refused and unclear by venue,
 * exchange-call latency and errors by kind, rate-limit and sign-in-limit hits. "No secret, e-mail
 * or client name in a label." "Reachable only on loopback or with an admin token."
 */
import { request } from "node:http";
import parsePrometheusTextFormat, { type PrometheusFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { observedAdapter } from "../../exchanges/observe.js";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { ExchangeError } from "../../lib/errors.js";
import { ServerMetrics } from "../../server/metrics.js";
import { call, openLive, registerFirstAdmin, type SignedIn, startTestServer, type TestServer } from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const TOKEN = "metrics-token-0123456789abcdef0123456789";

/**
 * GET /metrics from 127.0.0.2, another loopback address than the calls' (127.0.0.1), so the
 * per-address public limit those calls reach does not refuse the scrape too.
 */
function scrape(
  server: { url: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/metrics`, { headers, localAddress: "127.0.0.2" }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], text }));
    });
    req.on("error", reject);
    req.end();
  });
}

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no family ${name} in ${families.map((f) => f.name).join(", ")}`);
  return found;
}

/** the value of the sample whose labels include `labels` */
function sample(families: PrometheusFamily[], name: string, labels: Record<string, string>): number | undefined {
  const match = family(families, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  if (!match) return undefined;
  return Number(match.value ?? match.count);
}

/** `<name>_count{<labels>}` of the text: parse-prometheus-text-format keeps no labels of a histogram */
function histogramCount(text: string, name: string, labels: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}_count{${labels}}`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("GET /metrics", () => {
  let server: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    server = await startTestServer({ signIn: { failuresPerAddress: 1 } });
    admin = await registerFirstAdmin(server);
    await server.storage.createBot({
      id: "bot-metrics-1",
      botType: "grid",
      path: DEMO,
      paths: [DEMO],
      setup: {},
      wrappedCredentials: null,
      state: { status: "stopped" },
      created: Date.now(),
    });
  });
  afterAll(async () => {
    await server.cleanup();
  });

  it("has every family, labelled by route, venue, pair, kind, type and status, and no e-mail, client or token", async () => {
    const trade = { token: admin.session.accessToken, headers: { path: pathHeader(DEMO) } };
    const placed = await call(server, "POST", "/token/trade/order/create", {
      ...trade,
      body: { price: "1000", amount: "0.001", side: "Buy" },
    });
    expect(placed.status).toBe(200);
    expect(
      (await call(server, "POST", "/token/trade/order/cancel", { ...trade, body: { id: placed.body.id } })).status,
    ).toBe(200);
    const refused = await call(server, "POST", "/token/trade/order/create", {
      ...trade,
      body: { price: "1000", amount: "100000", side: "Buy" },
    });
    expect(refused.status).toBe(502);
    expect(refused.body.kind).toBe("insufficient-funds");
    // a sign-in limit: one failure per address, then 604
    const wrong = { email: admin.email, password: "wrong password!", code: "ABCDEFGH", timestamp: String(Date.now()) };
    await call(server, "POST", "/login/password", { headers: wrong });
    const limited = await call(server, "POST", "/login/password", { headers: wrong });
    expect(limited.body.code).toBe(604);
    expect((await call(server, "GET", "/nowhere")).status).toBe(404);

    const live = await openLive(server.wsUrl);
    const book = new WebSocket(`${server.wsUrl}/book?exchange=paper&pair=BTC-USDT`);
    const first = new Promise((resolve) => book.once("message", resolve));
    await first;
    try {
      const res = await scrape(server);
      expect(res.status).toBe(200);
      expect(res.type).toContain("text/plain");
      expect(res.type).toContain("version=0.0.4");
      const families = parsePrometheusTextFormat(res.text);
      // process and event loop (prom-client's default metrics)
      expect(family(families, "process_cpu_user_seconds_total").type).toBe("COUNTER");
      expect(family(families, "process_resident_memory_bytes").type).toBe("GAUGE");
      expect(family(families, "nodejs_eventloop_lag_p99_seconds").type).toBe("GAUGE");
      // HTTP by route and status, with the latency histogram
      expect(
        sample(families, "spotdesk_http_requests_total", { route: "/token/trade/order/create", status: "200" }),
      ).toBe(1);
      expect(
        sample(families, "spotdesk_http_requests_total", { route: "/token/trade/order/create", status: "502" }),
      ).toBe(1);
      expect(sample(families, "spotdesk_http_requests_total", { route: "(none)", status: "404" })).toBe(1);
      const latency = family(families, "spotdesk_http_request_duration_seconds");
      expect(latency.type).toBe("HISTOGRAM");
      // the parser folds a histogram's label sets into one: its samples per label are read from the text
      expect(
        histogramCount(
          res.text,
          "spotdesk_http_request_duration_seconds",
          'route="/token/trade/order/create",method="POST"',
        ),
      ).toBe(2);
      // websocket connections by channel
      expect(sample(families, "spotdesk_websocket_connections", { channel: "live" })).toBe(1);
      expect(sample(families, "spotdesk_websocket_connections", { channel: "book" })).toBe(1);
      // feeds per venue and pair
      expect(sample(families, "spotdesk_feed_state", { venue: "paper", pair: "BTC/USDT", state: "live" })).toBe(1);
      expect(sample(families, "spotdesk_feed_state", { venue: "paper", pair: "BTC/USDT", state: "stale" })).toBe(0);
      expect(
        sample(families, "spotdesk_feed_update_age_seconds", { venue: "paper", pair: "BTC/USDT" }),
      ).toBeGreaterThanOrEqual(0);
      // bots by type and status
      expect(sample(families, "spotdesk_bots", { type: "grid", status: "stopped" })).toBe(1);
      // orders by venue and outcome; exchange calls by operation, errors by kind
      expect(sample(families, "spotdesk_orders_total", { venue: "paper", outcome: "placed" })).toBe(1);
      expect(sample(families, "spotdesk_orders_total", { venue: "paper", outcome: "cancelled" })).toBe(1);
      expect(sample(families, "spotdesk_orders_total", { venue: "paper", outcome: "refused" })).toBe(1);
      expect(family(families, "spotdesk_orders_total").help).toContain("unclear");
      expect(family(families, "spotdesk_exchange_call_duration_seconds").type).toBe("HISTOGRAM");
      expect(
        histogramCount(res.text, "spotdesk_exchange_call_duration_seconds", 'venue="paper",operation="createOrder"'),
      ).toBe(2);
      expect(
        sample(families, "spotdesk_exchange_errors_total", {
          venue: "paper",
          operation: "createOrder",
          kind: "insufficient-funds",
        }),
      ).toBe(1);
      // limit hits: the sign-in limit here (the call limits below)
      expect(sample(families, "spotdesk_limit_hits_total", { limit: "sign-in", route: "/login/password" })).toBe(1);
      // nothing about who: no e-mail, client, account path, user id or token
      for (const secret of [admin.email, "Demo", admin.session.uuid, admin.session.accessToken, "main"])
        expect(res.text).not.toContain(secret);
    } finally {
      live.ws.close();
      book.close();
    }
  });

  it("counts the call limit's 604 apart from the sign-in limit's", async () => {
    const limited = await startTestServer({ rateLimit: { calls: 3, windowMs: 60_000 } });
    try {
      for (let i = 0; i < 4; i++) await call(limited, "GET", "/health");
      const families = parsePrometheusTextFormat((await scrape(limited)).text);
      expect(sample(families, "spotdesk_http_requests_total", { route: "/health", status: "429" })).toBe(1);
      expect(sample(families, "spotdesk_limit_hits_total", { limit: "calls", route: "/health" })).toBe(1);
    } finally {
      await limited.cleanup();
    }
  });
});

describe("orders whose answer is unclear (docs/operations.md#metrics)", () => {
  it("counts an order call without a readable answer as unclear, not refused", async () => {
    const metrics = new ServerMetrics({ connections: () => ({ live: 0, book: 0 }), bots: async () => [] });
    try {
      const adapter = observedAdapter({
        id: "bybit",
        createOrder: async () => {
          throw new ExchangeError("bybit", "no readable answer", { kind: "network", unclear: true });
        },
      } as unknown as ExchangeAdapter);
      await expect(adapter.createOrder({ pair: "BTC/USDT", side: "Buy", price: "1", amount: "1" })).rejects.toThrow(
        "no readable answer",
      );
      const families = parsePrometheusTextFormat(await metrics.text());
      expect(sample(families, "spotdesk_orders_total", { venue: "bybit", outcome: "unclear" })).toBe(1);
      expect(sample(families, "spotdesk_orders_total", { venue: "bybit", outcome: "refused" })).toBeUndefined();
      expect(
        sample(families, "spotdesk_exchange_errors_total", {
          venue: "bybit",
          operation: "createOrder",
          kind: "network",
        }),
      ).toBe(1);
    } finally {
      metrics.close();
    }
  });
});

describe("who may read /metrics (docs/operations.md#metrics)", () => {
  it("refuses a caller off loopback without the token (403), serves it with the token", async () => {
    // behind a TLS proxy the caller is the address the proxy appended to X-Forwarded-For
    const server = await startTestServer({ behindTlsProxy: true, metrics: { token: TOKEN } });
    try {
      const remote = { "x-forwarded-for": "203.0.113.7" };
      const refused = await scrape(server, remote);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).msg).toBe(
        "Metrics are served to loopback callers, or with Authorization: Bearer and the metrics token (docs/operations.md#metrics)",
      );
      expect((await scrape(server, { ...remote, authorization: `Bearer ${TOKEN}x` })).status).toBe(403);
      const allowed = await scrape(server, { ...remote, authorization: `Bearer ${TOKEN}` });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain("spotdesk_http_requests_total");
      expect((await scrape(server, { "x-forwarded-for": "127.0.0.1" })).status).toBe(200);
    } finally {
      await server.cleanup();
    }
  });

  it("answers 404 when metrics.enabled is false, and refuses a token under 32 characters at start", async () => {
    const server = await startTestServer({ metrics: { enabled: false } });
    try {
      expect((await scrape(server)).status).toBe(404);
    } finally {
      await server.cleanup();
    }
    await expect(startTestServer({ metrics: { token: "short" } })).rejects.toThrow(
      "metrics.token (SPOTDESK_METRICS_TOKEN) must be 32 characters or more",
    );
  });
});
