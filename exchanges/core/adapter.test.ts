/**
 * The RestAdapter base (exchanges/core/adapter.ts) under a minimal adapter on a real loopback server:
 * validation before any request (docs/exchange-rules.md#validation), the time-out rule of
 * docs/exchange-rules.md#contract, error kinds (docs/exchange-rules.md#errors), exact long numbers
 * and balances (docs/exchange-rules.md#limits, #entities).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ExchangeError } from "../../lib/errors.js";
import type { Logger } from "../../lib/log.js";
import type { Balances, Credentials, Order, RealExchangeId } from "../../lib/types.js";
import { rejection as failure } from "../../test/rejection.js";
import type { PairSpec } from "../types.js";
import {
  collectBalances,
  exchangeError,
  type JsonResponse,
  kindForCode,
  type OrderToPlace,
  parseJsonExact,
  positiveDecimal,
  RestAdapter,
  toMillis,
} from "./adapter.js";
import { id } from "./answer.js";
import { DryRun } from "./rest.js";
import { type MockServer, startMockServer } from "./testing/http-mock.js";
import { tunnellingProxy } from "./testing/proxy.js";

/** An adapter whose hooks record what reached them and send one request each through the base. */
class Probe extends RestAdapter {
  readonly hooks: string[] = [];
  creates: (() => Promise<Order>)[] = [];
  lookup: () => Promise<Order | undefined> = async () => undefined;
  constructor(
    id: RealExchangeId,
    baseUrl: string,
    options: { timeoutMs?: number; dryRun?: boolean; logger?: Logger; now?: () => number; proxy?: string } = {},
  ) {
    const { proxy, ...rest } = options;
    super(
      id,
      { api: "k", secret: "s", ...(proxy ? { httpAgent: proxy } : {}) } as Credentials,
      { baseUrl, ...rest },
      { baseUrl: "http://default.invalid" },
    );
  }
  get client() {
    return this.rest;
  }
  protected unwrap(response: JsonResponse): unknown {
    const body = response.json as { code?: number; msg?: string; data?: unknown } | undefined;
    if (body?.code !== 0) throw this.fail(body?.code, body?.msg ?? "no envelope", response.status, response.headers);
    return body.data;
  }
  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    this.hooks.push(`submitOrder ${order.pair} ${order.side} ${order.amount}@${order.price} ${order.clientOrderId}`);
    const next = this.creates.shift();
    if (next) return next();
    const data = this.unwrap(await this.send("POST", "/order", JSON.stringify(order))) as {
      id: string;
      time?: unknown;
    };
    return this.placed(order, data.id, data.time);
  }
  protected findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    this.hooks.push(`find ${pair} ${clientOrderId}`);
    return this.lookup();
  }
  protected async submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    this.hooks.push(
      `submitBatch ${pair} ${orders.map((o) => `${o.side}:${o.amount}@${o.price}:${o.clientOrderId.length}`).join(",")}`,
    );
    return orders.map((o, i) => this.placed(o, String(i)));
  }
  protected async submitCancel(pair: string, id: string): Promise<string> {
    this.hooks.push(`submitCancel ${pair} ${id}`);
    return id;
  }
  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    this.hooks.push(`submitCancelBatch ${pair} ${ids.join(",")}`);
    return ids;
  }
  protected async submitCancelAll(pair: string): Promise<string[]> {
    this.hooks.push(`submitCancelAll ${pair}`);
    return [];
  }
  /** a careless read: a bare zod parse, which the base still reports as the exchange's unexpected answer */
  async fetchOrder(_pair: string, orderId: string): Promise<Order> {
    const data = this.unwrap(await this.send("GET", "/order", "", `id=${orderId}`));
    return z.object({ id: z.string() }).parse(data) as unknown as Order;
  }
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    return this.parse(
      z.array(z.object({ id })),
      this.unwrap(await this.send("GET", "/open", "", `symbol=${this.pairOf(pair)}`)),
      "orders",
    ) as unknown as Order[];
  }
  async fetchBalances(): Promise<Balances> {
    return this.unwrap(await this.send("GET", "/balances", "")) as Balances;
  }
  async fetchPairs(): Promise<PairSpec[]> {
    return (await this.publicGet("/pairs", { quote: "USDT", skip: undefined, name: "a b" })).json as PairSpec[];
  }
  ids(answer: unknown): unknown {
    return this.parse(z.array(z.string()), answer);
  }
  async pairsEncoded(): Promise<unknown> {
    return (await this.publicGet("/pairs", { name: "a b" }, (v) => v.replace(" ", "+"))).json;
  }
  async lookUpAbsent(error: ExchangeError, narrow?: (e: ExchangeError) => boolean): Promise<unknown> {
    return this.unlessNotFound(() => Promise.reject(error), narrow);
  }
  json(request: Parameters<RestAdapter["sendJson"]>[0]): Promise<JsonResponse> {
    return this.sendJson(request);
  }
  private send(method: "GET" | "POST", path: string, body: string, query = ""): Promise<JsonResponse> {
    return this.sendJson({ method, path, query, body, headers: {} });
  }
}

const ORDER = { pair: "btc/usdt", side: "Buy" as const, amount: "0.5", price: "100" };

describe("RestAdapter on a loopback server", () => {
  let server: MockServer;
  let probe: Probe;
  beforeEach(async () => {
    server = await startMockServer();
    probe = new Probe("bybit", server.url, { now: () => 1_700_000_000_000 });
  });
  afterEach(async () => {
    await server.close();
  });

  it("creates an order written BTC/USDT with plain decimals and a generated 32-character hex id", async () => {
    server.on("POST /order", () => ({ body: { code: 0, data: { id: "9" } } }));
    const order = await probe.createOrder({ ...ORDER, amount: "0.50", price: "100.0" });
    expect(order).toEqual({
      pair: "BTC/USDT",
      id: "9",
      clientOrderId: order.clientOrderId,
      price: "100",
      amount: "0.5",
      filled: "0",
      type: "limit",
      side: "Buy",
      status: "open",
      timestamp: 1_700_000_000_000,
    });
    expect(order.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(probe.hooks).toEqual([`submitOrder BTC/USDT Buy 0.5@100 ${order.clientOrderId}`]);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ pair: "BTC/USDT", amount: "0.5", price: "100" });
  });

  it("stamps a create with the exchange's time when it gives one, in milliseconds", async () => {
    server.on("POST /order", () => ({ body: { code: 0, data: { id: "9", time: 1_600_000_000 } } }));
    expect((await probe.createOrder({ ...ORDER, side: "Sell", clientOrderId: "mine-1" })).timestamp).toBe(
      1_600_000_000_000,
    );
    expect(probe.hooks).toEqual(["submitOrder BTC/USDT Sell 0.5@100 mine-1"]);
  });

  it("refuses a bad side, amount, price, pair or client order id before any request", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ side: "Hold" }, "Invalid side 'Hold': expected Buy or Sell"],
      [{ amount: "0" }, "Invalid amount '0': it must be above zero"],
      [{ amount: "-1" }, "Invalid amount '-1': expected a positive decimal number"],
      [{ price: "1e3" }, "Invalid price '1e3': expected a positive decimal number"],
      [{ price: "abc" }, "Invalid price 'abc': expected a positive decimal number"],
      [
        { clientOrderId: "has space" },
        "Invalid client order id 'has space': bybit takes 1 to 32 characters, using A-Za-z0-9_-",
      ],
    ];
    for (const [change, detail] of bad) {
      const error = await failure(probe.createOrder({ ...ORDER, ...change } as typeof ORDER));
      expect([error.exchange, error.kind, error.detail]).toEqual(["bybit", "bad-input", detail]);
    }
    expect((await failure(probe.createOrder({ ...ORDER, pair: "BTCUSDT" }))).kind).toBe("bad-input");
    expect(probe.hooks).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it("after a time-out looks the order up by its client order id and returns it, without a second create", async () => {
    const found = { id: "77" } as Order;
    probe.creates = [
      () => Promise.reject(new ExchangeError("bybit", "timed out", { kind: "network", code: "ETIMEDOUT" })),
    ];
    probe.lookup = async () => found;
    expect(await probe.createOrder({ ...ORDER, clientOrderId: "retry-7" })).toBe(found);
    expect(probe.hooks).toEqual(["submitOrder BTC/USDT Buy 0.5@100 retry-7", "find BTC/USDT retry-7"]);
  });

  it("a base URL that is no URL fails the create as sent nowhere: no look-up, no second create", async () => {
    const nowhere = new Probe("bybit", "not a url");
    const error = await failure(nowhere.createOrder({ ...ORDER, clientOrderId: "c1" }));
    expect([error.kind, error.code, error.detail]).toEqual(["network", "ERR_INVALID_URL", "Invalid URL (POST /order)"]);
    expect(nowhere.hooks).toEqual(["submitOrder BTC/USDT Buy 0.5@100 c1"]);
  });

  it("the public look-up normalizes the pair and checks the client order id first", async () => {
    expect(await probe.findOrderByClientOrderId("eth/usdt", "abc")).toBeUndefined();
    expect((await failure(probe.findOrderByClientOrderId("ETH/USDT", "a b"))).kind).toBe("bad-input");
    expect(probe.hooks).toEqual(["find ETH/USDT abc"]);
    expect(probe.checkClientOrderId("ok_1")).toBe("ok_1");
    expect(probe.newClientOrderId()).toMatch(/^[0-9a-f]{32}$/);
  });

  it("batches: the size and every item checked first, each item its own id", async () => {
    const items = [ORDER, { ...ORDER, side: "Sell" as const, amount: "2", clientOrderId: "own" }];
    const placed = await probe.createBatch("btc/usdt", items);
    expect(placed.map((o) => [o.id, o.pair, o.side])).toEqual([
      ["0", "BTC/USDT", "Buy"],
      ["1", "BTC/USDT", "Sell"],
    ]);
    expect(probe.hooks).toEqual(["submitBatch BTC/USDT Buy:0.5@100:32,Sell:2@100:3"]);
    expect((await failure(probe.createBatch("BTC/USDT", Array(11).fill(ORDER)))).detail).toBe(
      "Maximum for 'createBatch' is: 10",
    );
    expect((await failure(probe.createBatch("BTC/USDT", []))).kind).toBe("bad-input");
    expect((await failure(probe.createBatch("BTC/USDT", [ORDER, { ...ORDER, price: "0" }]))).detail).toBe(
      "Invalid price '0': it must be above zero",
    );
    expect(probe.hooks).toHaveLength(1);
  });

  it("cancels: ids trimmed and required, the pair normalized, cancel-all only where supported", async () => {
    expect(await probe.cancelOrder("btc/usdt", " 12 ")).toBe("12");
    expect(await probe.cancelBatch("btc/usdt", ["1", " 2"])).toEqual(["1", "2"]);
    expect(await probe.cancelAll("btc/usdt")).toEqual([]);
    expect(probe.hooks).toEqual([
      "submitCancel BTC/USDT 12",
      "submitCancelBatch BTC/USDT 1,2",
      "submitCancelAll BTC/USDT",
    ]);
    const empty = await failure(probe.cancelOrder("BTC/USDT", "  "));
    expect([empty.kind, empty.detail]).toEqual(["bad-input", "An order id is required"]);
    expect((await failure(probe.cancelBatch("BTC/USDT", ["1", ""]))).detail).toBe("An order id is required");
    expect((await failure(probe.cancelOrder("BTC/USDT", undefined as unknown as string))).detail).toBe(
      "An order id is required",
    );
    expect((await failure(probe.cancelBatch("BTC/USDT", Array(11).fill("1")))).detail).toBe(
      "Maximum for 'cancelBatch' is: 10",
    );
    const coinstore = new Probe("coinstore", server.url);
    const unsupported = await failure(coinstore.cancelAll("BTC/USDT"));
    expect([unsupported.kind, unsupported.detail]).toEqual(["unsupported", "Not supported for coinstore"]);
    expect(coinstore.hooks).toEqual([]);
    expect(probe.hooks).toHaveLength(3);
    await expect(probe.close()).resolves.toBeUndefined();
  });

  it("reads a schema refusal as the exchange's unexpected answer, and the exchange's code by its table", async () => {
    server.on("GET /open", () => ({ body: { code: 0, data: [{ id: null }] } }));
    const error = await failure(probe.fetchOpenOrders("BTC/USDT"));
    expect(error.detail).toBe("Unexpected answer from bybit: orders[0].id expected text or a number, got null");
    expect(server.requests[0]?.query).toBe("symbol=BTC/USDT");
    server.on("GET /balances", () => ({ body: { code: 10003, msg: "API key is invalid." } }));
    const auth = await failure(probe.fetchBalances());
    expect([auth.kind, auth.code, auth.detail]).toEqual(["auth", 10003, "API key is invalid. (code 10003)"]);
  });

  it("turns a bare schema refusal inside an operation into the exchange's unexpected answer; other failures pass as they are", async () => {
    server.on("GET /order", (r) => ({ body: { code: 0, data: r.query === "id=1" ? { id: 1 } : { id: "2" } } }));
    const error = await failure(probe.fetchOrder("BTC/USDT", "1"));
    expect([error.exchange, error.kind, error.detail]).toEqual([
      "bybit",
      "invalid-order",
      "Unexpected answer from bybit: id expected string",
    ]);
    expect(await probe.fetchOrder("BTC/USDT", "2")).toEqual({ id: "2" });
    server.on("GET /balances", () => ({ body: { code: 170131, msg: "Insufficient balance" } }));
    expect((await failure(probe.fetchBalances())).kind).toBe("insufficient-funds");
  });

  it("reads the venue's message rules beside its codes (bybit's IP limit under HTTP 403), and names no root it was not given", async () => {
    server.on("GET /balances", () => ({ status: 403, body: "access too frequent" }));
    const limited = await failure(probe.fetchBalances());
    expect([limited.kind, limited.retryAfterMs, limited.detail]).toEqual([
      "rate-limit",
      600_000,
      "access too frequent",
    ]);
    expect(() => probe.ids(["1", 2])).toThrow(
      "ExchangeId: bybit, msg: Unexpected answer from bybit: [1] expected string, got 2",
    );
  });

  it("keeps long numbers exact, reads an empty body as nothing, and a non-JSON HTTP error by its status", async () => {
    server.on("GET /big", () => ({ body: '{"id":12345678901234567890,"n":5}' }));
    expect((await probe.json({ method: "GET", path: "/big", query: "", body: "", headers: {} })).json).toEqual({
      id: "12345678901234567890",
      n: 5,
    });
    server.on("GET /empty", () => ({ body: "" }));
    const empty = await probe.json({ method: "GET", path: "/empty", query: "", body: "", headers: {} });
    expect([empty.status, empty.json, empty.text]).toEqual([200, undefined, ""]);
    server.on("GET /html", () => ({ status: 200, body: "<html>ok</html>" }));
    expect((await probe.json({ method: "GET", path: "/html", query: "", body: "", headers: {} })).json).toBeUndefined();
    server.on("GET /down", () => ({ status: 502, body: `<html>${"x".repeat(300)}</html>` }));
    const down = await failure(probe.json({ method: "GET", path: "/down", query: "", body: "", headers: {} }));
    expect([down.kind, down.detail]).toEqual(["invalid-order", `<html>${"x".repeat(194)}`]);
    server.on("GET /limited", () => ({ status: 429, headers: { "retry-after": "3" }, body: "" }));
    const limited = await failure(probe.json({ method: "GET", path: "/limited", query: "", body: "", headers: {} }));
    expect([limited.kind, limited.detail, limited.retryAfterMs]).toEqual(["rate-limit", "HTTP 429", 3000]);
    server.on("GET /bad", () => ({ status: 400, body: "Bad Request" }));
    const bad = await failure(probe.json({ method: "GET", path: "/bad", query: "", body: "", headers: {} }));
    expect([bad.kind, bad.detail]).toEqual(["invalid-order", "Bad Request"]);
    server.on("GET /json-error", () => ({ status: 400, body: '{"code":1}' }));
    const jsonError = await probe.json({ method: "GET", path: "/json-error", query: "", body: "", headers: {} });
    expect([jsonError.status, jsonError.json]).toEqual([400, { code: 1 }]);
  });

  it("lists pairs with a public GET: no key, undefined parameters skipped, the adapter's encoder when given", async () => {
    server.on("GET /pairs", () => ({ body: [] }));
    await probe.fetchPairs();
    await probe.pairsEncoded();
    expect(server.requests.map((r) => [r.method, r.query, r.body, r.headers["x-bapi-api-key"]])).toEqual([
      ["GET", "quote=USDT&name=a%20b", "", undefined],
      ["GET", "name=a+b", "", undefined],
    ]);
  });

  it("passes the time-out, dry run and logger to its client, and uses the default host without a base URL", async () => {
    server.on("GET /balances", () => ({ body: { code: 0, data: {} }, delayMs: 3000 }));
    const slow = new Probe("bybit", server.url, { timeoutMs: 200 });
    expect((await failure(slow.fetchBalances())).detail).toBe("Request timed out after 200 ms (GET /balances)");
    const dry = new Probe("bybit", server.url, { dryRun: true });
    await expect(dry.fetchBalances()).rejects.toBeInstanceOf(DryRun);
    const logged: string[] = [];
    const logger: Logger = { debug: (m) => logged.push(m), info() {}, warn() {}, error() {} };
    server.on("GET /pairs", () => ({ body: [] }));
    await new Probe("bybit", server.url, { logger }).fetchPairs();
    expect(logged).toEqual(["http"]);
    const defaulted = new Probe("bybit", undefined as unknown as string);
    expect(defaulted.client.baseUrl).toBe("http://default.invalid");
  });

  it("goes through the proxy of the credentials (docs/decisions.md#d12)", async () => {
    const proxy = await tunnellingProxy(() => server.url);
    try {
      server.on("GET /pairs", () => ({ body: [] }));
      await new Probe("bybit", "http://api.bybit.invalid", { proxy: proxy.url }).fetchPairs();
      expect(proxy.seen).toEqual(["CONNECT api.bybit.invalid:80"]);
    } finally {
      await proxy.close();
    }
  });

  it("unlessNotFound: order-not-found is 'not there', any other failure is thrown; a narrower test decides when given", async () => {
    const notFound = new ExchangeError("bybit", "Order does not exist", { kind: "order-not-found" });
    const other = new ExchangeError("bybit", "down", { kind: "network" });
    expect(await probe.lookUpAbsent(notFound)).toBeUndefined();
    expect(await failure(probe.lookUpAbsent(other))).toBe(other);
    expect(await failure(probe.lookUpAbsent(notFound, (e) => e.code === 110001))).toBe(notFound);
    expect(await probe.lookUpAbsent(other, (e) => e.detail === "down")).toBeUndefined();
  });
});

describe("the base's pure rules", () => {
  it("positiveDecimal: plain decimals above zero, written plainly", () => {
    expect(positiveDecimal("okx", "amount", " 1.50 ")).toBe("1.5");
    expect(positiveDecimal("okx", "amount", ".5")).toBe("0.5");
    expect(positiveDecimal("okx", "amount", "5.")).toBe("5");
    expect(positiveDecimal("okx", "amount", "0.00000001")).toBe("0.00000001");
    for (const bad of ["", "1.2.3", "+1", "1e5", "0x10", " ", "1 2", "a1", "1a"]) {
      expect(() => positiveDecimal("okx", "amount", bad), bad).toThrow(/expected a positive decimal number/);
    }
    expect(() => positiveDecimal("okx", "price", "0.000")).toThrow("Invalid price '0.000': it must be above zero");
    expect(() => positiveDecimal("okx", "amount", undefined as unknown as string)).toThrow(
      "Invalid amount 'undefined'",
    );
  });

  it("parseJsonExact: long numbers as text outside strings, escapes inside strings respected", () => {
    expect(parseJsonExact('{"a":"x\\"12345678901234567","b":12345678901234567,"c":-1.2345678901234567e+5}')).toEqual({
      a: 'x"12345678901234567',
      b: "12345678901234567",
      c: "-1.2345678901234567e+5",
    });
    expect(parseJsonExact('[123456789012345,1234567890123456,"\\\\",9999999999999999]')).toEqual([
      123456789012345,
      "1234567890123456",
      "\\",
      "9999999999999999",
    ]);
    expect(parseJsonExact('{"t":"2024-01-01T00:00:00.000000Z","n":1}')).toEqual({
      t: "2024-01-01T00:00:00.000000Z",
      n: 1,
    });
    expect(parseJsonExact('{"v":1E-100000000000000}')).toEqual({ v: "1E-100000000000000" });
    expect(() => parseJsonExact("{bad 12345678901234567}")).toThrow(SyntaxError);
  });

  it("collectBalances: zero rows dropped, codes upper-cased, repeats added", () => {
    expect(
      collectBalances([
        { currency: "btc", free: "1.5", locked: 0 },
        { currency: "usdt", free: "0", locked: "0.000" },
        { currency: "BTC", free: 0.25, locked: "2" },
        { currency: "eth", free: "0", locked: "3" },
      ]),
    ).toEqual({ BTC: { f: "1.75", l: "2" }, ETH: { f: "0", l: "3" } });
  });

  it("toMillis: seconds multiplied, milliseconds kept, dates read, nothing as 0", () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis("1700000000.5")).toBe(1_700_000_000_500);
    expect(toMillis(99_999_999_999)).toBe(99_999_999_999_000);
    expect(toMillis(100_000_000_000)).toBe(100_000_000_000);
    expect(toMillis("1700000000123")).toBe(1_700_000_000_123);
    expect(toMillis(1_700_000_000_123.9)).toBe(1_700_000_000_123);
    expect(toMillis(-1_700_000_000)).toBe(-1_700_000_000_000);
    expect(toMillis("2024-01-01T00:00:00Z")).toBe(1_704_067_200_000);
    for (const none of [null, undefined, "", "soon"]) expect(toMillis(none)).toBe(0);
  });

  it("kindForCode: a code by its text in the table, none for nothing", () => {
    const table = { auth: [10003, "40001"], "rate-limit": ["10006"] };
    expect(kindForCode(table, "10003")).toBe("auth");
    expect(kindForCode(table, 40001)).toBe("auth");
    expect(kindForCode(table, 10006)).toBe("rate-limit");
    expect(kindForCode(table, 1)).toBeUndefined();
    expect(kindForCode({ auth: [""] }, "")).toBeUndefined();
    expect(kindForCode({ auth: ["null"] }, null as unknown as undefined)).toBeUndefined();
    expect(kindForCode({ auth: ["undefined"] }, undefined)).toBeUndefined();
  });

  it("exchangeError: the table first, then 429/418 rate-limit and 401/403 auth, else invalid-order", () => {
    const table = { "insufficient-funds": [170131] };
    const read = (failure: Parameters<typeof exchangeError>[2]) => exchangeError("bybit", table, failure);
    const funds = read({ code: 170131, message: "Insufficient balance", status: 429 });
    expect([funds.kind, funds.code, funds.retryAfterMs, funds.detail]).toEqual([
      "insufficient-funds",
      170131,
      undefined,
      "Insufficient balance (code 170131)",
    ]);
    expect([read({ message: "slow", status: 429 }).kind, read({ message: "slow", status: 429 }).retryAfterMs]).toEqual([
      "rate-limit",
      1000,
    ]);
    expect(read({ message: "ban", status: 418, headers: { "retry-after": "60" } }).retryAfterMs).toBe(60_000);
    expect(read({ message: "ban", status: 418, headers: {}, retryAfterMs: 5 }).retryAfterMs).toBe(5);
    expect(read({ message: "no", status: 401 }).kind).toBe("auth");
    expect(read({ message: "no", status: 403 }).kind).toBe("auth");
    expect(read({ message: "no", status: 400 }).kind).toBe("invalid-order");
    expect(read({ message: "no", status: 500 }).kind).toBe("invalid-order");
    const blank = read({ code: "", message: "no code" });
    expect([blank.code, blank.detail]).toEqual([undefined, "no code"]);
    expect(read({ code: 0, message: "zero" }).detail).toBe("zero (code 0)");
    expect(read({ code: 1, message: "m", detail: "Transaction failed (1, m)" }).detail).toBe(
      "Transaction failed (1, m)",
    );
    expect(read({ message: "m", status: 429 }).exchange).toBe("bybit");
    const inCode = [{ text: ["balance insufficient"], inCode: true, kind: "insufficient-funds" as const }];
    expect(exchangeError("kucoin", {}, { code: "balance_insufficient", message: "failed" }, inCode).kind).toBe(
      "insufficient-funds",
    );
    expect(
      exchangeError("kucoin", {}, { code: "balance_insufficient", message: "failed" }, [
        { ...inCode[0]!, inCode: false },
      ]).kind,
    ).toBe("invalid-order");
    expect(exchangeError("kucoin", {}, { message: "Balance insufficient!" }, inCode).kind).toBe("insufficient-funds");
    // a failure without a code matches no rule by its code; spaces count as one, but they count
    const byCode = [{ text: ["undefined", "stryker"], inCode: true, kind: "insufficient-funds" as const }];
    expect(exchangeError("kucoin", {}, { message: "failed" }, byCode).kind).toBe("invalid-order");
    const words = [{ text: ["not exist"], kind: "order-not-found" as const }];
    expect(exchangeError("htx", {}, { message: "no texist" }, words).kind).toBe("invalid-order");
    expect(exchangeError("htx", {}, { message: "NOT__EXIST" }, words).kind).toBe("order-not-found");
  });
});
