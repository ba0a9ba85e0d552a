import { createHash, createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { runCli } from "../../test/exchanges/run-cli.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { GATE_KEY, GATE_SECRET, type GateMock, startGateMock } from "./mock.js";
import {
  GATE_BASE_URL,
  GateAdapter,
  gateSignature,
  gateSignedRequest,
  parseGateBalances,
  parseGateOrder,
} from "./rest.js";

let mock: GateMock;
let gate: ExchangeAdapter;

beforeEach(async () => {
  mock = await startGateMock();
  gate = createExchange("gate", { api: GATE_KEY, secret: GATE_SECRET }, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

describe("gate signing (official APIv4 docs)", () => {
  it("signs METHOD, /api/v4 path, query, SHA512 of the body and the timestamp with HMAC-SHA512 hex", () => {
    // Independent recomputation with node:crypto of the documented signature string.
    const body = '{"currency_pair":"BTC_USDT"}';
    const expected = createHmac("sha512", "secret")
      .update(`POST\n/api/v4/spot/orders\na=1\n${createHash("sha512").update(body).digest("hex")}\n1700000000`)
      .digest("hex");
    expect(
      gateSignature("secret", {
        method: "POST",
        path: "/api/v4/spot/orders",
        query: "a=1",
        body,
        timestamp: "1700000000",
      }),
    ).toBe(expected);
  });

  // The authentication page's worked examples: key "key", secret "secret", Timestamp 1541993715.
  it("reproduces the documented signature of GET /api/v4/futures/orders?contract=BTC_USD&status=finished&limit=50", () => {
    const request = gateSignedRequest(
      { api: "key", secret: "secret" },
      1541993715_000,
      "GET",
      "/api/v4/futures/orders",
      { contract: "BTC_USD", status: "finished", limit: 50 },
    );
    expect(request.query).toBe("contract=BTC_USD&status=finished&limit=50");
    expect(request.headers).toMatchObject({
      KEY: "key",
      Timestamp: "1541993715",
      SIGN: "55f84ea195d6fe57ce62464daaa7c3c02fa9d1dde954e4c898289c9a2407a3d6fb3faf24deff16790d726b66ac9f74526668b13bd01029199cc4fcc522418b8a",
    });
  });

  it("reproduces the documented signature of POST /api/v4/futures/orders with its JSON body", () => {
    const request = gateSignedRequest(
      { api: "key", secret: "secret" },
      1541993715_000,
      "POST",
      "/api/v4/futures/orders",
      {},
      {
        contract: "BTC_USD",
        type: "limit",
        size: 100,
        price: 6800,
        time_in_force: "gtc",
      },
    );
    expect(request.body).toBe('{"contract":"BTC_USD","type":"limit","size":100,"price":6800,"time_in_force":"gtc"}');
    expect(request.headers.SIGN).toBe(
      "eae42da914a590ddf727473aff25fc87d50b64783941061f47a3fdb92742541fc4c2c14017581b4199a1418d54471c269c03a38d788d802e2c306c37636389f0",
    );
  });

  it("signs the query without URL encoding while sending it encoded", () => {
    const request = gateSignedRequest({ api: "key", secret: "secret" }, 1541993715_000, "GET", "/api/v4/spot/orders", {
      text: "t-a b",
    });
    expect(request.query).toBe("text=t-a%20b");
    const expected = createHmac("sha512", "secret")
      .update(`GET\n/api/v4/spot/orders\ntext=t-a b\n${createHash("sha512").update("").digest("hex")}\n1541993715`)
      .digest("hex");
    expect(request.headers.SIGN).toBe(expected);
  });

  it("hashes the empty body of a GET too", () => {
    const expected = createHmac("sha512", "s")
      .update(`GET\n/api/v4/spot/accounts\n\n${createHash("sha512").update("").digest("hex")}\n1`)
      .digest("hex");
    expect(
      gateSignature("s", { method: "GET", path: "/api/v4/spot/accounts", query: "", body: "", timestamp: "1" }),
    ).toBe(expected);
  });
});

describe("gate operations (docs/exchange-rules.md#operations) against the signature-checking mock", () => {
  it("creates a limit GTC buy with a t- hexadecimal text of at most 28 more characters (docs/decisions.md#d11)", async () => {
    const order = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const sent = JSON.parse(mock.server.requests.at(-1)!.body);
    expect(sent).toMatchObject({
      currency_pair: "BTC_USDT",
      type: "limit",
      side: "buy",
      amount: "0.01",
      price: "30000",
      time_in_force: "gtc",
      account: "spot",
    });
    expect(sent.text).toMatch(/^t-[0-9a-f]{28}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      side: "Buy",
      amount: "0.01",
      price: "30000",
      filled: "0",
      status: "open",
      clientOrderId: sent.text,
    });
    expect(order.timestamp).toBeGreaterThan(1e12);
  });

  it("creates a limit sell", async () => {
    const order = await gate.createOrder({ pair: "btc/usdt", side: "Sell", amount: "0.5", price: "31000.5" });
    expect(order.side).toBe("Sell");
    expect(JSON.parse(mock.server.requests.at(-1)!.body).side).toBe("sell");
  });

  it("creates a batch through /spot/batch_orders, each item with its own text", async () => {
    const orders = await gate.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.02", price: "32000" },
    ]);
    expect(orders.map((o) => o.side)).toEqual(["Buy", "Sell"]);
    expect(new Set(orders.map((o) => o.clientOrderId)).size).toBe(2);
    expect(mock.accepted).toEqual(["POST /api/v4/spot/batch_orders"]);
  });

  it("rejects a batch of 11 with \"Maximum for 'createBatch' is: 10\" before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const items = Array.from({ length: 11 }, () => ({ side: "Buy" as const, amount: "1", price: "1" }));
    const error = await rejection(gate.createBatch("BTC/USDT", items));
    expect(error.message).toBe("ExchangeId: gate, msg: Maximum for 'createBatch' is: 10");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one order by id with DELETE /spot/orders/{id}", async () => {
    const order = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    await expect(gate.cancelOrder("BTC/USDT", order.id)).resolves.toBe(order.id);
    expect(mock.orders.get(order.id)!.status).toBe("cancelled");
    const last = mock.server.requests.at(-1)!;
    expect(`${last.method} ${last.path}`).toBe(`DELETE /api/v4/spot/orders/${order.id}`);
    expect(parseQuery(last.query)).toEqual({ currency_pair: "BTC_USDT" });
  });

  it("arms the countdown with POST /spot/countdown_cancel_all {timeout, currency_pair}, signed (docs/exchange-rules.md#countdown)", async () => {
    await gate.cancelAllAfter!("BTC/USDT", 60);
    const last = mock.server.requests.at(-1)!;
    expect(`${last.method} ${last.path}`).toBe("POST /api/v4/spot/countdown_cancel_all");
    expect(JSON.parse(last.body)).toEqual({ timeout: 60, currency_pair: "BTC_USDT" });
    // the signature of the documented string, recomputed with node:crypto
    const timestamp = last.headers.timestamp as string;
    const expected = createHmac("sha512", GATE_SECRET)
      .update(
        `POST\n/api/v4/spot/countdown_cancel_all\n\n${createHash("sha512").update(last.body).digest("hex")}\n${timestamp}`,
      )
      .digest("hex");
    expect(last.headers.sign).toBe(expected);
    expect(last.headers.key).toBe(GATE_KEY);
    expect(mock.accepted).toEqual(["POST /api/v4/spot/countdown_cancel_all"]);
    expect([...mock.countdowns.keys()]).toEqual(["BTC_USDT"]);
    // 0 disarms; no pair covers every pair
    await gate.cancelAllAfter!("BTC/USDT", 0);
    expect(mock.countdowns.size).toBe(0);
    await gate.cancelAllAfter!(undefined, 5);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({ timeout: 5 });
    expect(gate.countdown).toEqual({ minSeconds: 5, maxSeconds: 86_400, scope: "pair" });
  });

  it("refuses a countdown gate would refuse (under 5 s) before any request", async () => {
    const error = await rejection(gate.cancelAllAfter!("BTC/USDT", 3));
    expect(error.message).toBe(
      "ExchangeId: gate, msg: Invalid countdown 3: expected 0 (off) or whole seconds from 5 to 86400",
    );
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels a batch through /spot/cancel_batch_orders (docs/decisions.md#d10: gate cancel batch 20 is supported)", async () => {
    const a = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30001" });
    await expect(gate.cancelBatch("BTC/USDT", [a.id, b.id])).resolves.toEqual([a.id, b.id]);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual([
      { currency_pair: "BTC_USDT", id: a.id },
      { currency_pair: "BTC_USDT", id: b.id },
    ]);
  });

  it("rejects a cancel batch of 21 with \"Maximum for 'cancelBatch' is: 20\" before any request (docs/exchange-rules.md#validation)", async () => {
    const error = await rejection(
      gate.cancelBatch(
        "BTC/USDT",
        Array.from({ length: 21 }, (_, i) => String(i)),
      ),
    );
    expect(error.message).toBe("ExchangeId: gate, msg: Maximum for 'cancelBatch' is: 20");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels all open orders of the pair with DELETE /spot/orders?currency_pair=", async () => {
    const a = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await gate.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.01", price: "40000" });
    await expect(gate.cancelAll("BTC/USDT")).resolves.toEqual([a.id, b.id]);
    expect([...mock.orders.values()].every((o) => o.status === "cancelled")).toBe(true);
  });

  it("fetches one order and its open orders", async () => {
    const a = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.02", price: "30000" });
    await gate.cancelOrder("BTC/USDT", b.id);
    const fetched = await gate.fetchOrder("BTC/USDT", b.id);
    expect(fetched).toMatchObject({ id: b.id, status: "canceled", amount: "0.02" });
    const open = await gate.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id)).toEqual([a.id]);
  });

  it("pages open orders past the open-orders limit of 100 (docs/decisions.md#d10)", async () => {
    for (let i = 0; i < 105; i++)
      await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: String(100 + i) });
    const open = await gate.fetchOpenOrders("BTC/USDT");
    expect(open).toHaveLength(105);
    const pages = mock.server.requests
      .filter((r) => r.method === "GET" && r.path === "/api/v4/spot/orders")
      .map((r) => parseQuery(r.query).page);
    expect(pages).toEqual(["1", "2"]);
  });

  it("fetches balances, dropping all-zero currencies and upper-casing codes (docs/exchange-rules.md#entities)", async () => {
    await expect(gate.fetchBalances()).resolves.toEqual({
      USDT: { f: "1000.5", l: "300" },
      BTC: { f: "0.1234567890123456789", l: "0" },
    });
  });
});

describe("gate errors (docs/exchange-rules.md#errors, #contract)", () => {
  it("answers a wrong secret with an auth error after exactly one request (no retry)", async () => {
    const wrong = new GateAdapter({ api: GATE_KEY, secret: "not-the-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" }));
    expect(error.kind).toBe("auth");
    expect(error.code).toBe("INVALID_SIGNATURE");
    expect(error.message).toBe("ExchangeId: gate, msg: Signature mismatch (code INVALID_SIGNATURE)");
    expect(error.message).not.toContain("not-the-secret");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("maps Gate's BALANCE_NOT_ENOUGH label to insufficient-funds with the exchange's message", async () => {
    mock.failNext(400, "BALANCE_NOT_ENOUGH", "Not enough balance");
    const error = await rejection(gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "100", price: "30000" }));
    expect(error).toMatchObject({ kind: "insufficient-funds", code: "BALANCE_NOT_ENOUGH" });
    expect(error.message).toBe("ExchangeId: gate, msg: Not enough balance (code BALANCE_NOT_ENOUGH)");
  });

  it("maps ORDER_NOT_FOUND to order-not-found", async () => {
    const error = await rejection(gate.fetchOrder("BTC/USDT", "999"));
    expect(error.kind).toBe("order-not-found");
  });

  it("maps a 429 TOO_MANY_REQUESTS to rate-limit with the reset hint", async () => {
    mock.rateLimitNext();
    const error = await rejection(gate.fetchBalances());
    expect(error.kind).toBe("rate-limit");
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(1500);
  });

  it("fails a batch when one item is refused, naming its label and how many were placed", async () => {
    mock.refuseNextBatchItem(1, "INVALID_PRECISION", "Invalid precision");
    const error = await rejection(
      gate.createBatch("BTC/USDT", [
        { side: "Buy", amount: "0.01", price: "29000" },
        { side: "Buy", amount: "0.01", price: "29000.123456789" },
      ]),
    );
    expect(error).toMatchObject({ kind: "invalid-order", code: "INVALID_PRECISION" });
    expect(error.detail).toContain(
      "One of orders threw an error (INVALID_PRECISION, Invalid precision); 1 of 2 placed",
    );
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "29000"]]);
    expect((await gate.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });
});

describe("gate's documented required parameters, pages and partial batches (issue 25)", () => {
  it("sends currency_pair (and status for the list) on every call; the mock refuses a call without it", async () => {
    const [a, b] = await gate.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await gate.cancelOrder("BTC/USDT", a!.id);
    await gate.fetchOrder("BTC/USDT", a!.id);
    await gate.cancelBatch("BTC/USDT", [b!.id]);
    await gate.fetchOpenOrders("BTC/USDT");
    await gate.cancelAll("BTC/USDT");
    const sent = mock.server.requests.map((r) => ({
      route: `${r.method} ${r.path.replace(/\/\d+$/, "/{id}")}`,
      params: r.body ? JSON.parse(r.body) : parseQuery(r.query),
    }));
    expect(sent).toEqual([
      {
        route: "POST /api/v4/spot/batch_orders",
        params: [
          expect.objectContaining({ currency_pair: "BTC_USDT", side: "buy", amount: "1", price: "100" }),
          expect.objectContaining({ currency_pair: "BTC_USDT", side: "sell", amount: "2", price: "200" }),
        ],
      },
      { route: "DELETE /api/v4/spot/orders/{id}", params: { currency_pair: "BTC_USDT" } },
      { route: "GET /api/v4/spot/orders/{id}", params: { currency_pair: "BTC_USDT" } },
      { route: "POST /api/v4/spot/cancel_batch_orders", params: [{ currency_pair: "BTC_USDT", id: b!.id }] },
      {
        route: "GET /api/v4/spot/orders",
        params: { currency_pair: "BTC_USDT", status: "open", page: "1", limit: "100" },
      },
      { route: "DELETE /api/v4/spot/orders", params: { currency_pair: "BTC_USDT" } },
    ]);
    const request = gateSignedRequest(
      { api: GATE_KEY, secret: GATE_SECRET },
      Date.now(),
      "GET",
      "/api/v4/spot/orders",
      {
        status: "open",
      },
    );
    const bare = await fetch(`${mock.url}${request.path}?${request.query}`, { headers: request.headers });
    expect([bare.status, await bare.json()]).toEqual([
      400,
      { label: "MISSING_REQUIRED_PARAM", message: "Missing required parameter: currency_pair" },
    ]);
  });

  it("follows full pages to the short one: 201 open orders arrive whole in three pages of 100", async () => {
    for (let i = 0; i < 201; i++)
      await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: String(100 + i) });
    await gate.createOrder({ pair: "ETH/USDT", side: "Buy", amount: "1", price: "1" });
    mock.server.requests.length = 0;
    const open = await gate.fetchOpenOrders("BTC/USDT");
    expect(new Set(open.map((o) => o.id)).size).toBe(201);
    expect(open.every((o) => o.pair === "BTC/USDT")).toBe(true);
    expect(mock.server.requests.map((r) => parseQuery(r.query).page)).toEqual(["1", "2", "3"]);
  });

  it("a partly failed batch cancel resolves to the ids really cancelled; the failed ones are not among them", async () => {
    const a = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "100" });
    const b = await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "101" });
    await gate.cancelOrder("BTC/USDT", b.id);
    expect(await gate.cancelBatch("BTC/USDT", [b.id, a.id, "777"])).toEqual([a.id]);
    expect(mock.orders.get(a.id)!.status).toBe("cancelled");
    expect(await gate.cancelBatch("BTC/USDT", ["778"])).toEqual([]);
  });
});

describe("gate answers off the happy path (issue 25)", () => {
  it.each([
    ["INVALID_KEY", "auth"],
    ["REQUEST_EXPIRED", "auth"],
    ["READ_ONLY", "auth"],
    ["TOO_MANY_REQUESTS", "rate-limit"],
    ["INVALID_CURRENCY_PAIR", "invalid-order"],
    ["AMOUNT_TOO_LITTLE", "invalid-order"],
    ["ORDER_CLOSED", "order-not-found"],
  ])("reads label %s in an HTTP 400 answer as %s", async (label, kind) => {
    mock.failNext(400, label, "m");
    expect((await rejection(gate.fetchBalances())).kind).toBe(kind);
  });

  it("takes the message from message, else detail, else the HTTP status; a label that is not text is no code", async () => {
    mock.fake.replyNext({ status: 400, body: { label: "INVALID_PARAM_VALUE", detail: "bad amount" } });
    expect((await rejection(gate.fetchBalances())).detail).toBe("bad amount (code INVALID_PARAM_VALUE)");
    mock.fake.replyNext({ status: 502, body: { label: 7, message: 8 } });
    const bare = await rejection(gate.fetchBalances());
    expect([bare.detail, bare.code]).toEqual(["HTTP 502", undefined]);
    mock.fake.replyNext({ status: 300, body: { label: "X", message: "moved" } });
    expect((await rejection(gate.fetchBalances())).detail).toBe("moved (code X)");
  });

  it("waits for Retry-After when sent, else for Gate's reset time when it lies ahead, else its own pause", async () => {
    const limited = (headers: Record<string, string>) => {
      mock.fake.replyNext({ status: 429, headers, body: { label: "TOO_MANY_REQUESTS", message: "slow down" } });
      return rejection(gate.fetchBalances()).then((e) => e.retryAfterMs);
    };
    expect(await limited({ "retry-after": "3", "x-gate-ratelimit-reset-timestamp": String(Date.now() + 60_000) })).toBe(
      3000,
    );
    expect(await limited({ "x-gate-ratelimit-reset-timestamp": String(Date.now() - 5000) })).toBe(0);
    const own = await limited({});
    expect(own).toBeGreaterThan(0);
    expect(await limited({ "x-gate-ratelimit-reset-timestamp": "0" })).toBe(own);
    expect(await limited({ "x-gate-ratelimit-reset-timestamp": "soon" })).toBe(own);
    const ahead = await limited({ "x-gate-ratelimit-reset-timestamp": String(Date.now() + 40_000) });
    expect(ahead).toBeGreaterThan(30_000);
    expect(ahead).toBeLessThanOrEqual(40_000);
  });

  it("names a batch item's missing label and message as empty, with how many were placed", async () => {
    mock.fake.replyNext({
      body: [
        { id: "1", text: "t-a", succeeded: true, currency_pair: "BTC_USDT", amount: "1", price: "1", side: "buy" },
        { succeeded: false },
        { id: "3", text: "t-c", currency_pair: "BTC_USDT", amount: "1", price: "1", side: "buy" },
        { id: "4", text: "t-d", succeeded: true, currency_pair: "BTC_USDT", amount: "1", price: "1", side: "buy" },
      ],
    });
    const one = { side: "Buy" as const, amount: "1", price: "1" };
    const error = await rejection(gate.createBatch("BTC/USDT", [one, one, one, one]));
    expect(error.detail).toBe("One of orders threw an error (, ); 3 of 4 placed");
  });

  it("after a create time-out that never reached the book, the text look-up finds nothing and the create is sent once more", async () => {
    const slow = createExchange("gate", { api: GATE_KEY, secret: GATE_SECRET }, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, status: 201, body: {} });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    await new Promise((r) => setTimeout(r, 400));
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(mock.server.requests.map((r) => r.method)).toEqual(["POST", "GET", "POST"]);
  });

  it("after a create time-out whose look-up fails too, sends nothing more", async () => {
    const slow = createExchange("gate", { api: GATE_KEY, secret: GATE_SECRET }, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, status: 201, body: {} });
    const pending = rejection(slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" }));
    // once the create has reached the mock, the next request (the look-up) is refused
    while (mock.server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    mock.rateLimitNext();
    expect((await pending).kind).not.toBe("rate-limit");
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.server.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
  });

  it("fails a 2xx answer without JSON by its status, and leaves a cancelled item without id out", async () => {
    mock.fake.replyNext({ status: 200, body: "" });
    expect((await rejection(gate.fetchBalances())).detail).toBe("HTTP 200");
    mock.fake.replyNext({ body: [{ succeeded: true }, { id: "5", succeeded: true }] });
    expect(await gate.cancelBatch("BTC/USDT", ["4", "5"])).toEqual(["5"]);
  });

  it("sends JSON to Gate's production host by default", async () => {
    expect(GATE_BASE_URL).toBe("https://api.gateio.ws");
    await gate.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect(mock.server.requests[0]!.headers).toMatchObject({
      accept: "application/json",
      "content-type": "application/json",
    });
  });
});

describe("gate time-out on create (docs/exchange-rules.md#contract: a create is never sent twice blindly)", () => {
  it("looks the order up by its text after a time-out and returns it; the exchange holds exactly one order", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("gate", { api: GATE_KEY, secret: GATE_SECRET }, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.id, clientOrderId: only!.text, status: "open" });
    const routes = mock.server.requests.map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(["POST /api/v4/spot/orders", `GET /api/v4/spot/orders/${only!.text}`]);
  });
});

describe("gate order fields read with Gate's defaults (issue 25)", () => {
  const bare = { id: "1", currency_pair: "BTC_USDT", side: "buy", amount: "1", price: "2" };
  it("reads a missing text, type and time as empty, limit and 0; filled_amount before left", () => {
    expect(parseGateOrder({ ...bare, status: "open" })).toMatchObject({
      clientOrderId: "",
      type: "limit",
      timestamp: 0,
      filled: "0",
      status: "open",
    });
    expect("rawStatus" in parseGateOrder({ ...bare, status: "open" })).toBe(false);
    expect(parseGateOrder({ ...bare, filled_amount: "0.3", left: "0.9" }).filled).toBe("0.3");
    expect(parseGateOrder({ ...bare, left: "0.25" }).filled).toBe("0.75");
  });
  it("counts only a closed order by its finish_as, and keeps a closed order without one closed", () => {
    expect(parseGateOrder({ ...bare, status: "open", finish_as: "ioc" }).status).toBe("open");
    expect(parseGateOrder({ ...bare, status: "closed" })).toMatchObject({ status: "closed" });
    expect(parseGateOrder({ ...bare, status: "closed", finish_as: "open" }).status).toBe("closed");
  });
});

describe("gate status and timestamp rules (docs/exchange-rules.md#entities, #states) with the documented order shape", () => {
  const documented = {
    id: "1852454420",
    text: "t-abc123",
    amend_text: "-",
    create_time: "1710488334",
    update_time: "1710488334",
    create_time_ms: 1710488334073,
    update_time_ms: 1710488334074,
    status: "closed",
    currency_pair: "BTC_USDT",
    type: "limit",
    account: "unified",
    side: "buy",
    amount: "0.001",
    price: "65000",
    time_in_force: "gtc",
    iceberg: "0",
    left: "0",
    filled_amount: "0.001",
    fill_price: "63.4693",
    filled_total: "63.4693",
    avg_deal_price: "63469.3",
    fee: "0.00000022",
    fee_currency: "BTC",
    finish_as: "filled",
  };

  it("maps closed (finish_as filled) to closed, with create_time_ms as the timestamp", () => {
    expect(parseGateOrder(documented)).toMatchObject({
      status: "closed",
      timestamp: 1710488334073,
      filled: "0.001",
      pair: "BTC/USDT",
      clientOrderId: "t-abc123",
    });
  });

  it("maps open to open and cancelled to canceled (docs/exchange-rules.md#states)", () => {
    expect(
      parseGateOrder({ ...documented, status: "open", finish_as: "open", left: "0.001", filled_amount: "0" }).status,
    ).toBe("open");
    expect(parseGateOrder({ ...documented, status: "cancelled", finish_as: "cancelled" }).status).toBe("canceled");
  });

  it("counts a closed order that finished as ioc or stp as canceled, keeping Gate's own words in rawStatus", () => {
    const order = parseGateOrder({ ...documented, status: "closed", finish_as: "ioc" });
    expect(order.status).toBe("canceled");
    expect(order.rawStatus).toBe("closed/ioc");
  });

  it("yields undefined for an unknown status (docs/exchange-rules.md#states)", () => {
    expect(parseGateOrder({ ...documented, status: "weird", finish_as: undefined }).status).toBeUndefined();
  });

  it("multiplies create_time seconds by 1000 when create_time_ms is absent (docs/exchange-rules.md#entities)", () => {
    const { create_time_ms: _ms, ...withoutMs } = documented;
    expect(parseGateOrder(withoutMs).timestamp).toBe(1710488334000);
  });

  it("gives the average fill price and the fee with its currency (docs/tui.md 'Fills')", () => {
    expect(parseGateOrder(documented)).toMatchObject({
      average: "63469.3",
      fee: { amount: "0.00000022", currency: "BTC" },
    });
    const open = parseGateOrder({ ...documented, status: "open", filled_amount: "0", avg_deal_price: "0" });
    expect(open.average).toBeUndefined();
  });

  it("derives filled from amount − left when filled_amount is absent", () => {
    const { filled_amount: _f, ...old } = documented;
    expect(parseGateOrder({ ...old, amount: "0.3", left: "0.1" }).filled).toBe("0.2");
  });

  it("keeps balances longer than 15 characters exact", () => {
    expect(
      parseGateBalances([{ currency: "shib", available: "123456789012.123456789", locked: "0.000000000000000001" }]),
    ).toEqual({
      SHIB: { f: "123456789012.123456789", l: "0.000000000000000001" },
    });
  });
});

describe("gate through the built CLI (issue 3 checks)", () => {
  const env = () => ({ SPOTDESK_API_KEY: GATE_KEY, SPOTDESK_API_SECRET: GATE_SECRET });

  it("buy, order, orders, cancel, batch, cancel-batch, cancel-all and balances end to end", async () => {
    await runCliScenario({
      id: "gate",
      mock,
      env: env(),
      status: (o) => o.status,
      open: "open",
      canceled: "cancelled",
      balances: "USDT",
    });
  });

  it("exits with the auth exit code and no secret on stderr for a wrong secret", async () => {
    const result = await runCli(["--exchange", "gate", "--base-url", mock.url, "--json", "balances"], {
      SPOTDESK_API_KEY: GATE_KEY,
      SPOTDESK_API_SECRET: "wrong-secret-value",
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("ExchangeId: gate");
    expect(result.stderr).not.toContain("wrong-secret-value");
  });
});

describe("gate pair list (docs/exchange-rules.md#pairs)", () => {
  it("lists the tradable pairs, sorted, with tick and lot from the precisions, without a key", async () => {
    const keyless = new GateAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const expected = [
      { pair: "BTC/USDT", tick: "0.1", lot: "0.000001", minAmount: "0.00001", minNotional: "3" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0001", minAmount: "0.001", minNotional: "3" },
      { pair: "PEPE/USDT", tick: "0.0000000001", lot: "1", minNotional: "1" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path, sent.query]).toEqual(["GET", "/api/v4/spot/currency_pairs", ""]);
    expect(sent.headers.key).toBeUndefined();
    expect(sent.headers.sign).toBeUndefined();
    expect(await listExchangePairs("gate", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("an answer in another shape is gate's unexpected answer, a refusal its error", async () => {
    const keyless = new GateAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const row = { id: "BTC_USDT", base: "BTC", quote: "USDT", amount_precision: 6, trade_status: "tradable" };
    mock.server.intercept(() => ({ body: [{ ...row, precision: "two" }] }));
    await expect(keyless.fetchPairs()).rejects.toThrow("Unexpected answer from gate: pairs[0].precision");
    mock.server.intercept(() => ({ body: { id: "BTC_USDT" } }));
    await expect(keyless.fetchPairs()).rejects.toThrow(
      "Unexpected answer from gate: pairs expected array, got an object",
    );
    mock.server.intercept(() => ({
      status: 429,
      body: { label: "TOO_MANY_REQUESTS", message: "Request Rate limit Exceeded" },
    }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
