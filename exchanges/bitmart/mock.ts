import { createHmac } from "node:crypto";
import { type MockReply, type MockServer, type ReceivedRequest, startMockServer } from "../core/testing/http-mock.js";

/**
 * A BitMart spot mock on 127.0.0.1. It verifies every SIGNED request the way BitMart documents it:
 * X-BM-KEY, X-BM-TIMESTAMP within the window (timestamp < serverTime + 1000 and
 * serverTime − timestamp <= recvWindow, 5000 unless the body sends one), and
 * X-BM-SIGN = hex HMAC-SHA256 of `timestamp#memo#rawBody` (or the raw query for a GET). The wallet
 * is KEYED (key only), but a signature sent there must be right too. Answers are
 * {code, message, trace, data}; code 1000 is success; errors carry the documented HTTP status.
 */
export interface BitmartMockOrder {
  orderId: string;
  clientOrderId: string;
  symbol: string;
  side: string;
  orderMode: string;
  type: string;
  state: string;
  cancelSource: string;
  stpMode: string;
  price: string;
  priceAvg: string;
  size: string;
  filledSize: string;
  notional: string;
  filledNotional: string;
  createTime: number;
  updateTime: number;
}

export interface BitmartMock {
  server: MockServer;
  url: string;
  orders: Map<string, BitmartMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, message: string, status?: number): void;
  close(): Promise<void>;
}

export const BITMART_KEY = "80618e45710812162b04892c7ee5ead4a3cc3e56";
export const BITMART_SECRET = "6c6c98544461bbe71db2bca4c6d7fd0021e0ba9efc215f9c6ad41852df9d9df9";
export const BITMART_MEMO = "test001";

const SIGNED_ROUTES = new Set([
  "POST /spot/v2/submit_order",
  "POST /spot/v4/batch_orders",
  "POST /spot/v3/cancel_order",
  "POST /spot/v4/cancel_orders",
  "POST /spot/v4/cancel_all",
  "POST /spot/v4/query/order",
  "POST /spot/v4/query/client-order",
  "POST /spot/v4/query/open-orders",
]);

export async function startBitmartMock(options: { now?: () => number } = {}): Promise<BitmartMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, BitmartMockOrder>();
  let seq = 118100034543076010n;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: number; message: string; status: number } | undefined;

  const trace = () => `${Math.random().toString(16).slice(2)}.60.${now()}`;
  const ok = (data: unknown, delayMs = 0): MockReply => ({
    body: { code: 1000, message: "OK", trace: trace(), data },
    delayMs,
  });
  const error = (status: number, code: number, message: string, headers?: Record<string, string>): MockReply => ({
    status,
    ...(headers ? { headers } : {}),
    body: { code, message, trace: trace(), data: {} },
  });

  function verify(req: ReceivedRequest): MockReply | undefined {
    const route = `${req.method} ${req.path}`;
    const key = req.headers["x-bm-key"];
    if (!key) return error(401, 30001, "Header X-BM-KEY is empty");
    if (key !== BITMART_KEY) return error(401, 30002, "Header X-BM-KEY not found");
    const sign = req.headers["x-bm-sign"];
    if (SIGNED_ROUTES.has(route) || sign !== undefined) {
      if (!sign) return error(401, 30004, "Header X-BM-SIGN is empty");
      const ts = String(req.headers["x-bm-timestamp"] ?? "");
      if (!ts) return error(401, 30006, "Header X-BM-TIMESTAMP is empty");
      if (!/^\d+$/.test(ts)) return error(401, 30006, "Header X-BM-TIMESTAMP must be long type");
      const payload = req.method === "GET" ? req.query : req.body;
      if (sign !== createHmac("sha256", BITMART_SECRET).update(`${ts}#${BITMART_MEMO}#${payload}`).digest("hex")) {
        return error(401, 30005, "Header X-BM-SIGN is wrong");
      }
      let recvWindow = 5000;
      if (req.method === "POST" && req.body) {
        const body = JSON.parse(req.body) as { recvWindow?: unknown };
        if (body.recvWindow !== undefined) recvWindow = Number(body.recvWindow);
      }
      if (!(recvWindow > 0 && recvWindow <= 60000))
        return error(401, 30007, "Param recvWindow must be less than 60000 and greater than 0");
      const serverTime = now();
      if (!(Number(ts) < serverTime + 1000 && serverTime - Number(ts) <= recvWindow)) {
        return error(
          401,
          30007,
          "Header X-BM-TIMESTAMP range. Timestamp for this request is outside of the recvWindow.",
        );
      }
    }
    if (rateLimit) {
      rateLimit = false;
      // Docs: Remaining counts the calls used, Limit the maximum, Reset the window length in seconds.
      return error(429, 30013, "Request too many requests", {
        "X-BM-RateLimit-Reset": "2",
        "X-BM-RateLimit-Limit": "12",
        "X-BM-RateLimit-Remaining": "13",
      });
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.code, f.message);
    }
    return undefined;
  }

  function place(
    symbol: string,
    input: Record<string, unknown>,
    clientOrderId: string,
  ): BitmartMockOrder | { code: number; message: string } {
    if (input.type !== "limit") return { code: 52001, message: "Unsupported Trade Type" };
    if (!/^\d+(\.\d+)?$/.test(String(input.size))) return { code: 50010, message: "RequestParam size is required" };
    if (!/^\d+(\.\d+)?$/.test(String(input.price))) return { code: 50011, message: "RequestParam price is required" };
    if (clientOrderId.length > 32)
      return { code: 50037, message: "The maximum length of clientOrderId cannot exceed 32" };
    if (clientOrderId && [...orders.values()].some((o) => o.clientOrderId === clientOrderId))
      return { code: 50042, message: "clientOrderId is duplicate" };
    const t = now();
    const orderId = String(seq++);
    const order: BitmartMockOrder = {
      orderId,
      clientOrderId: clientOrderId || orderId,
      symbol,
      side: String(input.side),
      orderMode: "spot",
      type: "limit",
      state: "new",
      cancelSource: "",
      stpMode: "none",
      price: String(input.price),
      priceAvg: "0.00",
      size: String(input.size),
      filledSize: "0",
      notional: "0",
      filledNotional: "0",
      createTime: t,
      updateTime: t,
    };
    orders.set(orderId, order);
    return order;
  }

  const open = (o: BitmartMockOrder) => o.state === "new" || o.state === "partially_filled";
  const cancel = (o: BitmartMockOrder) => {
    o.state = "canceled";
    o.cancelSource = "user";
    o.updateTime = now();
  };
  const body = (req: ReceivedRequest) => JSON.parse(req.body || "{}") as Record<string, unknown>;

  server.intercept((req) => verify(req));

  server.on("POST /spot/v2/submit_order", (req) => {
    const b = body(req);
    const result = place(String(b.symbol), b, String(b.client_order_id ?? ""));
    if (!("orderId" in result)) return error(400, result.code, result.message);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return ok({ order_id: result.orderId }, d);
  });
  server.on("POST /spot/v4/batch_orders", (req) => {
    const b = body(req);
    const list = (b.orderParams ?? []) as Record<string, unknown>[];
    if (list.length > 10)
      return error(400, 50033, "The order quantity should be greater than 0 and less than or equal to 10");
    const ids: string[] = [];
    for (const item of list) {
      const result = place(String(b.symbol), item, String(item.clientOrderId ?? ""));
      if (!("orderId" in result)) return ok({ code: result.code, msg: result.message, data: null });
      ids.push(result.orderId);
    }
    return ok({ code: 0, msg: "success", data: { orderIds: ids } });
  });
  server.on("POST /spot/v3/cancel_order", (req) => {
    const b = body(req);
    const order = orders.get(String(b.order_id));
    if (!order || order.symbol !== b.symbol) return error(400, 50005, "Order Id not found");
    if (!open(order)) return ok({ result: false });
    cancel(order);
    return ok({ result: true });
  });
  server.on("POST /spot/v4/cancel_orders", (req) => {
    const b = body(req);
    const ids = (b.orderIds ?? []) as string[];
    const successIds: string[] = [];
    const failIds: string[] = [];
    for (const orderId of ids) {
      const order = orders.get(orderId);
      if (order && order.symbol === b.symbol && open(order)) {
        cancel(order);
        successIds.push(orderId);
      } else failIds.push(orderId);
    }
    return ok({
      successIds,
      failIds,
      totalCount: ids.length,
      successCount: successIds.length,
      failedCount: failIds.length,
    });
  });
  server.on("POST /spot/v4/cancel_all", (req) => {
    const b = body(req);
    for (const o of orders.values()) if ((!b.symbol || o.symbol === b.symbol) && open(o)) cancel(o);
    return ok({});
  });
  server.on("POST /spot/v4/query/order", (req) => {
    const order = orders.get(String(body(req).orderId));
    return order ? ok(order) : error(400, 50005, "Order Id not found");
  });
  server.on("POST /spot/v4/query/client-order", (req) => {
    const id = String(body(req).clientOrderId);
    const order = [...orders.values()].find((o) => o.clientOrderId === id);
    return order ? ok(order) : error(400, 50005, "Order Id not found");
  });
  server.on("POST /spot/v4/query/open-orders", (req) => {
    const b = body(req);
    const limit = Number(b.limit ?? 200);
    return ok([...orders.values()].filter((o) => (!b.symbol || o.symbol === b.symbol) && open(o)).slice(0, limit));
  });
  server.on("GET /account/v1/wallet", () =>
    ok({
      wallet: [
        {
          currency: "USDT",
          name: "Tether USD",
          available: "1000.00000000",
          available_usd_valuation: "1002.00000000",
          frozen: "12.5",
          unAvailable: "12.5",
        },
        { currency: "btc", name: "Bitcoin", available: "0.1234567890123456789", frozen: "0", unAvailable: "0" },
        { currency: "BMX", name: "BitMart Token", available: "0.00000000", frozen: "0.00000000", unAvailable: "0" },
      ],
    }),
  );

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
    failNext(code, message, status = 400) {
      failure = { code, message, status };
    },
    close: () => server.close(),
  };
}
