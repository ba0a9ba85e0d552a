import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A Coinstore mock on 127.0.0.1. It verifies every private request as Coinstore documents it:
 * X-CS-APIKEY known, X-CS-EXPIRES within the window, and X-CS-SIGN = hex HMAC-SHA256(key, payload)
 * with key = hex HMAC-SHA256(secret, floor(expires / 30000)) and payload the raw query of a GET or
 * the raw JSON body of a POST. Answers are {code, message, data} with the docs' shapes: place
 * requires `timestamp` and answers {ordId}; v2 orderInfo answers data: [ORDER] with `ordStatus`
 * (NOT_FOUND for an unknown id); v2 active a list; placeBatch items {ordId, clOrdId, errno, errMsg};
 * cancelBatch {success, reject}. Order times are in milliseconds, as the docs' examples are.
 */
export interface CoinstoreMockOrder {
  baseCurrency: string;
  quoteCurrency: string;
  symbol: string;
  timestamp: number;
  side: string;
  accountId: number;
  ordId: string;
  clOrdId: string;
  ordType: string;
  ordStatus: string;
  ordPrice: string;
  ordQty: string;
  ordAmt: string;
  cumAmt: string;
  cumQty: string;
  leavesQty: string;
  avgPrice: string;
  feeCurrency: string;
  timeInForce: string;
}

export interface CoinstoreMock {
  server: MockServer;
  url: string;
  orders: Map<string, CoinstoreMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, message: string, status?: number): void;
  refuseNextBatchItem(index: number, code: number, message: string): void;
  close(): Promise<void>;
}

export const COINSTORE_KEY = "coinstore-test-key";
export const COINSTORE_SECRET = "coinstore-test-secret";
export const COINSTORE_WINDOW_MS = 30_000;

export function coinstoreExpectedSign(secret: string, expires: string, payload: string): string {
  const key = createHmac("sha256", secret)
    .update(String(Math.floor(Number(expires) / 30_000)))
    .digest("hex");
  return createHmac("sha256", key).update(payload).digest("hex");
}

export async function startCoinstoreMock(options: { now?: () => number } = {}): Promise<CoinstoreMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, CoinstoreMockOrder>();
  let seq = 1694171424893030000n;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: number; message: string; status: number } | undefined;
  let refusal: { index: number; code: number; message: string } | undefined;

  const error = (status: number, code: number, message: string): MockReply => ({
    status,
    body: { code, message, data: null },
  });
  const ok = (data: unknown): MockReply => ({ body: { code: 0, message: "", data } });
  // Long ids travel as bare JSON numbers, as Coinstore sends them.
  const raw = (data: unknown): MockReply => ({
    body: JSON.stringify({ code: 0, message: "", data }).replace(/"ordId":"(\d+)"/g, '"ordId":$1'),
  });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers["x-cs-apikey"] !== COINSTORE_KEY) return error(401, 401, "Unauthorized: invalid api key");
    const expires = String(req.headers["x-cs-expires"] ?? "");
    const payload = req.method === "GET" ? req.query : req.body;
    if (req.headers["x-cs-sign"] !== coinstoreExpectedSign(COINSTORE_SECRET, expires, payload))
      return error(401, 401, "Signature-Failed");
    if (Math.abs(now() - Number(expires)) > COINSTORE_WINDOW_MS) return error(401, 401, "Expired request");
    if (rateLimit) {
      rateLimit = false;
      return { ...error(429, 429, "Too Many Requests"), headers: { "retry-after": "2" } };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.code, f.message);
    }
    return undefined;
  }
  server.intercept((req) => verify(req));

  function place(
    symbol: string,
    input: Record<string, unknown>,
  ): CoinstoreMockOrder | { code: number; message: string } {
    if (symbol !== "BTCUSDT") return { code: 3101, message: "symbol not found" };
    if (input.ordType !== "LIMIT" || input.timeInForce !== "GTC")
      return { code: 3102, message: "only LIMIT GTC in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.ordPrice)) || !/^\d+(\.\d+)?$/.test(String(input.ordQty)))
      return { code: 3103, message: "invalid price or quantity" };
    const order: CoinstoreMockOrder = {
      baseCurrency: "BTC",
      quoteCurrency: "USDT",
      symbol,
      timestamp: now(),
      side: String(input.side),
      accountId: 1138204,
      ordId: String(seq++),
      clOrdId: String(input.clOrdId ?? ""),
      ordType: "LIMIT",
      ordStatus: "SUBMITTED",
      ordPrice: String(input.ordPrice),
      ordQty: String(input.ordQty),
      ordAmt: "0",
      cumAmt: "0",
      cumQty: "0",
      leavesQty: String(input.ordQty),
      avgPrice: "0",
      feeCurrency: "USDT",
      timeInForce: "GTC",
    };
    orders.set(order.ordId, order);
    return order;
  }
  const open = (o: CoinstoreMockOrder) => o.ordStatus === "SUBMITTED" || o.ordStatus === "PARTIAL_FILLED";
  const body = (req: ReceivedRequest) => JSON.parse(req.body || "{}") as Record<string, unknown>;

  server.on("POST /api/trade/order/place", (req) => {
    const b = body(req);
    if (typeof b.timestamp !== "number") return error(400, 400, "timestamp is required");
    const result = place(String(b.symbol), b);
    if (!("ordId" in result)) return error(400, result.code, result.message);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return { ...raw({ ordId: result.ordId }), delayMs: d };
  });
  server.on("POST /api/trade/order/placeBatch", (req) => {
    const b = body(req);
    if (typeof b.timestamp !== "number") return error(400, 400, "timestamp is required");
    const list = (b.orders ?? []) as Record<string, unknown>[];
    const refuse = refusal;
    refusal = undefined;
    return raw(
      list.map((item, index) => {
        const result =
          refuse?.index === index ? { code: refuse.code, message: refuse.message } : place(String(b.symbol), item);
        return "ordId" in result
          ? { ordId: result.ordId, clOrdId: result.clOrdId }
          : { clOrdId: item.clOrdId, errno: result.code, errMsg: result.message };
      }),
    );
  });
  server.on("POST /api/trade/order/cancel", (req) => {
    const b = body(req);
    const order = orders.get(String(b.ordId));
    if (!order || order.symbol !== b.symbol || !open(order)) return error(400, 404, "order not found");
    order.ordStatus = "CANCELED";
    return raw({ clientOrderId: order.clOrdId, state: "CANCELED", ordId: order.ordId });
  });
  server.on("POST /api/trade/order/cancelBatch", (req) => {
    const b = body(req);
    const ids = (b.orderIds ?? []) as string[];
    const success: string[] = [];
    const reject: string[] = [];
    for (const ordId of ids) {
      const order = orders.get(String(ordId));
      if (!order || !open(order)) reject.push(String(ordId));
      else {
        order.ordStatus = "CANCELED";
        success.push(String(ordId));
      }
    }
    return { body: JSON.stringify({ code: 0, data: { success, reject } }).replace(/"(\d{16,})"/g, "$1") };
  });
  server.on("GET /api/v2/trade/order/orderInfo", (req) => {
    const q = parseQuery(req.query);
    const order = q.ordId ? orders.get(q.ordId) : [...orders.values()].find((o) => o.clOrdId === q.clOrdId);
    if (!order) return raw([{ ordId: q.ordId ?? "0", clOrdId: q.clOrdId ?? "", ordStatus: "NOT_FOUND", side: "BUY" }]);
    return raw([{ ...order, orderUpdateTime: order.timestamp }]);
  });
  server.on("GET /api/v2/trade/order/active", (req) => {
    const q = parseQuery(req.query);
    return raw([...orders.values()].filter((o) => o.symbol === q.symbol && open(o)));
  });
  server.on("POST /api/spot/accountList", () =>
    ok([
      {
        uid: 315,
        accountId: 1134971,
        currency: "USDT",
        balance: "1000.123456789012345678",
        type: 1,
        typeName: "AVAILABLE",
      },
      { uid: 315, accountId: 1134971, currency: "USDT", balance: "20", type: 4, typeName: "FROZEN" },
      { uid: 315, accountId: 1134972, currency: "btc", balance: "0.5", type: 1, typeName: "AVAILABLE" },
      { uid: 315, accountId: 1134972, currency: "btc", balance: "0", type: 4, typeName: "FROZEN" },
      { uid: 315, accountId: 1134973, currency: "CST", balance: "0", type: 1, typeName: "AVAILABLE" },
    ]),
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
    refuseNextBatchItem(index, code, message) {
      refusal = { index, code, message };
    },
    close: () => server.close(),
  };
}
