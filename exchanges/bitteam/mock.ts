import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A BIT.TEAM (ccxt section) mock on 127.0.0.1. Every private request must carry
 * `Authorization: Basic base64(key:secret)` of the mock's key pair (seed 001 §7), else 401
 * {ok: false, code: 401000, message: "Missing authentication"}. POST bodies must be JSON objects
 * whose keys the endpoint knows: like the real API's validator, an unknown key is refused with
 * `"<key>" is not allowed`, and a numeric pairId with `"pairId" must be a string`. Answers are
 * {ok: true, result} with the documented order, pairs and balance shapes; created orders are kept
 * so fetch and cancel find them.
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

const ORDER_PREFIX = "/trade/api/ccxt/order/";

export async function startBitteamMock(options: { now?: () => number } = {}): Promise<BitteamMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, BitteamMockOrder>();
  let seq = 106733308;
  let createDelay: { ms: number; lose: boolean } | undefined;
  let ordersFailure: { status: number; body: unknown } | undefined;
  let rateLimit = false;
  let failure: { code: number; message: string; status: number } | undefined;
  const expected = `Basic ${Buffer.from(`${BITTEAM_KEY}:${BITTEAM_SECRET}`).toString("base64")}`;

  const fail = (status: number, code: number, message: string): MockReply => ({
    status,
    body: { ok: false, code, data: {}, message },
  });
  const ok = (result: unknown): MockReply => ({ body: { ok: true, result } });
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

  /** A JSON body checked against the endpoint's known keys, as BIT.TEAM's validator does. */
  function jsonBody(
    req: ReceivedRequest,
    keys: readonly string[],
  ): { body: Record<string, unknown> } | { refused: MockReply } {
    const invalid = { refused: fail(400, 400000, "Invalid request params input") };
    if (!String(req.headers["content-type"] ?? "").startsWith("application/json")) return invalid;
    let body: unknown;
    try {
      body = JSON.parse(req.body || "{}");
    } catch {
      return invalid;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return invalid;
    for (const key of Object.keys(body)) {
      if (!keys.includes(key))
        return {
          refused: { status: 400, body: { message: `"${key}" is not allowed`, path: [key], type: "object.unknown" } },
        };
    }
    return { body: body as Record<string, unknown> };
  }

  server.intercept((req) => {
    if (req.method === "GET" && req.path === "/trade/api/ccxt/pairs") {
      return ok({
        count: BITTEAM_PAIRS.length,
        pairs: BITTEAM_PAIRS.map((p) => ({
          ...p,
          fullName: p.name.replace("_", " ").toUpperCase(),
          active: true,
          status: 1,
        })),
      });
    }
    if (req.headers.authorization !== expected) return fail(401, 401000, "Missing authentication");
    if (rateLimit) {
      rateLimit = false;
      return { status: 429, headers: { "retry-after": "3" }, body: { message: "Too Many Requests" } };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return fail(f.status, f.code, f.message);
    }
    if (req.method === "GET" && req.path.startsWith(ORDER_PREFIX)) {
      const order = orders.get(decodeURIComponent(req.path.slice(ORDER_PREFIX.length)));
      return order ? ok({ ...order, stopPrice: null, slippage: null }) : fail(404, 404300, "Order not found");
    }
    return undefined;
  });

  server.on("POST /trade/api/ccxt/ordercreate", (req) => {
    const parsed = jsonBody(req, ["pairId", "type", "side", "amount", "price"]);
    if ("refused" in parsed) return parsed.refused;
    const body = parsed.body;
    if (typeof body.pairId !== "string")
      return { status: 400, body: { message: '"pairId" must be a string', path: ["pairId"], type: "string.base" } };
    const pair = BITTEAM_PAIRS.find((p) => String(p.id) === body.pairId);
    if (!pair) return fail(404, 404200, "Pair was not found");
    const decimal = /^\d+(\.\d+)?$/;
    if (
      body.type !== "limit" ||
      (body.side !== "buy" && body.side !== "sell") ||
      !decimal.test(String(body.amount)) ||
      !decimal.test(String(body.price))
    ) {
      return fail(400, 400000, "Invalid request params input");
    }
    const delay = createDelay;
    createDelay = undefined;
    const at = now();
    if (delay?.lose) return { status: 504, body: { message: "Gateway Timeout" }, delayMs: delay.ms };
    const order = newOrder(pair, body.side, String(body.amount), String(body.price), at);
    const { id, userId, quantity, side, price, executed, executedPrice, baseDecimals, quoteDecimals, pairId, type } =
      order;
    return {
      body: {
        ok: true,
        result: {
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
          pairId,
          type,
          stopPrice: null,
          slippage: null,
          timestamp: String(order.timestamp),
        },
      },
      ...(delay ? { delayMs: delay.ms } : {}),
    };
  });

  server.on("GET /trade/api/ccxt/ordersOfUser", (req) => {
    if (ordersFailure) {
      const f = ordersFailure;
      ordersFailure = undefined;
      return { status: f.status, body: f.body };
    }
    const q = parseQuery(req.query);
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
    return ok({ count: matches.length, orders: matches.slice(offset, offset + limit) });
  });

  server.on("POST /trade/api/ccxt/cancelorder", (req) => {
    const parsed = jsonBody(req, ["id"]);
    if ("refused" in parsed) return parsed.refused;
    const body = parsed.body;
    const order = orders.get(String(body.id));
    if (!order) return fail(404, 404300, "Order not found");
    if (!isOpen(order)) return fail(400, 403002, "Order cannot be deleted, status does not match");
    order.status = "cancelled";
    order.updatedAt = new Date(now()).toISOString();
    return ok({ message: "The request to cancel your order was received" });
  });

  server.on("POST /trade/api/ccxt/cancel-all-order", (req) => {
    const parsed = jsonBody(req, ["pairId"]);
    if ("refused" in parsed) return parsed.refused;
    const body = parsed.body;
    if (typeof body.pairId !== "string")
      return { status: 400, body: { message: '"pairId" must be a string', path: ["pairId"], type: "string.base" } };
    for (const o of orders.values()) {
      if (isOpen(o) && (body.pairId === "0" || String(o.pairId) === body.pairId)) o.status = "cancelled";
    }
    return ok({ message: "The request to cancel all your orders was received" });
  });

  // A raw body: the DEL balance is a JSON number literal longer than 15 characters (seed 001 §9);
  // usdt is lower-case and XRP is all zero.
  server.on("GET /trade/api/ccxt/balance", () => ({
    body:
      '{"ok":true,"result":{"free":{"USDT":"1500.5","BTC":"0.25","XRP":"0"},"used":{"USDT":"300","BTC":"0","XRP":"0"},"total":{"USDT":"1800.5","BTC":"0.25","XRP":"0"},' +
      '"usdt":{"free":"1500.5","used":"300","total":"1800.5"},"BTC":{"free":"0.25","used":"0","total":"0.25"},' +
      '"DEL":{"free":1234567.890123456789,"used":"0.5","total":"1234568.390123456789"},"XRP":{"free":"0","used":"0","total":"0"}}}',
  }));

  return {
    server,
    url: server.url,
    orders,
    delayNextCreate(ms) {
      createDelay = { ms, lose: false };
    },
    loseNextCreate(ms) {
      createDelay = { ms, lose: true };
    },
    failNextOrdersOfUser(status, body) {
      ordersFailure = { status, body };
    },
    rateLimitNext() {
      rateLimit = true;
    },
    failNext(code, message, status = 400) {
      failure = { code, message, status };
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
    close: () => server.close(),
  };
}
