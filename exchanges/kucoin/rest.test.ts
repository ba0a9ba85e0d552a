import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { KUCOIN_KEY, KUCOIN_PASSPHRASE, KUCOIN_SECRET, type KucoinMock, startKucoinMock } from "./mock.js";
import {
  KUCOIN_BASE_URL,
  KucoinAdapter,
  kucoinPassphrase,
  kucoinSignature,
  kucoinSignedRequest,
  parseKucoinBalances,
  parseKucoinOrder,
} from "./rest.js";

const credentials = { api: KUCOIN_KEY, secret: KUCOIN_SECRET, password: KUCOIN_PASSPHRASE };
let mock: KucoinMock;
let kucoin: ExchangeAdapter;

beforeEach(async () => {
  mock = await startKucoinMock();
  kucoin = createExchange("kucoin", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

describe("kucoin signing (official docs, key version 2)", () => {
  it("signs timestamp + METHOD + endpoint with query + body, base64 HMAC-SHA256", () => {
    const expected = createHmac("sha256", "sec").update('1700000000000POST/api/v1/orders{"a":1}').digest("base64");
    expect(
      kucoinSignature("sec", {
        method: "POST",
        endpoint: "/api/v1/orders",
        body: '{"a":1}',
        timestamp: "1700000000000",
      }),
    ).toBe(expected);
    const get = createHmac("sha256", "sec").update("1GET/api/v1/orders?status=active&symbol=BTC-USDT").digest("base64");
    expect(
      kucoinSignature("sec", {
        method: "GET",
        endpoint: "/api/v1/orders?status=active&symbol=BTC-USDT",
        body: "",
        timestamp: "1",
      }),
    ).toBe(get);
  });

  it("signs the URL before URL-encoding and sends it encoded (the authentication page's api-key example)", () => {
    const request = kucoinSignedRequest(credentials, 1700000000000, "GET", "/api/v1/sub/api-key", {
      apiKey: "67*b3",
      subName: "test",
      passphrase: "abc!@#11",
    });
    expect(request.query).toBe("apiKey=67*b3&subName=test&passphrase=abc!%40%2311");
    const signed = createHmac("sha256", KUCOIN_SECRET)
      .update("1700000000000GET/api/v1/sub/api-key?apiKey=67*b3&subName=test&passphrase=abc!@#11")
      .digest("base64");
    expect(request.headers["KC-API-SIGN"]).toBe(signed);
  });

  it("sends the passphrase HMAC-SHA256-signed with the secret, base64 (key version 2)", async () => {
    expect(kucoinPassphrase("sec", "pass")).toBe(createHmac("sha256", "sec").update("pass").digest("base64"));
    await kucoin.fetchBalances();
    const headers = mock.server.requests[0]!.headers;
    expect(headers["kc-api-key-version"]).toBe("2");
    expect(headers["kc-api-passphrase"]).not.toBe(KUCOIN_PASSPHRASE);
  });
});

describe("kucoin operations (docs/exchange-rules.md#operations) against the signature-checking mock", () => {
  it("creates a limit GTC buy on BTC-USDT with a 32-hex clientOid (docs/decisions.md#d11)", async () => {
    const order = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const sent = JSON.parse(mock.server.requests.at(-1)!.body);
    expect(sent).toMatchObject({
      symbol: "BTC-USDT",
      side: "buy",
      type: "limit",
      price: "30000",
      size: "0.01",
      timeInForce: "GTC",
    });
    expect(sent.clientOid).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: [...mock.orders.keys()][0],
      clientOrderId: sent.clientOid,
      status: "open",
      side: "Buy",
    });
  });

  it("creates a limit sell", async () => {
    const order = await kucoin.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.02", price: "40000" });
    expect(order.side).toBe("Sell");
    expect(JSON.parse(mock.server.requests.at(-1)!.body).side).toBe("sell");
  });

  it("creates a batch through /api/v1/orders/multi with the symbol once", async () => {
    const orders = await kucoin.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.01", price: "33000" },
    ]);
    expect(orders).toHaveLength(2);
    const sent = JSON.parse(mock.server.requests.at(-1)!.body);
    expect(sent.symbol).toBe("BTC-USDT");
    expect(sent.orderList).toHaveLength(2);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
  });

  it("rejects a batch of 6 with \"Maximum for 'createBatch' is: 5\" before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const error = await rejection(
      kucoin.createBatch(
        "BTC/USDT",
        Array.from({ length: 6 }, () => ({ side: "Buy" as const, amount: "1", price: "1" })),
      ),
    );
    expect(error.message).toBe("ExchangeId: kucoin, msg: Maximum for 'createBatch' is: 5");
    expect(mock.server.requests).toHaveLength(0);
  });

  it('rejects cancel batch with "Not supported for kucoin" before any request (docs/exchange-rules.md#limits)', async () => {
    const error = await rejection(kucoin.cancelBatch("BTC/USDT", ["a"]));
    expect(error).toMatchObject({ kind: "unsupported", message: "ExchangeId: kucoin, msg: Not supported for kucoin" });
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one order with DELETE /api/v1/orders/{id}", async () => {
    const order = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    await expect(kucoin.cancelOrder("BTC/USDT", order.id)).resolves.toBe(order.id);
    expect(mock.orders.get(order.id)).toMatchObject({ isActive: false, cancelExist: true });
  });

  it("cancels all with DELETE /api/v1/orders?symbol=BTC-USDT", async () => {
    const a = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30001" });
    await expect(kucoin.cancelAll("BTC/USDT")).resolves.toEqual([a.id, b.id]);
    const last = mock.server.requests.at(-1)!;
    expect(`${last.method} ${last.path}?${last.query}`).toBe("DELETE /api/v1/orders?symbol=BTC-USDT");
  });

  it("reads an inactive order, not cancelled, nothing filled as closed, not open (docs/decisions.md#d19)", async () => {
    const done = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const partly = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.02", price: "30000" });
    mock.orders.get(done.id)!.isActive = false;
    Object.assign(mock.orders.get(partly.id)!, { dealSize: "0.01" });
    expect(await kucoin.fetchOrder("BTC/USDT", done.id)).toMatchObject({ status: "closed", filled: "0" });
    // active is open whatever has filled
    expect(await kucoin.fetchOrder("BTC/USDT", partly.id)).toMatchObject({ status: "open", filled: "0.01" });
  });

  it("fetches one order and the active orders of the pair", async () => {
    const a = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.02", price: "30000" });
    await kucoin.cancelOrder("BTC/USDT", b.id);
    expect(await kucoin.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
    });
    const open = await kucoin.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id)).toEqual([a.id]);
    const q = parseQuery(mock.server.requests.at(-1)!.query);
    expect(q).toMatchObject({ status: "active", symbol: "BTC-USDT", pageSize: "500" });
  });

  it("fetches trade-account balances, dropping all-zero currencies and keeping long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(kucoin.fetchBalances()).resolves.toEqual({
      BTC: { f: "0.75", l: "0.25000000000000000001" },
      USDT: { f: "5000", l: "0" },
    });
    expect(parseQuery(mock.server.requests[0]!.query)).toEqual({ type: "trade" });
  });
});

describe("kucoin errors (docs/exchange-rules.md#errors)", () => {
  it("answers a wrong secret with an auth error after exactly one request", async () => {
    const wrong = new KucoinAdapter({ ...credentials, secret: "nope-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.fetchBalances());
    expect(error.kind).toBe("auth");
    expect(error.message).not.toContain("nope-secret");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("answers a wrong passphrase with 400004 as auth", async () => {
    const wrong = new KucoinAdapter({ ...credentials, password: "other" }, { baseUrl: mock.url });
    const error = await rejection(wrong.fetchBalances());
    expect(error).toMatchObject({ kind: "auth", code: "400004" });
  });

  it("maps 200004 to insufficient-funds with KuCoin's message", async () => {
    mock.failNext("200004", "Balance insufficient!");
    const error = await rejection(kucoin.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "10", price: "30000" }));
    expect(error).toMatchObject({ kind: "insufficient-funds", code: "200004" });
    expect(error.message).toBe("ExchangeId: kucoin, msg: Balance insufficient! (code 200004)");
  });

  it("maps 'order not exist.' to order-not-found", async () => {
    expect((await rejection(kucoin.fetchOrder("BTC/USDT", "abc123"))).kind).toBe("order-not-found");
  });

  it.each([
    ["400100", "The order does not exist."],
    ["400100", "order_not_exist_or_not_allow_to_cancel"],
    ["order_not_exist", "order_not_exist"],
  ])("reads KuCoin's other 'order not exist' answers (%s, %s) as order-not-found", async (code, msg) => {
    mock.failNext(code, msg);
    expect(await rejection(kucoin.cancelOrder("BTC/USDT", "abc123"))).toMatchObject({ kind: "order-not-found", code });
  });

  it("maps 429000 to rate-limit with the gw-ratelimit-reset hint", async () => {
    mock.rateLimitNext();
    const error = await rejection(kucoin.fetchBalances());
    expect(error).toMatchObject({ kind: "rate-limit", code: "429000", retryAfterMs: 1200 });
  });
});

describe("kucoin's documented required parameters, pages and partial batches (issue 25)", () => {
  const add = (count: number, symbol = "BTC-USDT") =>
    Array.from({ length: count }, (_, i) =>
      mock.addOrder({ symbol, side: "buy", price: String(100 + i), size: "1", clientOid: `c${i}` }),
    );

  it("follows currentPage to totalPage: 1001 active orders arrive whole in pages of 500", async () => {
    const placed = add(1001);
    add(2, "ETH-USDT");
    const open = await kucoin.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id).sort()).toEqual(placed.map((o) => o.id).sort());
    expect(mock.server.requests.map((r) => [parseQuery(r.query).currentPage, parseQuery(r.query).pageSize])).toEqual([
      ["1", "500"],
      ["2", "500"],
      ["3", "500"],
    ]);
  });

  it("stops at the last page KuCoin counts, even a full one", async () => {
    add(500);
    expect(await kucoin.fetchOpenOrders("BTC/USDT")).toHaveLength(500);
    expect(mock.server.requests).toHaveLength(1);
    mock.server.requests.length = 0;
    expect(await kucoin.fetchOpenOrders("ETH/USDT")).toEqual([]);
    expect(mock.server.requests).toHaveLength(1);
  });

  it("sends clientOid, side, symbol, price and size on every order; the mock refuses an order without one", async () => {
    const [a] = await kucoin.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "100" }]);
    const b = await kucoin.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "2", price: "200" });
    const [multi, one] = mock.server.requests.map((r) => JSON.parse(r.body));
    expect(multi).toEqual({
      symbol: "BTC-USDT",
      orderList: [expect.objectContaining({ clientOid: a!.clientOrderId, side: "buy", price: "100", size: "1" })],
    });
    expect(one).toMatchObject({
      clientOid: b.clientOrderId,
      side: "sell",
      symbol: "BTC-USDT",
      price: "200",
      size: "2",
    });
    const payload = { side: "buy", symbol: "BTC-USDT", type: "limit", price: "1", size: "1" };
    const request = kucoinSignedRequest(credentials, Date.now(), "POST", "/api/v1/orders", {}, payload);
    const bare = await fetch(`${mock.url}/api/v1/orders`, {
      method: "POST",
      headers: request.headers,
      body: request.body,
    });
    expect([bare.status, await bare.json()]).toEqual([400, { code: "400100", msg: "clientOid is required" }]);
  });

  it("a partly failed multi order fails naming the refused item and how many were placed", async () => {
    mock.fake.refuseNextBatchItem(1, { code: "400100", msg: "Balance insufficient" });
    const error = await rejection(
      kucoin.createBatch("BTC/USDT", [
        { side: "Buy", amount: "1", price: "100" },
        { side: "Buy", amount: "1", price: "101" },
        { side: "Buy", amount: "1", price: "102" },
      ]),
    );
    expect(error).toMatchObject({ kind: "invalid-order" });
    expect(error.detail).toBe("One of orders threw an error (Balance insufficient); 2 of 3 placed");
    expect(mock.orders.size).toBe(2);
    // docs/orders.md "Partly placed batches": the error carries the orders the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => o.price)).toEqual(["100", "102"]);
    expect([...mock.orders.keys()].sort()).toEqual(kept.map((o) => o.id).sort());
  });
});

describe("kucoin answers off the happy path (issue 25)", () => {
  const answer = (data: unknown) => mock.fake.replyNext({ body: { code: "200000", data } });

  it.each([
    ["400003", "auth"],
    ["400007", "auth"],
    ["411100", "auth"],
    ["429000", "rate-limit"],
    ["260100", "insufficient-funds"],
    ["900001", "invalid-order"],
  ])("reads code %s in an HTTP 400 answer as %s", async (code, kind) => {
    mock.failNext(code, "m");
    expect((await rejection(kucoin.fetchBalances())).kind).toBe(kind);
  });

  it("reads 'order not exist' in the message or the code, however KuCoin spaces it", async () => {
    mock.failNext("400100", "Order  does  not  exist");
    const spaced = await rejection(kucoin.cancelOrder("BTC/USDT", "abc123"));
    expect([spaced.kind, spaced.detail, spaced.code]).toEqual([
      "order-not-found",
      "Order  does  not  exist (code 400100)",
      "400100",
    ]);
    expect(spaced.message).toBe("ExchangeId: kucoin, msg: Order  does  not  exist (code 400100)");
    mock.failNext("order_not_exist", "gone");
    expect((await rejection(kucoin.cancelOrder("BTC/USDT", "abc123"))).kind).toBe("order-not-found");
    mock.fake.replyNext({ status: 400, body: { msg: 7 } });
    const bare = await rejection(kucoin.fetchBalances());
    expect([bare.detail, bare.code]).toEqual(["HTTP 400", undefined]);
  });

  it("waits for gw-ratelimit-reset only when it is a positive number of milliseconds", async () => {
    const limited = (reset: string | undefined) => {
      mock.fake.replyNext({
        status: 429,
        headers: reset === undefined ? {} : { "gw-ratelimit-reset": reset },
        body: { code: "429000", msg: "Too Many Requests" },
      });
      return rejection(kucoin.fetchBalances()).then((e) => e.retryAfterMs);
    };
    expect(await limited("2500")).toBe(2500);
    const own = await limited(undefined);
    expect(own).toBeGreaterThan(0);
    for (const reset of ["0", "-5", "soon"]) expect(await limited(reset), reset).toBe(own);
  });

  it("names a failed multi item by its status when it has no failMsg, and reads a multi answer as a bare list", async () => {
    answer({
      data: [
        { id: "1", status: "success", clientOid: "a", side: "buy", symbol: "BTC-USDT" },
        { id: null, status: "fail", failMsg: null, clientOid: "b", side: "buy", symbol: "BTC-USDT" },
      ],
    });
    const items = [
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "a" },
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "b" },
    ];
    expect((await rejection(kucoin.createBatch("BTC/USDT", items))).message).toBe(
      "ExchangeId: kucoin, msg: One of orders threw an error (fail); 1 of 2 placed",
    );
    answer([
      { id: "1", status: "success", side: "buy", symbol: "BTC-USDT" },
      { status: "success", side: "buy", symbol: "BTC-USDT" },
    ]);
    const placed = await kucoin.createBatch("BTC/USDT", items);
    expect(placed.map((o) => [o.id, o.clientOrderId, o.filled, o.type, o.status])).toEqual([
      ["1", "a", "0", "limit", "open"],
      ["", "b", "0", "limit", "open"],
    ]);
  });

  it("stops at an empty page even when KuCoin counts more pages", async () => {
    answer({ currentPage: 1, pageSize: 500, totalNum: 0, totalPage: 3, items: [] });
    expect(await kucoin.fetchOpenOrders("BTC/USDT")).toEqual([]);
    expect(mock.server.requests).toHaveLength(1);
  });

  it("reads a cancel that names no id as the id asked", async () => {
    answer({ cancelledOrderIds: [] });
    expect(await kucoin.cancelOrder("BTC/USDT", "abc123")).toBe("abc123");
  });

  it("after a create time-out that never reached the book, the clientOid look-up finds nothing and the create is sent once more", async () => {
    const slow = createExchange("kucoin", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: { code: "200000", data: {} } });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    await new Promise((r) => setTimeout(r, 400));
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(mock.server.requests.map((r) => r.method)).toEqual(["POST", "GET", "POST"]);
  });

  it("after a create time-out whose look-up fails too, sends nothing more", async () => {
    const slow = createExchange("kucoin", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: { code: "200000", data: {} } });
    const pending = rejection(slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" }));
    // once the create has reached the mock, the next request (the look-up) is refused
    while (mock.server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    mock.rateLimitNext();
    expect((await pending).kind).not.toBe("rate-limit");
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.server.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
  });

  it("signs each passphrase with its own secret (the remembered one only for the same pair) and sends JSON to KuCoin's host", async () => {
    const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("base64");
    expect(kucoinPassphrase("s1", "p1")).toBe(hmac("s1", "p1"));
    expect(kucoinPassphrase("s1", "p2")).toBe(hmac("s1", "p2"));
    expect(kucoinPassphrase("s2", "p2")).toBe(hmac("s2", "p2"));
    expect(kucoinPassphrase("s2", "p2")).toBe(hmac("s2", "p2"));
    const own = kucoinSignedRequest({ api: "k", secret: "s3", password: "p3" }, 1, "GET", "/api/v1/accounts");
    expect(own.headers["KC-API-PASSPHRASE"]).toBe(hmac("s3", "p3"));
    const none = kucoinSignedRequest({ api: "k", secret: "s3" }, 1, "GET", "/api/v1/accounts");
    expect(none.headers["KC-API-PASSPHRASE"]).toBe(hmac("s3", ""));
    expect(
      kucoinSignedRequest({ api: "k", secret: "s3" }, 1, "GET", "/x", {}, undefined, "given").headers,
    ).toMatchObject({
      "KC-API-PASSPHRASE": "given",
      "Content-Type": "application/json",
    });
    expect(KUCOIN_BASE_URL).toBe("https://api.kucoin.com");
    const bare = new KucoinAdapter({ api: KUCOIN_KEY, secret: KUCOIN_SECRET }, { baseUrl: mock.url });
    await rejection(bare.fetchBalances());
    expect(mock.server.requests.at(-1)!.headers["kc-api-passphrase"]).toBe(hmac(KUCOIN_SECRET, ""));
    const order = { id: "1", symbol: "BTC-USDT", side: "buy", price: "1", size: "1", dealSize: "0" };
    expect(parseKucoinOrder({ ...order, isActive: true, cancelExist: false, createdAt: 1 })).toMatchObject({
      type: "limit",
      clientOrderId: "",
    });
  });
});

describe("kucoin time-out on create (docs/exchange-rules.md#contract: never two orders)", () => {
  it("looks the order up by clientOid after a time-out and returns it; the mock holds exactly one order", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("kucoin", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.id, clientOrderId: only!.clientOid, status: "open" });
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/orders",
      `GET /api/v1/order/client-order/${only!.clientOid}`,
    ]);
  });
});

describe("kucoin derived status (docs/exchange-rules.md#states) with the documented order example", () => {
  const documented = {
    id: "5f3113a1c9b6d539dc614dc6",
    symbol: "KCS-BTC",
    opType: "DEAL",
    type: "limit",
    side: "buy",
    price: "0.00001",
    size: "1",
    funds: "0",
    dealFunds: "0",
    dealSize: "0",
    fee: "0",
    feeCurrency: "BTC",
    stp: "",
    stop: "",
    stopTriggered: false,
    stopPrice: "0",
    timeInForce: "GTC",
    postOnly: false,
    hidden: false,
    iceberg: false,
    visibleSize: "0",
    cancelAfter: 0,
    channel: "API",
    clientOid: "6d539dc614db312",
    remark: "",
    tags: "",
    isActive: true,
    cancelExist: false,
    createdAt: 1597051810000,
    tradeType: "TRADE",
  };

  it("is open while active with nothing dealt, timestamp in ms as given", () => {
    expect(parseKucoinOrder(documented)).toMatchObject({
      status: "open",
      timestamp: 1597051810000,
      pair: "KCS/BTC",
      clientOrderId: "6d539dc614db312",
    });
  });
  it("is closed when dealSize > 0 and there is no cancel flag", () => {
    expect(parseKucoinOrder({ ...documented, isActive: false, dealSize: "1" }).status).toBe("closed");
  });
  it("is canceled when inactive with a cancel flag", () => {
    expect(parseKucoinOrder({ ...documented, isActive: false, cancelExist: true }).status).toBe("canceled");
  });
  it("is open when partly dealt and then a cancel flag appears while still active", () => {
    expect(parseKucoinOrder({ ...documented, isActive: true, cancelExist: true, dealSize: "0.5" }).status).toBe("open");
  });
  it("keeps only trade accounts in balances", () => {
    expect(
      parseKucoinBalances([{ id: "1", currency: "eth", type: "main", balance: "1", available: "1", holds: "0" }]),
    ).toEqual({});
  });
});

describe("kucoin through the built CLI", () => {
  const env = {
    SPOTDESK_API_KEY: KUCOIN_KEY,
    SPOTDESK_API_SECRET: KUCOIN_SECRET,
    SPOTDESK_API_PASSWORD: KUCOIN_PASSPHRASE,
  };

  it("buy, order, orders, cancel, batch, cancel-all, balances end to end; cancel-batch is 'Not supported'", async () => {
    await runCliScenario({
      id: "kucoin",
      mock,
      env,
      status: (o) => o.isActive,
      open: true,
      canceled: false,
      unsupported: ["cancel-batch"],
      balances: "BTC",
    });
  });
});

describe("kucoin pair list (docs/exchange-rules.md#pairs)", () => {
  it("lists the symbols trading now, sorted, with tick, lot and minimums, without a key", async () => {
    const keyless = new KucoinAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const expected = [
      { pair: "BTC/USDT", tick: "0.1", lot: "0.00000001", minAmount: "0.00001", minNotional: "0.1" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0000001", minAmount: "0.0001", minNotional: "0.1" },
      { pair: "SHIB/USDT", tick: "0.000000001", lot: "100", minAmount: "1000" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path, sent.query]).toEqual(["GET", "/api/v2/symbols", ""]);
    expect(sent.headers["kc-api-key"]).toBeUndefined();
    expect(sent.headers["kc-api-sign"]).toBeUndefined();
    expect(await listExchangePairs("kucoin", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("an answer in another shape is kucoin's unexpected answer, a refusal its error", async () => {
    const keyless = new KucoinAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const row = { symbol: "BTC-USDT", baseCurrency: "BTC", quoteCurrency: "USDT", baseIncrement: "0.1" };
    mock.server.intercept(() => ({
      body: { code: "200000", data: [{ ...row, priceIncrement: "0.1", enableTrading: "yes" }] },
    }));
    await expect(keyless.fetchPairs()).rejects.toThrow(
      'Unexpected answer from kucoin: data[0].enableTrading expected boolean, got "yes"',
    );
    mock.server.intercept(() => ({ status: 429, body: { code: "429000", msg: "Too Many Requests" } }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
