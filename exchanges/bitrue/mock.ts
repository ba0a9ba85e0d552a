import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A Bitrue spot v1 mock on 127.0.0.1. It verifies every SIGNED request the way Bitrue documents it
 * (Spot-official-api-docs README): X-MBX-APIKEY; `signature` = hex HMAC-SHA256 of totalParams (the raw
 * query without `&signature=…`, concatenated with the raw body); timestamp < serverTime + 1000 and
 * serverTime − timestamp <= recvWindow (5000 unless sent). Failures are {code, msg} with the HTTP
 * status of the docs' "Error Codes" table: -1022/401 for a bad signature, timestamp or key, -2013/200
 * for an unknown order, -2010/406 for a rejected placement or cancellation, -1102 and -1111/412.
 * Order ids are 18-digit numbers with their orderIdStr, as in the docs' New order answer.
 */
export interface BitrueMockOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  timeInForce: string;
  type: string;
  side: string;
  stopPrice: string;
  icebergQty: string;
  time: number;
  updateTime: number;
  isWorking: boolean;
}

export interface BitrueMock {
  server: MockServer;
  url: string;
  orders: Map<string, BitrueMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, msg: string, status?: number): void;
  close(): Promise<void>;
}

export const BITRUE_KEY = "vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A";
export const BITRUE_SECRET = "NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j";

export async function startBitrueMock(options: { now?: () => number } = {}): Promise<BitrueMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, BitrueMockOrder>();
  let seq = 1;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: number; msg: string; status: number } | undefined;

  const error = (status: number, code: number, msg: string): MockReply => ({ status, body: { code, msg } });
  const UNAUTHORIZED = "Invalid signature or Invalid timestamp or Unauthorized for API.";

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers["x-mbx-apikey"] !== BITRUE_KEY) return error(401, -1022, UNAUTHORIZED);
    const at = req.query.lastIndexOf("&signature=");
    const totalParams = (at < 0 ? req.query : req.query.slice(0, at)) + req.body;
    const signature = at < 0 ? "" : req.query.slice(at + "&signature=".length);
    if (signature.toLowerCase() !== createHmac("sha256", BITRUE_SECRET).update(totalParams).digest("hex")) {
      return error(401, -1022, UNAUTHORIZED);
    }
    const q = parseQuery(req.query);
    const ts = Number(q.timestamp);
    const recvWindow = Number(q.recvWindow ?? 5000);
    const serverTime = now();
    if (!(ts < serverTime + 1000 && serverTime - ts <= recvWindow)) return error(401, -1022, UNAUTHORIZED);
    if (rateLimit) {
      rateLimit = false;
      // "If you got a 429, you could get the policy name from response header with key rate_limit_p."
      return {
        status: 429,
        headers: { "retry-after": "4", rate_limit_p: "orders_user_seconds" },
        body: { code: -1003, msg: "Too many requests." },
      };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.code, f.msg);
    }
    return undefined;
  }

  const open = (o: BitrueMockOrder) => o.status === "NEW" || o.status === "PARTIALLY_FILLED";
  const find = (q: Record<string, string>) =>
    q.orderId ? orders.get(q.orderId) : [...orders.values()].find((o) => o.clientOrderId === q.origClientOrderId);
  // Bitrue's 18-digit order ids are JSON number literals (beyond 2^53): written as raw text, never via Number().
  const raw = (value: unknown): string => JSON.stringify(value).replace(/"orderId":"(\d+)"/g, '"orderId":$1');
  const notFound = () => error(200, -2013, "Could not find order information for given order ID.");

  server.intercept((req) => verify(req));

  server.on("POST /api/v1/order", (req) => {
    const q = parseQuery(req.query);
    if (!q.symbol || !q.side || !q.type) return error(412, -1102, "Mandatory parameter is missing or illegal.");
    if (q.type !== "LIMIT" || !/^\d+(\.\d+)?$/.test(q.quantity ?? "") || !/^\d+(\.\d+)?$/.test(q.price ?? "")) {
      return error(412, -1111, "Invalid volume or price or address given.");
    }
    if (q.newClientOrderId && [...orders.values()].some((o) => o.clientOrderId === q.newClientOrderId)) {
      return error(406, -2010, "Order placement or cancellation or withdrawal rejected.");
    }
    const t = now();
    const order: BitrueMockOrder = {
      symbol: q.symbol,
      orderId: String(307650651173648896n + BigInt(seq++)),
      clientOrderId: q.newClientOrderId ?? `auto${seq}`,
      price: q.price!,
      origQty: q.quantity!,
      executedQty: "0.0",
      cummulativeQuoteQty: "0.0",
      status: "NEW",
      timeInForce: q.timeInForce ?? "GTC",
      type: "LIMIT",
      side: q.side,
      stopPrice: "0.0",
      icebergQty: "0.0",
      time: t,
      updateTime: t,
      isWorking: true,
    };
    orders.set(order.orderId, order);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return {
      body: raw({
        symbol: order.symbol,
        orderId: order.orderId,
        orderIdStr: order.orderId,
        clientOrderId: order.clientOrderId,
        transactTime: t,
      }),
      delayMs: d,
    };
  });
  server.on("GET /api/v1/order", (req) => {
    const q = parseQuery(req.query);
    if (!q.orderId) return error(412, -1102, "Mandatory parameter is missing or illegal.");
    const order = find(q);
    if (!order || order.symbol !== q.symbol) return notFound();
    return { body: raw(order) };
  });
  server.on("DELETE /api/v1/order", (req) => {
    const q = parseQuery(req.query);
    const order = find(q);
    if (!order || order.symbol !== q.symbol) return notFound();
    if (!open(order)) return error(406, -2010, "Order placement or cancellation or withdrawal rejected.");
    order.status = "CANCELED";
    order.updateTime = now();
    return {
      body: raw({
        symbol: order.symbol,
        origClientOrderId: order.clientOrderId,
        orderId: order.orderId,
        clientOrderId: `cancel${order.clientOrderId}`,
      }),
    };
  });
  server.on("GET /api/v1/openOrders", (req) => {
    const q = parseQuery(req.query);
    return { body: raw([...orders.values()].filter((o) => o.symbol === q.symbol && open(o))) };
  });
  // "Get all account orders; active, canceled, or filled" — most recent first.
  server.on("GET /api/v1/allOrders", (req) => {
    const q = parseQuery(req.query);
    return { body: raw([...orders.values()].filter((o) => o.symbol === q.symbol).reverse()) };
  });
  // A raw body: the LTC balance is a JSON number literal longer than 15 characters (seed 001 §9).
  server.on("GET /api/v1/account", () => ({
    body:
      '{"makerCommission":15,"takerCommission":15,"buyerCommission":0,"sellerCommission":0,"canTrade":true,"canWithdraw":true,"canDeposit":true,"updateTime":123456789,' +
      '"balances":[{"asset":"BTC","free":"4723846.89208129","locked":"0.00000000"},{"asset":"ltc","free":4763368.680060111234567,"locked":"1.5"},{"asset":"XRP","free":"0.00000000","locked":"0.00000000"}]}',
  }));

  return {
    server,
    url: server.url,
    orders,
    delayNextCreate(ms) {
      delayCreateMs = ms;
    },
    rateLimitNext() {
      rateLimit = true;
    },
    failNext(code, msg, status = 400) {
      failure = { code, msg, status };
    },
    close: () => server.close(),
  };
}
