import {
  type FakeExchange,
  type FakeParams,
  FakeRefusal,
  raw,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import { type MockReply, type MockServer, parseQuery, type ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A BIT.TEAM (ccxt section) mock on 127.0.0.1. Every private request must carry
 * `Authorization: Basic base64(key:secret)` of the mock's key pair (docs/exchange-rules.md#calls), else 401
 * {ok: false, code: 401000, message: "Missing authentication"}. POST bodies must be JSON objects
 * whose keys the endpoint knows: like the real API's validator, an unknown key is refused with
 * `"<key>" is not allowed`, and a numeric pairId with `"pairId" must be a string`. Answers are
 * {ok: true, result} with the documented order, pairs and balance shapes; created orders are kept
 * so fetch and cancel find them. It runs on the fake exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the parameters BIT.TEAM documents as required (pairId, type, side, amount and
 * price on ordercreate; id on cancelorder; pairId on cancel-all-order), answered in its validator's
 * shape (`"amount" is required`, type any.required). ordersOfUser pages by `limit` (default 10) and
 * `offset` with the `count` of all matches.
 */
export interface BitteamMockOrder {
  id: number;
  orderId: string | null;
  userId: number;
  pair: string;
  pairId: number;
  quantity: string;
  price: string;
  executedPrice: string;
  fee: null;
  orderCid: string | null;
  executed: string;
  expires: null;
  baseDecimals: number;
  quoteDecimals: number;
  timestamp: number;
  status: string;
  side: string;
  type: string;
  createdAt: string;
  updatedAt: string;
}

export interface BitteamMock {
  server: MockServer;
  url: string;
  orders: Map<string, BitteamMockOrder>;
  /** answer the next create only after `ms` (the order is stored at once) */
  delayNextCreate(ms: number): void;
  /** like delayNextCreate, but the exchange never stores the order */
  loseNextCreate(ms: number): void;
  /** the next ordersOfUser answers this failure */
  failNextOrdersOfUser(status: number, body: unknown): void;
  rateLimitNext(): void;
  failNext(code: number, message: string, status?: number): void;
  /** stores an order as if placed `ageMs` ago */
  seedOrder(fields: {
    pair?: string;
    side: "buy" | "sell";
    quantity: string;
    price: string;
    status?: string;
    ageMs?: number;
  }): BitteamMockOrder;
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

export const BITTEAM_KEY = "bt-api-key-6f1d2c0a9e";
export const BITTEAM_SECRET = "bt-secret-3c5e7a9b1d2f4a6c8e0b";
export const BITTEAM_USER_ID = 21639;

/** The documented pairs (ids as BIT.TEAM numbers them). */
export const BITTEAM_PAIRS = [
  { id: 22, name: "btc_usdt", baseStep: 8, quoteStep: 6 },
  { id: 2, name: "eth_usdt", baseStep: 8, quoteStep: 6 },
];

/**
 * Pairs the list also answers that no order of the mock trades: one inactive (delisted), one
 * with a 10-digit price and whole-unit amounts, and one whose name is no base_quote.
 */
export const BITTEAM_MORE_PAIRS = [
  { id: 40, name: "shib_usdt", baseStep: 0, quoteStep: 10, active: true, status: 1 },
  { id: 31, name: "old_usdt", baseStep: 2, quoteStep: 4, active: false, status: 0 },
  { id: 45, name: "usdt_trc20_usdt", baseStep: 2, quoteStep: 4, active: true, status: 1 },
];

/** A refusal in the shape of BIT.TEAM's request validator (no ok/code envelope). */
const invalidInput = (message: string, key: string, type: string) =>
  new FakeRefusal({ code: 400, msg: message, status: 400, extra: { validator: { path: [key], type } } });

/** The keys each JSON endpoint knows: like the real API's validator, any other key is refused. */
const BODY_KEYS: Record<string, readonly string[]> = {
  "/trade/api/ccxt/ordercreate": ["pairId", "type", "side", "amount", "price"],
  "/trade/api/ccxt/cancelorder": ["id"],
  "/trade/api/ccxt/cancel-all-order": ["pairId"],
};

export async function startBitteamMock(options: { now?: () => number } = {}): Promise<BitteamMock> {
  const now = options.now ?? Date.now;
  const orders = new Map<string, BitteamMockOrder>();
  let seq = 106733308;
  let lose: number | undefined;
  let ordersFailure: { status: number; body: unknown } | undefined;
  const expected = `Basic ${Buffer.from(`${BITTEAM_KEY}:${BITTEAM_SECRET}`).toString("base64")}`;

  const fail = (status: number, code: number, message: string): MockReply => ({
    status,
    body: { ok: false, code, data: {}, message },
  });
  const isOpen = (o: BitteamMockOrder) => o.status === "created" || o.status === "accepted" || o.status === "executing";

  function newOrder(
    pair: (typeof BITTEAM_PAIRS)[number],
    side: string,
    quantity: string,
    price: string,
    at: number,
    status = "accepted",
  ): BitteamMockOrder {
    const iso = new Date(at).toISOString();
    const order: BitteamMockOrder = {
      id: seq++,
      orderId: null,
      userId: BITTEAM_USER_ID,
      pair: pair.name,
      pairId: pair.id,
      quantity,
      price,
      executedPrice: "0",
      fee: null,
      orderCid: null,
      executed: "0",
      expires: null,
      baseDecimals: pair.baseStep,
      quoteDecimals: pair.quoteStep,
      timestamp: Math.floor(at / 1000),
      status,
      side,
      type: "limit",
      createdAt: iso,
      updatedAt: iso,
    };
    orders.set(String(order.id), order);
    return order;
  }

  /** A GET's query, or a POST's JSON object body checked against the endpoint's known keys. */
  function params(req: ReceivedRequest): FakeParams {
    if (req.method === "GET") return parseQuery(req.query);
    const keys = BODY_KEYS[req.path] ?? [];
    const invalid = new FakeRefusal({ code: 400000, msg: "Invalid request params input", status: 400 });
    if (!String(req.headers["content-type"] ?? "").startsWith("application/json")) throw invalid;
    let body: unknown;
    try {
      body = JSON.parse(req.body || "{}");
    } catch {
      throw invalid;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid;
    for (const key of Object.keys(body)) {
      if (!keys.includes(key)) throw invalidInput(`"${key}" is not allowed`, key, "object.unknown");
    }
    return body as FakeParams;
  }
  const pairIdOf = (body: FakeParams) => {
    if (typeof body.pairId !== "string") throw invalidInput('"pairId" must be a string', "pairId", "string.base");
    return body.pairId;
  };

  const fake = await startFakeExchange({
    name: "bitteam",
    isPublic: (req) => req.method === "GET" && req.path === "/trade/api/ccxt/pairs",
    verify: (req) => (req.headers.authorization === expected ? undefined : fail(401, 401000, "Missing authentication")),
    params,
    envelope: {
      ok: (result) => ({ body: { ok: true, result } }),
      error: (e) => {
        const validator = e.extra?.validator as { path: string[]; type: string } | undefined;
        return validator
          ? { status: 400, body: { message: e.msg, ...validator } }
          : fail(e.status ?? 400, Number(e.code), e.msg);
      },
    },
    rateLimited: () => ({ status: 429, headers: { "retry-after": "3" }, body: { message: "Too Many Requests" } }),
    missing: (name) => ({
      code: 400,
      msg: `"${name}" is required`,
      status: 400,
      extra: { validator: { path: [name], type: "any.required" } },
    }),
    routes: {
      "GET /trade/api/ccxt/pairs": {
        handle: () => ({
          count: BITTEAM_PAIRS.length + BITTEAM_MORE_PAIRS.length,
          pairs: [...BITTEAM_PAIRS.map((p) => ({ ...p, active: true, status: 1 })), ...BITTEAM_MORE_PAIRS].map((p) => ({
            ...p,
            fullName: p.name.replace("_", " ").toUpperCase(),
          })),
        }),
      },
      "GET /trade/api/ccxt/order/:id": {
        handle: ({ path }) => {
          const order = orders.get(path.id!);
          if (!order) throw refuse(404300, "Order not found", 404);
          return { ...order, stopPrice: null, slippage: null };
        },
      },
      "POST /trade/api/ccxt/ordercreate": {
        required: ["pairId", "type", "side", "amount", "price"],
        create: true,
        handle: ({ params: body }) => {
          const pairId = pairIdOf(body);
          const pair = BITTEAM_PAIRS.find((p) => String(p.id) === pairId);
          if (!pair) throw refuse(404200, "Pair was not found", 404);
          const decimal = /^\d+(\.\d+)?$/;
          if (
            body.type !== "limit" ||
            (body.side !== "buy" && body.side !== "sell") ||
            !decimal.test(String(body.amount)) ||
            !decimal.test(String(body.price))
          ) {
            throw refuse(400000, "Invalid request params input", 400);
          }
          if (lose !== undefined) {
            const ms = lose;
            lose = undefined;
            return raw({ status: 504, body: { message: "Gateway Timeout" }, delayMs: ms });
          }
          const order = newOrder(pair, body.side, String(body.amount), String(body.price), now());
          const { id, userId, quantity, side, price, executed, executedPrice, baseDecimals, quoteDecimals, type } =
            order;
          return {
            id,
            userId,
            quantity,
            pair: pair.name,
            side,
            price,
            executed,
            executedPrice,
            status: "created",
            baseDecimals,
            quoteDecimals,
            pairId: order.pairId,
            type,
            stopPrice: null,
            slippage: null,
            timestamp: String(order.timestamp),
          };
        },
      },
      "GET /trade/api/ccxt/ordersOfUser": {
        handle: ({ params: q }) => {
          if (ordersFailure) {
            const f = ordersFailure;
            ordersFailure = undefined;
            return raw({ status: f.status, body: f.body });
          }
          const type = q.type ?? "all";
          const matches = [...orders.values()].filter(
            (o) =>
              (!q.pair || o.pair === q.pair) &&
              (type === "all" ||
                (type === "active" && isOpen(o)) ||
                (type === "closed" && o.status === "executed") ||
                (type === "cancelled" && o.status === "cancelled")),
          );
          const offset = Number(q.offset ?? 0);
          const limit = Number(q.limit ?? 10);
          return { count: matches.length, orders: matches.slice(offset, offset + limit) };
        },
      },
      "POST /trade/api/ccxt/cancelorder": {
        required: ["id"],
        handle: ({ params: body }) => {
          const order = orders.get(String(body.id));
          if (!order) throw refuse(404300, "Order not found", 404);
          if (!isOpen(order)) throw refuse(403002, "Order cannot be deleted, status does not match", 400);
          order.status = "cancelled";
          order.updatedAt = new Date(now()).toISOString();
          return { message: "The request to cancel your order was received" };
        },
      },
      "POST /trade/api/ccxt/cancel-all-order": {
        required: ["pairId"],
        handle: ({ params: body }) => {
          const pairId = pairIdOf(body);
          for (const o of orders.values()) {
            if (isOpen(o) && (pairId === "0" || String(o.pairId) === pairId)) o.status = "cancelled";
          }
          return { message: "The request to cancel all your orders was received" };
        },
      },
      // A raw body: the DEL balance is a JSON number literal longer than 15 characters (docs/exchange-rules.md#limits);
      // usdt is lower-case and XRP is all zero.
      "GET /trade/api/ccxt/balance": {
        handle: () =>
          raw({
            body:
              '{"ok":true,"result":{"free":{"USDT":"1500.5","BTC":"0.25","XRP":"0"},"used":{"USDT":"300","BTC":"0","XRP":"0"},"total":{"USDT":"1800.5","BTC":"0.25","XRP":"0"},' +
              '"usdt":{"free":"1500.5","used":"300","total":"1800.5"},"BTC":{"free":"0.25","used":"0","total":"0.25"},' +
              '"DEL":{"free":1234567.890123456789,"used":"0.5","total":"1234568.390123456789"},"XRP":{"free":"0","used":"0","total":"0"}}}',
          }),
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    orders,
    fake,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    loseNextCreate(ms) {
      lose = ms;
    },
    failNextOrdersOfUser(status, body) {
      ordersFailure = { status, body };
    },
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(code, message, status = 400) {
      fake.failNext({ code, msg: message, status });
    },
    seedOrder(fields) {
      const pair = BITTEAM_PAIRS.find((p) => p.name === (fields.pair ?? "btc_usdt"))!;
      return newOrder(
        pair,
        fields.side,
        fields.quantity,
        fields.price,
        now() - (fields.ageMs ?? 0),
        fields.status ?? "accepted",
      );
    },
    close: () => fake.close(),
  };
}
