import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { BITTEAM_KEY, BITTEAM_SECRET, type BitteamMock, startBitteamMock } from "./mock.js";
import {
  BITTEAM_PATHS,
  BitteamAdapter,
  bitteamAuthorization,
  bitteamRequest,
  parseBitteamBalances,
  parseBitteamOrder,
} from "./rest.js";

const credentials = { api: BITTEAM_KEY, secret: BITTEAM_SECRET };
let mock: BitteamMock;
let bitteam: ExchangeAdapter;

beforeEach(async () => {
  mock = await startBitteamMock();
  bitteam = createExchange("bitteam", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);
const creates = () => mock.server.requests.filter((r) => r.path === BITTEAM_PATHS.orderCreate);
const basic = `Basic ${Buffer.from(`${BITTEAM_KEY}:${BITTEAM_SECRET}`).toString("base64")}`;

describe("bitteam signing (docs/exchange-rules.md#calls 'bitteam: basic authentication')", () => {
  it("sends Authorization: Basic base64(key:secret), as RFC 7617's Aladdin:open sesame example", () => {
    expect(bitteamAuthorization({ api: "Aladdin", secret: "open sesame" })).toBe("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  });

  it("puts the header on every private call and none on the public pairs list", async () => {
    await bitteam.createOrder(buy);
    await bitteam.fetchBalances();
    const [pairs, ...privateCalls] = mock.server.requests;
    expect(pairs!.path).toBe(BITTEAM_PATHS.pairs);
    expect(pairs!.headers.authorization).toBeUndefined();
    expect(privateCalls.map((r) => r.headers.authorization)).toEqual([basic, basic]);
  });
});

describe("bitteam operations (docs/exchange-rules.md#operations, #calls) against the basic-auth-checking mock", () => {
  it("creates a limit buy with POST ordercreate: JSON body with the pair id of btc_usdt as a string", async () => {
    const order = await bitteam.createOrder(buy);
    expect(routes()).toEqual([`GET ${BITTEAM_PATHS.pairs}`, `POST ${BITTEAM_PATHS.orderCreate}`]);
    expect(JSON.parse(creates()[0]!.body)).toEqual({
      pairId: "22",
      type: "limit",
      side: "buy",
      amount: "0.01",
      price: "30000",
    });
    const stored = [...mock.orders.values()][0]!;
    expect(order).toEqual({
      pair: "BTC/USDT",
      id: String(stored.id),
      clientOrderId: "",
      price: "30000",
      amount: "0.01",
      filled: "0",
      type: "limit",
      side: "Buy",
      status: "open",
      rawStatus: "created",
      timestamp: stored.timestamp * 1000,
    });
  });

  it("creates a limit sell", async () => {
    expect(await bitteam.createOrder({ ...buy, side: "Sell" })).toMatchObject({ side: "Sell", status: "open" });
    expect(JSON.parse(creates()[0]!.body).side).toBe("sell");
  });

  it("fetches GET /trade/api/ccxt/pairs once per adapter (pair ids cached)", async () => {
    await bitteam.createOrder(buy);
    await bitteam.createOrder({ ...buy, pair: "ETH/USDT" });
    await bitteam.cancelAll("BTC/USDT");
    expect(routes().filter((r) => r.endsWith(BITTEAM_PATHS.pairs))).toHaveLength(1);
    expect(JSON.parse(creates()[1]!.body).pairId).toBe("2");
  });

  it("refuses a pair bitteam does not list before any order request", async () => {
    expect(await rejection(bitteam.createOrder({ ...buy, pair: "DOGE/USDT" }))).toMatchObject({
      kind: "invalid-order",
    });
    expect(routes()).toEqual([`GET ${BITTEAM_PATHS.pairs}`]);
  });

  it("refuses batch create and batch cancel with 'Not supported for bitteam' before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    for (const call of [
      bitteam.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1" }]),
      bitteam.cancelBatch("BTC/USDT", ["1"]),
    ]) {
      expect(await rejection(call)).toMatchObject({
        kind: "unsupported",
        message: "ExchangeId: bitteam, msg: Not supported for bitteam",
      });
    }
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels with POST cancelorder {id}, fetches with GET order/{id} and lists open orders with GET ordersOfUser", async () => {
    const a = await bitteam.createOrder(buy);
    const b = await bitteam.createOrder({ ...buy, price: "29000" });
    await expect(bitteam.cancelOrder("BTC/USDT", a.id)).resolves.toBe(a.id);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({ id: a.id });
    expect(await bitteam.fetchOrder("BTC/USDT", a.id)).toMatchObject({
      id: a.id,
      status: "canceled",
      rawStatus: "cancelled",
      amount: "0.01",
    });
    expect(mock.server.requests.at(-1)!.path).toBe(BITTEAM_PATHS.order(a.id));
    expect((await bitteam.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([b.id]);
    const last = mock.server.requests.at(-1)!;
    expect(last.path).toBe(BITTEAM_PATHS.ordersOfUser);
    expect(parseQuery(last.query)).toEqual({ type: "active", pair: "btc_usdt", limit: "100", offset: "0" });
  });

  it("cancels all for the pair with POST cancel-all-order {pairId} (cancel all supported, docs/exchange-rules.md#limits)", async () => {
    await bitteam.createOrder(buy);
    await bitteam.createOrder(buy);
    const eth = await bitteam.createOrder({ ...buy, pair: "ETH/USDT" });
    await expect(bitteam.cancelAll("BTC/USDT")).resolves.toEqual([]);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({ pairId: "22" });
    expect([...mock.orders.values()].map((o) => o.status)).toEqual(["cancelled", "cancelled", "accepted"]);
    expect(mock.orders.get(eth.id)!.status).toBe("accepted");
  });

  it("pages open orders 100 at a time (docs/exchange-rules.md#limits open-orders limit 100, docs/decisions.md#d10)", async () => {
    for (let i = 0; i < 150; i++) mock.seedOrder({ side: "buy", quantity: "1", price: String(100 + i) });
    const open = await bitteam.fetchOpenOrders("BTC/USDT");
    expect(open).toHaveLength(150);
    expect(new Set(open.map((o) => o.id)).size).toBe(150);
    expect(mock.server.requests.map((r) => parseQuery(r.query).offset)).toEqual(["0", "100"]);
  });

  it("stops paging at the count of open orders when the last page is full (two pages for 200)", async () => {
    for (let i = 0; i < 200; i++) mock.seedOrder({ side: "buy", quantity: "1", price: String(100 + i) });
    mock.seedOrder({ pair: "eth_usdt", side: "buy", quantity: "1", price: "1" });
    expect(await bitteam.fetchOpenOrders("BTC/USDT")).toHaveLength(200);
    expect(mock.server.requests.map((r) => parseQuery(r.query).offset).filter(Boolean)).toEqual(["0", "100"]);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one", async () => {
    const order = await bitteam.createOrder(buy);
    await bitteam.cancelOrder("BTC/USDT", order.id);
    await bitteam.cancelAll("BTC/USDT");
    expect(mock.server.requests.filter((r) => r.method === "POST").map((r) => [r.path, JSON.parse(r.body)])).toEqual([
      [BITTEAM_PATHS.orderCreate, { pairId: "22", type: "limit", side: "buy", amount: "0.01", price: "30000" }],
      [BITTEAM_PATHS.cancelOrder, { id: order.id }],
      [BITTEAM_PATHS.cancelAll, { pairId: "22" }],
    ]);
    for (const [path, params, field] of [
      [BITTEAM_PATHS.orderCreate, { pairId: "22", type: "limit", side: "buy", amount: "1" }, "price"],
      [BITTEAM_PATHS.orderCreate, { type: "limit", side: "buy", amount: "1", price: "1" }, "pairId"],
      [BITTEAM_PATHS.cancelOrder, {}, "id"],
      [BITTEAM_PATHS.cancelAll, {}, "pairId"],
    ] as const) {
      const request = bitteamRequest(basic, "POST", path, params);
      const bare = await fetch(`${mock.url}${path}`, { method: "POST", headers: request.headers, body: request.body });
      expect([path, bare.status, await bare.json()]).toEqual([
        path,
        400,
        { message: `"${field}" is required`, path: [field], type: "any.required" },
      ]);
    }
    expect(mock.orders.size).toBe(1);
  });

  it("fetches balances from GET balance: zero dropped, upper-cased, a 19-digit number exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(bitteam.fetchBalances()).resolves.toEqual({
      USDT: { f: "1500.5", l: "300" },
      BTC: { f: "0.25", l: "0" },
      DEL: { f: "1234567.890123456789", l: "0.5" },
    });
  });
});

describe("bitteam errors (docs/exchange-rules.md#errors: success code 0; {ok: false, code, message} otherwise)", () => {
  it("answers wrong credentials with 401000 as auth after exactly one create (no retry)", async () => {
    const wrong = new BitteamAdapter({ ...credentials, secret: "the-wrong-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: 401000 });
    expect(error.message).toBe("ExchangeId: bitteam, msg: Missing authentication (code 401000)");
    expect(error.message).not.toContain("the-wrong-secret");
    expect(creates()).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("maps the exchange codes: 450000 insufficient-funds, 404300 order-not-found, 403002 invalid-order", async () => {
    mock.failNext(450000, "Insufficient funds");
    expect(await rejection(bitteam.createOrder(buy))).toMatchObject({
      kind: "insufficient-funds",
      code: 450000,
      message: "ExchangeId: bitteam, msg: Insufficient funds (code 450000)",
    });
    expect(await rejection(bitteam.fetchOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: 404300,
    });
    const order = await bitteam.createOrder(buy);
    await bitteam.cancelOrder("BTC/USDT", order.id);
    expect(await rejection(bitteam.cancelOrder("BTC/USDT", order.id))).toMatchObject({
      kind: "invalid-order",
      code: 403002,
    });
  });

  it("treats ok: false as a failure even under HTTP 200 (only code 0 / ok true is success, docs/exchange-rules.md#errors)", async () => {
    mock.failNext(400000, "Invalid request params input", 200);
    expect(await rejection(bitteam.fetchBalances())).toMatchObject({ kind: "invalid-order", code: 400000 });
  });

  it("maps HTTP 429 to rate-limit with the Retry-After hint", async () => {
    mock.rateLimitNext();
    expect(await rejection(bitteam.fetchBalances())).toMatchObject({ kind: "rate-limit", retryAfterMs: 3000 });
  });

  it("maps 403000 'Service Unavailable' to network, not auth, despite its 403 status", async () => {
    mock.failNext(403000, "Service Unavailable", 403);
    expect(await rejection(bitteam.fetchBalances())).toMatchObject({ kind: "network", code: 403000 });
  });
});

describe("bitteam time-out on create (docs/exchange-rules.md#contract: a create is never sent twice blindly; bitteam has no client order id)", () => {
  const slow = () => createExchange("bitteam", credentials, { baseUrl: mock.url, timeoutMs: 400 });

  it("returns the matching new open order found in ordersOfUser; the mock holds exactly one order", async () => {
    mock.delayNextCreate(1500);
    const order = await slow().createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({
      id: String(only!.id),
      pair: "BTC/USDT",
      side: "Buy",
      price: "30000",
      amount: "0.01",
      status: "open",
    });
    expect(routes()).toEqual([
      `GET ${BITTEAM_PATHS.pairs}`,
      `POST ${BITTEAM_PATHS.orderCreate}`,
      `GET ${BITTEAM_PATHS.ordersOfUser}`,
    ]);
  });

  it("does not take an identical order created before the request began", async () => {
    const older = mock.seedOrder({ side: "buy", quantity: "0.01", price: "30000", ageMs: 60_000 });
    mock.delayNextCreate(1500);
    const order = await slow().createOrder(buy);
    expect(order.id).not.toBe(String(older.id));
    expect(mock.orders.has(order.id)).toBe(true);
    expect(creates()).toHaveLength(1);
  });

  it("fails with the original network error and does not resend when the look-up fails", async () => {
    mock.delayNextCreate(1500);
    mock.failNextOrdersOfUser(500, { ok: false, code: 500000, message: "Internal error" });
    const error = await rejection(slow().createOrder(buy));
    expect(error).toMatchObject({ kind: "network", code: "ETIMEDOUT" });
    expect(creates()).toHaveLength(1);
    expect(mock.orders.size).toBe(1);
  });

  it("fails with the original network error and does not resend when no matching order is found", async () => {
    mock.loseNextCreate(1500);
    const error = await rejection(slow().createOrder(buy));
    expect(error).toMatchObject({ kind: "network", code: "ETIMEDOUT" });
    expect(creates()).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("fails with the original network error and does not resend when two new orders match (cannot decide)", async () => {
    mock.seedOrder({ side: "buy", quantity: "0.01", price: "30000" });
    mock.delayNextCreate(1500);
    expect(await rejection(slow().createOrder(buy))).toMatchObject({ kind: "network", code: "ETIMEDOUT" });
    expect(creates()).toHaveLength(1);
    expect(mock.orders.size).toBe(2);
  });
});

describe("bitteam status and timestamp rules (docs/exchange-rules.md#entities, #states) with the documented order examples", () => {
  const documented = {
    id: 106733308,
    orderId: "13074362",
    userId: 21639,
    pair: "btc_usdt",
    pairId: 22,
    quantity: "0.00001",
    price: "50000",
    executedPrice: "37017.495008",
    orderCid: null,
    executed: "0.00001",
    expires: null,
    baseDecimals: 8,
    quoteDecimals: 6,
    timestamp: 1700594959,
    status: "executed",
    side: "buy",
    type: "limit",
    createdAt: "2023-11-21T19:29:19.946Z",
    updatedAt: "2023-11-21T19:29:19.946Z",
  };
  const status = (s: string) => parseBitteamOrder({ ...documented, status: s }).status;

  it("maps created, accepted, executing to open; executed to closed; cancelled and partiallyCancelled to canceled", () => {
    expect(["created", "accepted", "executing", "executed", "cancelled", "partiallyCancelled"].map(status)).toEqual([
      "open",
      "open",
      "open",
      "closed",
      "canceled",
      "canceled",
    ]);
  });

  it("yields undefined for an unknown status and keeps the raw word", () => {
    expect(parseBitteamOrder({ ...documented, status: "somewhere" })).toMatchObject({
      status: undefined,
      rawStatus: "somewhere",
    });
  });

  it("reads createdAt as milliseconds, else the timestamp in seconds × 1000", () => {
    expect(parseBitteamOrder(documented)).toMatchObject({
      id: "106733308",
      pair: "BTC/USDT",
      timestamp: 1700594959946,
      filled: "0.00001",
      side: "Buy",
    });
    const { createdAt: _c, updatedAt: _u, ...created } = documented;
    expect(parseBitteamOrder({ ...created, timestamp: "1700594959" }).timestamp).toBe(1700594959000);
  });

  it("drops all-zero balances and ignores the free/used/total maps", () => {
    expect(
      parseBitteamBalances({
        free: { BTC: "1" },
        used: { BTC: "0" },
        total: { BTC: "1" },
        BTC: { free: "0", used: "0", total: "0" },
      }),
    ).toEqual({});
  });
});

describe("bitteam through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: BITTEAM_KEY, SPOTDESK_API_SECRET: BITTEAM_SECRET };

  it("buy, order, orders, cancel, cancel-all, balances end to end; batch and cancel-batch are 'Not supported'", async () => {
    await runCliScenario({
      id: "bitteam",
      mock,
      env,
      status: (o) => o.status,
      open: "open",
      canceled: "cancelled",
      unsupported: ["batch", "cancel-batch"],
      sell: ["0.02", "31000"],
      balances: {
        USDT: { f: "1500.5", l: "300" },
        DEL: { f: "1234567.890123456789", l: "0.5" },
      },
    });
  });
});

import { BITTEAM_MORE_PAIRS } from "./mock.js";

describe("bitteam fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new BitteamAdapter({ api: "", secret: "" }, { baseUrl: mock.url });

  it("lists the active pairs sorted, tick 10^-quoteStep and lot 10^-baseStep, from the public pairs list", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "0.000001", lot: "0.00000001" },
      { pair: "ETH/USDT", tick: "0.000001", lot: "0.00000001" },
      { pair: "SHIB/USDT", tick: "0.0000000001", lot: "1" },
    ]);
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(["GET /trade/api/ccxt/pairs?"]);
    expect(mock.server.requests[0]!.headers.authorization).toBeUndefined();
    // a GET: no body
    expect(mock.server.requests[0]!.body).toBe("");
  });

  it("leaves out an inactive pair and a name that is no base_quote", async () => {
    const listed = (await new BitteamAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    expect(BITTEAM_MORE_PAIRS.map((p) => `${p.name} ${p.active}`)).toEqual(
      expect.arrayContaining(["old_usdt false", "usdt_trc20_usdt true"]),
    );
    expect(listed).toEqual(["BTC/USDT", "ETH/USDT", "SHIB/USDT"]);
  });

  it("names the field of a malformed answer", async () => {
    mock.server.intercept((req) =>
      req.path === "/trade/api/ccxt/pairs"
        ? { body: { ok: true, result: { count: 1, pairs: [{ id: 2, name: "eth_usdt", active: true, baseStep: 8 }] } } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      "Unexpected answer from bitteam: result.pairs[0].quoteStep expected text or a number, got nothing",
    );
  });
});

describe("bitteam off the happy path (issue 25)", () => {
  it("reads ok true with a code other than 0 as a failure, the message from message or msg, else the HTTP status", async () => {
    mock.fake.replyNext({
      status: 200,
      body: { ok: true, code: 450000, message: "", msg: "Not enough balance", result: {} },
    });
    expect(await rejection(bitteam.fetchBalances())).toMatchObject({
      kind: "insufficient-funds",
      message: "ExchangeId: bitteam, msg: Not enough balance (code 450000)",
    });
    mock.fake.replyNext({ status: 400, body: { ok: true, result: {} } });
    expect((await rejection(bitteam.fetchBalances())).message).toBe("ExchangeId: bitteam, msg: HTTP 400");
    mock.fake.replyNext({ status: 200, body: { ok: false, code: { x: 1 }, msg: "" } });
    expect(await rejection(bitteam.fetchBalances())).toMatchObject({
      code: undefined,
      message: "ExchangeId: bitteam, msg: HTTP 200",
    });
  });

  it("fetches the pairs again after a failed fetch (a failure is not cached)", async () => {
    let fail = true;
    mock.server.intercept((req) => {
      if (req.path !== BITTEAM_PATHS.pairs || !fail) return undefined;
      fail = false;
      return { status: 500, body: { ok: false, code: 500000, message: "down" } };
    });
    await rejection(bitteam.createOrder(buy));
    await bitteam.createOrder(buy);
    expect(routes().filter((r) => r.endsWith("/pairs"))).toHaveLength(2);
  });

  it("skips the free/used/total maps even when they hold one currency's shape, and builds GET and POST requests", () => {
    expect(
      parseBitteamBalances({
        free: { free: "9", used: "0" },
        used: { free: "9" },
        total: { free: "9" },
        abc: { free: "1", used: "2" },
      }),
    ).toEqual({ ABC: { f: "1", l: "2" } });
    const get = bitteamRequest("A", "GET", "/p", { a: 1 });
    expect([get.query, get.body]).toEqual(["a=1", ""]);
    const post = bitteamRequest("A", "POST", "/p", { a: 1 });
    expect([post.query, post.body]).toEqual(["", '{"a":1}']);
    expect(bitteamAuthorization({ api: "é", secret: "ü" })).toBe(
      `Basic ${Buffer.from("é:ü", "utf8").toString("base64")}`,
    );
  });

  it("sells as sell", async () => {
    await bitteam.createOrder({ ...buy, side: "Sell" });
    expect(JSON.parse(creates().at(-1)!.body)).toMatchObject({ side: "sell", type: "limit" });
  });
});

describe("bitteam off the happy path, continued (issue 25: the survivors of docs/mutation.md group B)", () => {
  const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
  /** documented order rows as ordersOfUser lists them, from orders seeded on the mock */
  const rows = (n: number, pair = "btc_usdt") =>
    Array.from({ length: n }, (_, i) => mock.seedOrder({ pair, side: "buy", quantity: "1", price: String(100 + i) }));
  const offsets = () =>
    mock.server.requests.filter((r) => r.path === BITTEAM_PATHS.ordersOfUser).map((r) => parseQuery(r.query).offset);

  it("calls https://bit.team by default", () => {
    const adapter = new BitteamAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://bit.team");
  });

  it("reads a code written as text, and a message or msg that is not text as absent", async () => {
    mock.fake.replyNext({ status: 400, body: { ok: false, code: "450000", message: "Insufficient funds" } });
    expect(await rejection(bitteam.fetchBalances())).toMatchObject({
      kind: "insufficient-funds",
      code: "450000",
      message: "ExchangeId: bitteam, msg: Insufficient funds (code 450000)",
    });
    mock.fake.replyNext({ status: 400, body: { ok: false, code: 400000, message: 17, msg: "Invalid params" } });
    expect((await rejection(bitteam.fetchBalances())).message).toBe(
      "ExchangeId: bitteam, msg: Invalid params (code 400000)",
    );
    mock.fake.replyNext({ status: 400, body: { ok: false, code: 400000, msg: { text: "no" } } });
    expect((await rejection(bitteam.fetchBalances())).message).toBe("ExchangeId: bitteam, msg: HTTP 400 (code 400000)");
  });

  it("names the service-unavailable code and an unlisted pair in the error text", async () => {
    mock.failNext(403000, "Service Unavailable", 403);
    expect((await rejection(bitteam.fetchBalances())).message).toBe(
      "ExchangeId: bitteam, msg: Service Unavailable (code 403000)",
    );
    expect((await rejection(bitteam.createOrder({ ...buy, pair: "DOGE/USDT" }))).message).toBe(
      "ExchangeId: bitteam, msg: Pair DOGE/USDT is not traded on bitteam",
    );
  });

  it("reads a pairs list of another shape as an unexpected answer from bitteam, sends no order and asks again next time", async () => {
    let malformed = true;
    mock.server.intercept((req) => {
      if (req.path !== BITTEAM_PATHS.pairs || !malformed) return undefined;
      malformed = false;
      return ok({ count: 1, pairs: [{ id: 22, fullName: "BTC USDT" }] });
    });
    expect((await rejection(bitteam.createOrder(buy))).message).toMatch(
      /^ExchangeId: bitteam, msg: Unexpected answer from bitteam: pairs\[0\]\.name /,
    );
    expect(creates()).toHaveLength(0);
    await bitteam.createOrder(buy);
    expect(routes().filter((r) => r.endsWith(BITTEAM_PATHS.pairs))).toHaveLength(2);
  });

  it("names bitteam when an order or a balance answer has another shape", () => {
    expect(() => parseBitteamOrder({ id: 1, side: "buy" })).toThrow(
      /^ExchangeId: bitteam, msg: Unexpected answer from bitteam: /,
    );
    expect(() => parseBitteamBalances(["USDT"])).toThrow(/^ExchangeId: bitteam, msg: Unexpected answer from bitteam: /);
  });

  it("reads an order without a type as limit and one without a status as having no raw status", () => {
    const order = parseBitteamOrder({ id: 7, pair: "btc_usdt", side: "sell", quantity: "1", price: "2" });
    expect(order).toMatchObject({ type: "limit", status: undefined, side: "Sell" });
    expect("rawStatus" in order).toBe(false);
  });

  it("skips a currency whose entry is not a {free, used} object instead of failing the whole balance", () => {
    expect(
      parseBitteamBalances({ usdt: { free: "5", used: "1" }, note: "maintenance", eth: null, btc: { free: { x: 1 } } }),
    ).toEqual({ USDT: { f: "5", l: "1" } });
  });

  it("does not search the open orders after a create bitteam refused (only a create that may have reached it)", async () => {
    mock.failNext(450000, "Insufficient funds");
    expect(await rejection(bitteam.createOrder(buy))).toMatchObject({ kind: "insufficient-funds" });
    expect(routes()).toEqual([`GET ${BITTEAM_PATHS.pairs}`, `POST ${BITTEAM_PATHS.orderCreate}`]);
  });

  it("refuses a caller's client order id before any request: bitteam cannot look an order up by one", async () => {
    for (const call of [
      bitteam.createOrder({ ...buy, clientOrderId: "abc123" }),
      bitteam.findOrderByClientOrderId("BTC/USDT", "abc123"),
    ]) {
      expect(await rejection(call)).toMatchObject({
        kind: "unsupported",
        message: "ExchangeId: bitteam, msg: bitteam takes no client order id: it cannot look an order up by one",
      });
    }
    expect(mock.server.requests).toHaveLength(0);
  });

  it("refuses an order fetched under another pair as not found", async () => {
    const order = await bitteam.createOrder(buy);
    expect(await rejection(bitteam.fetchOrder("ETH/USDT", order.id))).toMatchObject({
      kind: "order-not-found",
      message: `ExchangeId: bitteam, msg: Order ${order.id} is not on ETH/USDT`,
    });
  });

  it("sends GET parameters in the query with no body, and POST parameters in the body with no query", async () => {
    const order = await bitteam.createOrder(buy);
    await bitteam.fetchOrder("BTC/USDT", order.id);
    await bitteam.fetchOpenOrders("BTC/USDT");
    await bitteam.fetchBalances();
    await bitteam.cancelOrder("BTC/USDT", order.id);
    const sent = mock.server.requests.map((r) => [r.method, r.path, r.method === "GET" ? r.body : r.query]);
    expect(sent).toEqual([
      ["GET", BITTEAM_PATHS.pairs, ""],
      ["POST", BITTEAM_PATHS.orderCreate, ""],
      ["GET", BITTEAM_PATHS.order(order.id), ""],
      ["GET", BITTEAM_PATHS.ordersOfUser, ""],
      ["GET", BITTEAM_PATHS.balance, ""],
      ["POST", BITTEAM_PATHS.cancelOrder, ""],
    ]);
  });

  it("reads an open-orders page whose orders are null as none", async () => {
    mock.fake.replyNext(ok({ count: 0, orders: null }));
    await expect(bitteam.fetchOpenOrders("BTC/USDT")).resolves.toEqual([]);
  });

  it("stops when an exchange ignoring offset repeats a full page: each order once, two requests", async () => {
    const page = rows(100);
    mock.server.intercept((req) =>
      req.path === BITTEAM_PATHS.ordersOfUser ? ok({ count: 250, orders: page }) : undefined,
    );
    const open = await bitteam.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id)).toEqual(page.map((o) => String(o.id)));
    expect(offsets()).toEqual(["0", "100"]);
  });

  it("keeps only the asked pair when an answer mixes in another pair's orders", async () => {
    const btc = rows(2);
    const eth = rows(1, "eth_usdt");
    mock.server.intercept((req) =>
      req.path === BITTEAM_PATHS.ordersOfUser ? ok({ count: 3, orders: [btc[0], eth[0], btc[1]] }) : undefined,
    );
    expect((await bitteam.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual(btc.map((o) => String(o.id)));
  });

  it("stops at a short page even when count says more (orders closed while paging)", async () => {
    const all = rows(120);
    mock.server.intercept((req) => {
      if (req.path !== BITTEAM_PATHS.ordersOfUser) return undefined;
      const offset = Number(parseQuery(req.query).offset);
      return ok({ count: 300, orders: all.slice(offset, offset + 100) });
    });
    expect(await bitteam.fetchOpenOrders("BTC/USDT")).toHaveLength(120);
    expect(offsets()).toEqual(["0", "100"]);
  });
});

describe("bitteam time-out look-up, continued (issue 25)", () => {
  it("does not take an open order on the other side with the same pair, price and amount", async () => {
    const sell = mock.seedOrder({ side: "sell", quantity: "0.01", price: "30000" });
    mock.delayNextCreate(1500);
    const slow = createExchange("bitteam", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(order).toMatchObject({ side: "Buy", price: "30000", amount: "0.01" });
    expect(order.id).not.toBe(String(sell.id));
    expect(mock.orders.get(order.id)!.side).toBe("buy");
  });

  it("takes an order created in the very millisecond the create began (whole second, injected clock)", async () => {
    const now = () => 1_700_000_000_000;
    const timed = await startBitteamMock({ now });
    try {
      timed.delayNextCreate(1500);
      const slow = createExchange("bitteam", credentials, { baseUrl: timed.url, timeoutMs: 400, now });
      const order = await slow.createOrder(buy);
      expect(order).toMatchObject({ timestamp: 1_700_000_000_000, side: "Buy", status: "open" });
      expect(timed.orders.size).toBe(1);
    } finally {
      await timed.close();
    }
  });
});
