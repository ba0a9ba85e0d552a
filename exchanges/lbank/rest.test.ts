import { createHash, createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { LBANK_KEY, LBANK_SECRET, type LbankMock, lbankExpectedSign, startLbankMock } from "./mock.js";
import {
  LBANK_PATHS,
  LbankAdapter,
  lbankEchostr,
  lbankParamString,
  lbankSignature,
  lbankSignedRequest,
  parseLbankBalances,
  parseLbankOpenOrders,
  parseLbankOrder,
} from "./rest.js";

// node:crypto as it is, with randomBytes, createHash and createSecretKey counted: the echostr pool, the
// one-shot MD5 and the imported HMAC key are speed paths whose results match the plain calls, so only
// the number of calls tells them apart.
const calls = vi.hoisted(() => ({ randomBytes: 0, createHash: 0, createSecretKey: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  const randomBytes = (size: number) => {
    calls.randomBytes++;
    return actual.randomBytes(size);
  };
  const createHash = (algorithm: string) => {
    calls.createHash++;
    return actual.createHash(algorithm);
  };
  const createSecretKey = (key: Buffer) => {
    calls.createSecretKey++;
    return actual.createSecretKey(key);
  };
  return { ...actual, randomBytes, createHash, createSecretKey };
});

const credentials = { api: LBANK_KEY, secret: LBANK_SECRET };
let mock: LbankMock;
let lbank: ExchangeAdapter;

beforeEach(async () => {
  mock = await startLbankMock();
  lbank = createExchange("lbank", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const form = () => new URLSearchParams(mock.server.requests.at(-1)!.body);
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);

describe("lbank signing (docs/exchange-rules.md#calls 'lbank signs an MD5 digest', LBank v2 docs 'Authentication')", () => {
  // Changed: the form body no longer repeats timestamp, signature_method and echostr. The docs'
  // "Submit" step sends the endpoint's parameters, api_key and sign; the three are request headers
  // (as the official Java and Node connectors send them).
  it("signs the sorted parameters with api_key, timestamp, signature_method and echostr (MD5 upper-case, then HMAC-SHA256 hex); the body holds parameters, api_key and sign", () => {
    const request = lbankSignedRequest(
      credentials,
      1700000000000,
      LBANK_PATHS.createOrder,
      { symbol: "btc_usdt", type: "buy", price: "1", amount: "2" },
      "a".repeat(32),
    );
    const signed = `amount=2&api_key=${LBANK_KEY}&echostr=${"a".repeat(32)}&price=1&signature_method=HmacSHA256&symbol=btc_usdt&timestamp=1700000000000&type=buy`;
    const digest = createHash("md5").update(signed).digest("hex").toUpperCase();
    expect(request.body).toBe(
      `amount=2&api_key=${LBANK_KEY}&price=1&symbol=btc_usdt&type=buy&sign=${createHmac("sha256", LBANK_SECRET).update(digest).digest("hex")}`,
    );
    expect(request.headers).toMatchObject({
      "Content-Type": "application/x-www-form-urlencoded",
      timestamp: "1700000000000",
      signature_method: "HmacSHA256",
      echostr: "a".repeat(32),
    });
    expect(lbankSignature(LBANK_SECRET, lbankParamString({ b: "2", a: "1" }))).toBe(
      createHmac("sha256", LBANK_SECRET)
        .update(createHash("md5").update("a=1&b=2").digest("hex").toUpperCase())
        .digest("hex"),
    );
  });
});

describe("lbank signing speed paths (docs/mutation.md): the same signature as the plain calls, with fewer of them", () => {
  it("draws each echostr (32 hex digits, all different) from random bytes fetched once per 256 requests", () => {
    // draw up to the next refill, so that the count starts on a fresh pool
    const before = calls.randomBytes;
    for (let i = 0; i < 300 && calls.randomBytes === before; i++) lbankEchostr();
    const start = calls.randomBytes;
    expect(start).toBe(before + 1);
    const drawn = new Set<string>();
    for (let i = 0; i < 255; i++) drawn.add(lbankEchostr());
    expect(calls.randomBytes).toBe(start);
    drawn.add(lbankEchostr());
    expect(calls.randomBytes).toBe(start + 1);
    expect(drawn.size).toBe(256);
    for (const echostr of drawn) expect(echostr).toMatch(/^[0-9a-f]{32}$/);
  });

  it("digests with node:crypto's one-shot hash where Node has it (20.12 and later), with no Hash object", () => {
    const before = calls.createHash;
    const sign = lbankSignature(LBANK_SECRET, "a=1&b=2");
    expect(calls.createHash).toBe(before);
    expect(sign).toBe(
      createHmac("sha256", LBANK_SECRET)
        .update(createHash("md5").update("a=1&b=2").digest("hex").toUpperCase())
        .digest("hex"),
    );
  });

  it("imports the HMAC key once for a run of requests with one secret, and again when the secret changes", () => {
    const plain = (secret: string, text: string) =>
      createHmac("sha256", secret).update(createHash("md5").update(text).digest("hex").toUpperCase()).digest("hex");
    const before = calls.createSecretKey;
    expect([lbankSignature("first-secret", "a=1"), lbankSignature("first-secret", "a=2")]).toEqual([
      plain("first-secret", "a=1"),
      plain("first-secret", "a=2"),
    ]);
    expect(calls.createSecretKey).toBe(before + 1);
    expect([lbankSignature("second-secrét", "a=1"), lbankSignature("first-secret", "a=1")]).toEqual([
      plain("second-secrét", "a=1"),
      plain("first-secret", "a=1"),
    ]);
    expect(calls.createSecretKey).toBe(before + 3);
  });

  it("signs the same on a Node without crypto.hash (before 20.12): MD5 through createHash", async () => {
    // a second copy of rest.ts (the query makes it another module) that sees node:crypto without `hash`;
    // its imports of lib/ stay the ones every other test uses
    vi.doMock("node:crypto", async (importOriginal) => {
      const actual = await importOriginal<typeof import("node:crypto")>();
      const createHash = (algorithm: string) => {
        calls.createHash++;
        return actual.createHash(algorithm);
      };
      return { ...actual, createHash, hash: undefined };
    });
    try {
      const copy = "./rest.js?without-hash";
      const older = (await import(/* @vite-ignore */ copy)) as typeof import("./rest.js");
      const hashes = calls.createHash;
      const request = older.lbankSignedRequest(credentials, 1700000000000, "/p", { b: "2", a: "é&=" }, "e".repeat(32));
      expect(calls.createHash).toBe(hashes + 1);
      const signed = `a=é&=&api_key=${LBANK_KEY}&b=2&echostr=${"e".repeat(32)}&signature_method=HmacSHA256&timestamp=1700000000000`;
      const digest = createHash("md5").update(signed).digest("hex").toUpperCase();
      expect(request.body).toBe(
        `a=%C3%A9%26%3D&api_key=${LBANK_KEY}&b=2&sign=${createHmac("sha256", LBANK_SECRET).update(digest).digest("hex")}`,
      );
      expect(request.body).toBe(
        lbankSignedRequest(credentials, 1700000000000, "/p", { b: "2", a: "é&=" }, "e".repeat(32)).body,
      );
    } finally {
      vi.doUnmock("node:crypto");
    }
  });
});

describe("lbank operations (docs/exchange-rules.md#operations, #calls) against the signature-checking mock", () => {
  it("creates a limit buy on btc_usdt with a 32-hex custom_id (docs/exchange-rules.md#entities, docs/decisions.md#d11)", async () => {
    const order = await lbank.createOrder(buy);
    expect(routes()).toEqual([`POST ${LBANK_PATHS.createOrder}`]);
    const f = form();
    expect(Object.fromEntries(f)).toMatchObject({ symbol: "btc_usdt", type: "buy", price: "30000", amount: "0.01" });
    expect(f.get("custom_id")).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: [...mock.orders.keys()][0],
      clientOrderId: f.get("custom_id"),
      status: "open",
      side: "Buy",
    });
  });

  it("creates a limit sell", async () => {
    await lbank.createOrder({ ...buy, side: "Sell" });
    expect(form().get("type")).toBe("sell");
  });

  it("cancels one order (cancel_order.do), fetches it as canceled (status -1, docs/exchange-rules.md#states) and lists open ones", async () => {
    const a = await lbank.createOrder(buy);
    const b = await lbank.createOrder({ ...buy, price: "29000" });
    await expect(lbank.cancelOrder("BTC/USDT", a.id)).resolves.toBe(a.id);
    expect(form().get("orderId")).toBe(a.id);
    expect(await lbank.fetchOrder("BTC/USDT", a.id)).toMatchObject({
      id: a.id,
      status: "canceled",
      clientOrderId: a.clientOrderId,
      amount: "0.01",
    });
    expect((await lbank.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([b.id]);
    expect(Object.fromEntries(form())).toMatchObject({ symbol: "btc_usdt", current_page: "1", page_length: "200" });
  });

  it("follows current_page through the pages of 200 and stops at the total (two pages for 400, three for 401)", async () => {
    const first = await lbank.createOrder(buy);
    const template = mock.orders.get(first.id)!;
    for (let i = 1; i < 400; i++) mock.orders.set(`id-${i}`, { ...template, orderId: `id-${i}` });
    mock.server.requests.length = 0;
    const open = await lbank.fetchOpenOrders("BTC/USDT");
    expect(open).toHaveLength(400);
    expect(new Set(open.map((o) => o.id)).size).toBe(400);
    const pages = () => mock.server.requests.map((r) => new URLSearchParams(r.body).get("current_page"));
    expect(pages()).toEqual(["1", "2"]);
    mock.orders.set("id-400", { ...template, orderId: "id-400" });
    mock.server.requests.length = 0;
    expect(await lbank.fetchOpenOrders("BTC/USDT")).toHaveLength(401);
    expect(pages()).toEqual(["1", "2", "3"]);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (10001)", async () => {
    const a = await lbank.createOrder(buy);
    await lbank.fetchOrder("BTC/USDT", a.id);
    await lbank.cancelOrder("BTC/USDT", a.id);
    await lbank.cancelAll("BTC/USDT");
    const sent = mock.server.requests.map((r) => {
      const { api_key: _k, sign: _s, ...fields } = Object.fromEntries(new URLSearchParams(r.body));
      return [r.path, fields];
    });
    expect(sent).toEqual([
      [
        "/v2/supplement/create_order.do",
        expect.objectContaining({ symbol: "btc_usdt", type: "buy", price: "30000", amount: "0.01" }),
      ],
      ["/v2/supplement/orders_info.do", { symbol: "btc_usdt", orderId: a.id }],
      ["/v2/supplement/cancel_order.do", { symbol: "btc_usdt", orderId: a.id }],
      ["/v2/supplement/cancel_order_by_symbol.do", { symbol: "btc_usdt" }],
    ]);
    for (const [path, params] of [
      ["/v2/supplement/create_order.do", { symbol: "btc_usdt", type: "buy", price: "1" }],
      ["/v2/supplement/orders_info.do", { symbol: "btc_usdt" }],
      ["/v2/supplement/cancel_order.do", { orderId: a.id }],
      ["/v2/supplement/cancel_order_by_symbol.do", {}],
      ["/v2/supplement/orders_info_no_deal.do", { symbol: "btc_usdt", current_page: "1" }],
    ] as const) {
      const request = lbankSignedRequest(credentials, Date.now(), path, params);
      const bare = await fetch(`${mock.url}${path}`, { method: "POST", headers: request.headers, body: request.body });
      expect([path, await bare.json()]).toEqual([
        path,
        { result: "false", error_code: 10001, msg: "The required parameters can not be empty", ts: expect.any(Number) },
      ]);
    }
    expect(mock.orders.size).toBe(1);
  });

  it("cancels all for the pair with cancel_order_by_symbol.do", async () => {
    const a = await lbank.createOrder(buy);
    const b = await lbank.createOrder(buy);
    await expect(lbank.cancelAll("BTC/USDT")).resolves.toEqual([a.id, b.id]);
    expect(routes().at(-1)).toBe(`POST ${LBANK_PATHS.cancelBySymbol}`);
    expect([...mock.orders.values()].every((o) => o.status === -1)).toBe(true);
  });

  it("reads balances from user_info_account.do: all-zero dropped, codes upper-cased, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(lbank.fetchBalances()).resolves.toEqual({
      USDT: { f: "1000.000000000000000001", l: "5" },
      BTC: { f: "0.5", l: "0" },
    });
  });

  it('rejects batch create and cancel batch with "Not supported for lbank" before any request (docs/exchange-rules.md#limits)', async () => {
    for (const call of [
      () => lbank.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1" }]),
      () => lbank.cancelBatch("BTC/USDT", ["1"]),
    ]) {
      expect(await rejection(call())).toMatchObject({
        kind: "unsupported",
        message: "ExchangeId: lbank, msg: Not supported for lbank",
      });
    }
    expect(mock.server.requests).toHaveLength(0);
  });
});

describe("lbank errors (docs/exchange-rules.md#errors: result false with msg and error_code)", () => {
  it("answers a wrong secret with 10007 as auth after exactly one request", async () => {
    const wrong = new LbankAdapter({ ...credentials, secret: "wrong-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: 10007 });
    expect(error.message).toBe("ExchangeId: lbank, msg: Invalid signature (error_code 10007)");
    expect(mock.server.requests).toHaveLength(1);
  });

  // Changed: the docs name 10600 ("intercepted by replay attacks filter, check timestamp") for a stale
  // timestamp, not 10002; the window is 5000 ms back and 1 s ahead.
  it("refuses a clock outside the 5000 ms window (or 1 s ahead) with 10600 as auth", async () => {
    const late = new LbankAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() - 10_000 });
    expect(await rejection(late.fetchBalances())).toMatchObject({ kind: "auth", code: 10600 });
    const early = new LbankAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() + 3000 });
    expect(await rejection(early.fetchBalances())).toMatchObject({ kind: "auth", code: 10600 });
  });

  it("maps 10016 to insufficient-funds with msg and error_code in the message", async () => {
    mock.failNext(10016, "Insufficient account balance");
    const error = await rejection(lbank.createOrder(buy));
    expect(error).toMatchObject({
      kind: "insufficient-funds",
      code: 10016,
      message: "ExchangeId: lbank, msg: Insufficient account balance (error_code 10016)",
    });
  });

  it("maps 10004 'Request too frequent' to rate-limit with a retry hint", async () => {
    mock.rateLimitNext();
    const error = await rejection(lbank.fetchBalances());
    expect(error).toMatchObject({ kind: "rate-limit", code: 10004 });
    expect(error.retryAfterMs).toBeGreaterThan(0);
  });

  it("reports a missing order (10032) and a cancel of a finished one (10037) as order-not-found", async () => {
    expect(await rejection(lbank.fetchOrder("BTC/USDT", "nope"))).toMatchObject({
      kind: "order-not-found",
      code: 10032,
    });
    const order = await lbank.createOrder(buy);
    await lbank.cancelOrder("BTC/USDT", order.id);
    expect(await rejection(lbank.cancelOrder("BTC/USDT", order.id))).toMatchObject({
      kind: "order-not-found",
      code: 10037,
    });
  });
});

describe("lbank time-out on create (docs/exchange-rules.md#contract: never two orders)", () => {
  it("looks the order up by origClientOrderId after a time-out and returns it; one order on the mock", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("lbank", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.orderId, clientOrderId: only!.clientOrderId, status: "open" });
    expect(routes()).toEqual([`POST ${LBANK_PATHS.createOrder}`, `POST ${LBANK_PATHS.ordersInfo}`]);
    expect(form().get("origClientOrderId")).toBe(only!.clientOrderId);
  });
});

describe("lbank status and timestamp rules (docs/exchange-rules.md#entities, #states) with LBank's documented order fields", () => {
  // LBank's supplement order object (orders_info.do), as the docs show it.
  const documented = {
    cummulativeQuoteQty: 0,
    symbol: "doge_usdt",
    executedQty: 0,
    orderId: "53d2d53e-70fb-4398-b722-f48571a5f61e",
    origQty: 100,
    price: 0.05,
    clientOrderId: null,
    origCummulativeQuoteQty: 5,
    updateTime: 1648163406000,
    time: 1648163139387,
    type: "buy_maker",
    status: -1,
  };
  const status = (s: number) => parseLbankOrder({ ...documented, status: s }).status;

  it("maps -1, 3, 4 to canceled; 0, 1 to open; 2 to closed (docs/exchange-rules.md#states lbank numerics)", () => {
    expect([-1, 3, 4, 0, 1, 2].map(status)).toEqual(["canceled", "canceled", "canceled", "open", "open", "closed"]);
  });
  it("yields undefined for an unknown status", () => {
    expect(status(9)).toBeUndefined();
  });
  it("keeps millisecond times, reads the side from buy_maker, pair from doge_usdt", () => {
    expect(parseLbankOrder(documented)).toMatchObject({
      timestamp: 1648163139387,
      side: "Buy",
      type: "maker",
      pair: "DOGE/USDT",
      amount: "100",
      price: "0.05",
      clientOrderId: "",
    });
  });
  it("drops all-zero balances", () => {
    expect(parseLbankBalances({ balances: [{ asset: "x", free: "0", locked: "0" }] })).toEqual({});
  });
  it("reads the docs' query-order example (status as the string '3': partially filled then canceled)", () => {
    const docs = {
      symbol: "lbk_usdt",
      orderId: "10e71fd6-99ab-425e-939d-1447dfbe594e",
      clientOrderId: "46a1e423-be95-4ded-8887-a489d38577a8",
      price: "0.1",
      origQty: "1.0",
      executedQty: "0.0",
      cummulativeQuoteQty: "0.0",
      status: "3",
      type: "buy",
      time: 1499827319559,
      updateTime: 1499827319559,
      origQuoteOrderQty: "0.000000",
    };
    expect(parseLbankOrder(docs)).toMatchObject({
      pair: "LBK/USDT",
      status: "canceled",
      side: "Buy",
      amount: "1",
      filled: "0",
      timestamp: 1499827319559,
    });
    // open orders: the recorded {total, orders} page and the docs' bare array are both read
    expect(parseLbankOpenOrders([docs]).orders).toHaveLength(1);
    expect(parseLbankOpenOrders({ total: 1, page_length: 200, orders: [docs], current_page: 1 })).toMatchObject({
      total: 1,
      orders: [{ id: docs.orderId }],
    });
  });
});

describe("lbank through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: LBANK_KEY, SPOTDESK_API_SECRET: LBANK_SECRET };

  it("buy, order, orders, cancel, cancel-all, balances end to end; batch and cancel-batch are 'Not supported'", async () => {
    await runCliScenario({
      id: "lbank",
      mock,
      env,
      status: (o) => o.status,
      open: 0,
      canceled: -1,
      unsupported: ["batch", "cancel-batch"],
      sell: ["0.01", "31000"],
      balances: { USDT: { f: "1000.000000000000000001", l: "5" } },
    });
  });
});

import { LBANK_MOCK_ACCURACY } from "./mock.js";

describe("lbank fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new LbankAdapter({ api: "", secret: "" }, { baseUrl: mock.url });

  it("lists every pair of the accuracy list sorted: tick 10^-priceAccuracy, lot 10^-quantityAccuracy, minTranQua", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "0.01", lot: "0.0001", minAmount: "0.0001" },
      { pair: "ETH/BTC", tick: "0.000001", lot: "0.001", minAmount: "0.001" },
      { pair: "LBK/USDT", tick: "0.01", lot: "0.0001", minAmount: "0.0001" },
      { pair: "SHIB/USDT", tick: "0.0000000001", lot: "1", minAmount: "1000" },
    ]);
    // LBank gives these rows no status: the list is the pairs it trades, all kept
    expect(LBANK_MOCK_ACCURACY).toHaveLength(4);
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}${r.body}`)).toEqual([
      "GET /v2/accuracy.do?",
    ]);
  });

  it("names the field of a malformed answer", async () => {
    mock.server.intercept((req) =>
      req.path === "/v2/accuracy.do"
        ? { body: { result: "true", data: [{ symbol: "btc_usdt", quantityAccuracy: "4", priceAccuracy: "2.5" }] } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      'Unexpected answer from lbank: data[0].priceAccuracy expected a number of digits, got "2.5"',
    );
  });

  it("passes LBank's refusal on with its error_code", async () => {
    mock.server.intercept((req) =>
      req.path === "/v2/accuracy.do"
        ? { body: { result: "false", error_code: 10008, msg: "Currency pair not supported" } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe("Currency pair not supported (error_code 10008)");
  });
});

describe("lbank off the happy path (issue 25)", () => {
  const ok = (data: unknown, status = 200) => ({ status, body: { result: "true", data, error_code: 0, ts: 1 } });
  const row = { symbol: "eth_usdt", orderId: "a1", status: 0 };

  it("reads the side and type from type or tradeType, buy and limit without either, and no client id as empty", () => {
    expect(parseLbankOrder({ ...row, type: "sell_maker", time: 1700000000000 })).toStrictEqual({
      pair: "ETH/USDT",
      id: "a1",
      clientOrderId: "",
      price: "0",
      amount: "0",
      filled: "0",
      type: "maker",
      side: "Sell",
      status: "open",
      timestamp: 1700000000000,
    });
    expect(parseLbankOrder({ ...row, tradeType: "SELL" })).toMatchObject({ side: "Sell", type: "limit" });
    expect(parseLbankOrder(row)).toMatchObject({ side: "Buy", type: "limit" });
    expect(parseLbankOrder({ ...row, type: "buy_ioc" }).type).toBe("ioc");
    expect(parseLbankOrder({ ...row, type: "SELL_FOK_X" })).toMatchObject({ side: "Sell", type: "FOK_X" });
    expect(parseLbankOrder({ ...row, type: "buy_" })).toMatchObject({ side: "Buy", type: "limit" });
    expect(() => parseLbankOrder({ ...row, type: "short_maker" })).toThrow("Unknown order side 'short'");
    expect(() => parseLbankOrder({ ...row, type: "short" })).toThrow("Unknown order side 'short'");
  });

  it("names lbank in the refusal of an order, open-orders or balances answer it cannot read; no orders is none", () => {
    expect(() => parseLbankOrder({ orderId: "a1", status: 0 })).toThrow("Unexpected answer from lbank: symbol");
    expect(() => parseLbankOpenOrders({ orders: 5 })).toThrow(/^ExchangeId: lbank, msg: Unexpected answer from lbank/);
    expect(() => parseLbankBalances({ balances: [{ asset: "BTC" }] })).toThrow(
      "Unexpected answer from lbank: balances",
    );
    expect(parseLbankOpenOrders({ total: 0 })).toEqual({ orders: [], total: 0 });
    expect(parseLbankOpenOrders({ total: 0, orders: null })).toEqual({ orders: [], total: 0 });
  });

  it("sends to api.lbkex.com unless told otherwise", () => {
    const adapter = new LbankAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://api.lbkex.com");
  });

  it("reads an answer without data as no order: not found on a fetch, sent again after a time-out", async () => {
    const noData = { status: 200, body: { result: "true", error_code: 0, ts: 1 } };
    mock.fake.replyNext(noData);
    expect(await rejection(lbank.fetchOrder("BTC/USDT", "z9"))).toMatchObject({
      kind: "order-not-found",
      message: "ExchangeId: lbank, msg: Order z9 not found",
    });
    let step = 0;
    mock.server.intercept((req) => {
      if (req.path === "/v2/supplement/create_order.do" && step === 0) {
        step = 1;
        return { status: 504, body: {}, delayMs: 1500 };
      }
      if (req.path === "/v2/supplement/orders_info.do" && step === 1) {
        step = 2;
        return noData;
      }
      return undefined;
    });
    mock.server.requests.length = 0;
    const slow = createExchange("lbank", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(routes()).toEqual([
      "POST /v2/supplement/create_order.do",
      "POST /v2/supplement/orders_info.do",
      "POST /v2/supplement/create_order.do",
    ]);
  });

  it("leaves an error_code that is neither number nor text out of the message", async () => {
    mock.fake.replyNext({ status: 200, body: { result: false, error_code: null, msg: "Server busy" } });
    expect(await rejection(lbank.fetchBalances())).toMatchObject({ code: undefined, detail: "Server busy" });
  });

  it("ends the open orders at a short page even when the total counts more (orders closed meanwhile)", async () => {
    mock.fake.replyNext(
      ok({ total: 500, page_length: 200, current_page: 1, orders: [row, { ...row, orderId: "a2" }] }),
    );
    mock.server.requests.length = 0;
    expect((await lbank.fetchOpenOrders("ETH/USDT")).map((o) => o.id)).toEqual(["a1", "a2"]);
    expect(mock.server.requests).toHaveLength(1);
  });

  it("answers a placed order with filled 0 and type limit, and sells as sell", async () => {
    expect(await lbank.createOrder({ ...buy, side: "Sell" })).toMatchObject({ filled: "0", type: "limit" });
    expect(form().get("type")).toBe("sell");
  });

  it("reads result 'true' as success, result true under HTTP 4xx as failure, and a failure without msg", async () => {
    mock.fake.replyNext(ok({ balances: [{ asset: "x", free: "1", locked: "0" }] }));
    await expect(lbank.fetchBalances()).resolves.toEqual({ X: { f: "1", l: "0" } });
    mock.fake.replyNext(ok({}, 400));
    expect((await rejection(lbank.fetchBalances())).message).toBe("ExchangeId: lbank, msg: HTTP 400 (error_code 0)");
    mock.fake.replyNext({ status: 200, body: { result: "false", error_code: 10016 } });
    expect(await rejection(lbank.fetchBalances())).toMatchObject({
      kind: "insufficient-funds",
      detail: "HTTP 200 (error_code 10016)",
    });
    mock.fake.replyNext({ status: 502, body: { result: false, msg: "" } });
    expect(await rejection(lbank.fetchBalances())).toMatchObject({ code: undefined, detail: "HTTP 502" });
  });

  it("reads a null order as not found, takes the cancelled orderId or the id asked, and the ids cancel-all names", async () => {
    mock.fake.replyNext(ok(null));
    expect(await rejection(lbank.fetchOrder("BTC/USDT", "z9"))).toMatchObject({
      kind: "order-not-found",
      message: "ExchangeId: lbank, msg: Order z9 not found",
    });
    mock.fake.replyNext(ok({ orderId: "c3" }));
    await expect(lbank.cancelOrder("BTC/USDT", "z9")).resolves.toBe("c3");
    mock.fake.replyNext(ok(null));
    await expect(lbank.cancelOrder("BTC/USDT", "z9")).resolves.toBe("z9");
    mock.fake.replyNext(ok([{ orderId: "p1", status: -1 }, { orderId: 7 }]));
    await expect(lbank.cancelAll("BTC/USDT")).resolves.toEqual(["p1", "7"]);
    mock.fake.replyNext(ok({ unexpected: true }));
    await expect(lbank.cancelAll("BTC/USDT")).resolves.toEqual([]);
  });

  it("signs keys sorted around the four it adds, and drops a caller's sign or header names from the form", () => {
    const request = lbankSignedRequest(credentials, 1700000000000, "/p", {
      zz: "3",
      aa: "1",
      sign: "forged",
      timestamp: "1",
      echostr_x: "2",
    });
    const form = new URLSearchParams(request.body);
    expect([...form.keys()]).toEqual(["aa", "api_key", "echostr_x", "zz", "sign"]);
    expect(form.get("sign")).toBe(lbankExpectedSign(LBANK_SECRET, form, request.headers));
    expect(request.query).toBe("");
  });

  it("reads a text error_code, a non-text msg, an open-orders list without total, and refuses to re-send when the look-up fails", async () => {
    mock.fake.replyNext({ status: 200, body: { result: "false", error_code: "10016", msg: 5 } });
    expect(await rejection(lbank.fetchBalances())).toMatchObject({
      kind: "insufficient-funds",
      detail: "HTTP 200 (error_code 10016)",
    });
    expect(parseLbankOpenOrders([]).total).toBeUndefined();
    mock.server.intercept((req) => {
      if (req.path === "/v2/supplement/create_order.do") return { status: 504, body: {}, delayMs: 1500 };
      if (req.path === "/v2/supplement/orders_info.do")
        return { body: { result: "false", error_code: 10007, msg: "Invalid signature", ts: 1 } };
      return undefined;
    });
    mock.server.requests.length = 0;
    const slow = createExchange("lbank", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    await rejection(slow.createOrder(buy));
    expect(routes()).toEqual(["POST /v2/supplement/create_order.do", "POST /v2/supplement/orders_info.do"]);
  });

  it("re-sends a timed-out create once the look-up finds nothing (10032 or an empty answer), and only then", async () => {
    for (const lookup of [undefined, ok(null)]) {
      mock.orders.clear();
      mock.server.requests.length = 0;
      let step = 0;
      mock.server.intercept((req) => {
        if (req.path === "/v2/supplement/create_order.do" && step === 0) {
          step = 1;
          return { status: 504, body: {}, delayMs: 1500 };
        }
        if (req.path === "/v2/supplement/orders_info.do" && step === 1 && lookup) {
          step = 2;
          return lookup;
        }
        return undefined;
      });
      const slow = createExchange("lbank", credentials, { baseUrl: mock.url, timeoutMs: 400 });
      const order = await slow.createOrder(buy);
      expect([...mock.orders.keys()]).toEqual([order.id]);
      expect(routes()).toEqual([
        "POST /v2/supplement/create_order.do",
        "POST /v2/supplement/orders_info.do",
        "POST /v2/supplement/create_order.do",
      ]);
    }
  });
});
