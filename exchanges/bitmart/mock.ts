import { createHmac } from "node:crypto";
import { type FakeExchange, type FakeParams, refuse, startFakeExchange } from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A BitMart spot mock on 127.0.0.1. It verifies every SIGNED request the way BitMart documents it:
 * X-BM-KEY, X-BM-TIMESTAMP within the window (timestamp < serverTime + 1000 and
 * serverTime − timestamp <= recvWindow, 5000 unless the body sends one), and
 * X-BM-SIGN = hex HMAC-SHA256 of `timestamp#memo#rawBody` (or the raw query for a GET). The wallet
 * is KEYED (key only), but a signature sent there must be right too. Answers are
 * {code, message, trace, data}; code 1000 is success; errors carry the documented HTTP status.
 * It runs on the fake exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the parameters BitMart documents as required (symbol, side, type, and size and
 * price of a limit order, per item of orderParams too; symbol and order_id or client_order_id on a
 * cancel; symbol and orderIds or clientOrderIds on a batch cancel; orderId or clientOrderId on the
 * lookups): size and price missing answer their documented 50010 and 50011, any other field 50000
 * "Bad Request" naming it. The open orders come newest first, `limit` of them (1 to 200, default 200),
 * within `startTime` and `endTime` (ms, both included): BitMart pages them by time window only.
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
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/**
 * GET /spot/v1/symbols/details's data as BitMart documents it: three symbols trading (one with an
 * odd precision and whole-unit quantities), one pre-trade (not open yet).
 */
export const BITMART_MOCK_SYMBOLS = {
  symbols: [
    {
      symbol: "GXC_BTC",
      symbol_id: 1024,
      base_currency: "GXC",
      quote_currency: "BTC",
      quote_increment: "1.00000000",
      base_min_size: "1.00000000",
      base_max_size: "10000000.00000000",
      price_min_precision: 6,
      price_max_precision: 8,
      expiration: "NA",
      min_buy_amount: "0.00010000",
      min_sell_amount: "0.00010000",
      trade_status: "trading",
    },
    {
      symbol: "BTC_USDT",
      symbol_id: 53,
      base_currency: "BTC",
      quote_currency: "USDT",
      quote_increment: "0.00001",
      base_min_size: "0.000010000000000000000000000000",
      base_max_size: "100000000.000000000000000000000000000000",
      price_min_precision: -1,
      price_max_precision: 2,
      expiration: "NA",
      min_buy_amount: "5.000000000000000000000000000000",
      min_sell_amount: "5.000000000000000000000000000000",
      trade_status: "trading",
    },
    {
      symbol: "BMX_ETH",
      symbol_id: 2001,
      base_currency: "BMX",
      quote_currency: "ETH",
      quote_increment: "0.1",
      base_min_size: "0.1",
      base_max_size: "1000000",
      price_min_precision: 5,
      price_max_precision: 9,
      expiration: "NA",
      min_buy_amount: "0.001",
      min_sell_amount: "0.002",
      trade_status: "trading",
    },
    {
      symbol: "NEWT_USDT",
      symbol_id: 3001,
      base_currency: "NEWT",
      quote_currency: "USDT",
      quote_increment: "0.01",
      base_min_size: "0.01",
      base_max_size: "1000000",
      price_min_precision: 2,
      price_max_precision: 4,
      expiration: "NA",
      min_buy_amount: "5",
      min_sell_amount: "5",
      trade_status: "pre-trade",
    },
  ],
};

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
  const orders = new Map<string, BitmartMockOrder>();
  let seq = 118100034543076010n;

  const trace = () => `${Math.random().toString(16).slice(2)}.60.${now()}`;
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
    return undefined;
  }

  function place(
    symbol: string,
    input: Record<string, unknown>,
    clientOrderId: string,
  ): BitmartMockOrder | { code: number; message: string } {
    // limit, or limit_maker: maker only (docs/exchange-rules.md "Post-only")
    if (input.type !== "limit" && input.type !== "limit_maker")
      return { code: 52001, message: "Unsupported Trade Type" };
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
      type: String(input.type),
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
  const MISSING: Record<string, [number, string]> = {
    size: [50010, "RequestParam size is required"],
    price: [50011, "RequestParam price is required"],
  };
  const ORDER = ["side", "type", "size", "price"];
  const fake = await startFakeExchange({
    name: "bitmart",
    verify,
    // public market data: no X-BM-KEY (docs/exchange-rules.md#pairs)
    isPublic: (req) => req.method === "GET" && req.path === "/spot/v1/symbols/details",
    envelope: {
      ok: (data) => ({ body: { code: 1000, message: "OK", trace: trace(), data } }),
      error: (e) => error(e.status ?? 400, Number(e.code), e.msg),
    },
    // Docs: Remaining counts the calls used, Limit the maximum, Reset the window length in seconds.
    rateLimited: () =>
      error(429, 30013, "Request too many requests", {
        "X-BM-RateLimit-Reset": "2",
        "X-BM-RateLimit-Limit": "12",
        "X-BM-RateLimit-Remaining": "13",
      }),
    missing: (name) => {
      const field = name.replace(/^orderParams\[\]\./, "");
      const [code, msg] = MISSING[field] ?? [50000, `Bad Request: ${field} is required`];
      return { code, msg };
    },
    routes: {
      "GET /spot/v1/symbols/details": { handle: () => BITMART_MOCK_SYMBOLS },
      "POST /spot/v2/submit_order": {
        required: ["symbol", ...ORDER],
        create: true,
        handle: ({ params: b }) => {
          const result = place(String(b.symbol), b, String(b.client_order_id ?? ""));
          if (!("orderId" in result)) throw refuse(result.code, result.message);
          return { order_id: result.orderId };
        },
      },
      "POST /spot/v4/batch_orders": {
        required: ["symbol", ...ORDER.map((name) => `orderParams[].${name}`)],
        handle: ({ params: b }) => {
          const list = b.orderParams as FakeParams[];
          if (list.length > 10)
            throw refuse(50033, "The order quantity should be greater than 0 and less than or equal to 10");
          const ids: string[] = [];
          for (const item of list) {
            const result = place(String(b.symbol), item, String(item.clientOrderId ?? ""));
            if (!("orderId" in result)) return { code: result.code, msg: result.message, data: null };
            ids.push(result.orderId);
          }
          return { code: 0, msg: "success", data: { orderIds: ids } };
        },
      },
      "POST /spot/v3/cancel_order": {
        required: ["symbol", ["order_id", "client_order_id"]],
        handle: ({ params: b }) => {
          const order = orders.get(String(b.order_id));
          if (!order || order.symbol !== b.symbol) throw refuse(50005, "Order Id not found");
          if (!open(order)) return { result: false };
          cancel(order);
          return { result: true };
        },
      },
      "POST /spot/v4/cancel_orders": {
        required: ["symbol", ["orderIds", "clientOrderIds"]],
        handle: ({ params: b }) => {
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
          return {
            successIds,
            failIds,
            totalCount: ids.length,
            successCount: successIds.length,
            failedCount: failIds.length,
          };
        },
      },
      "POST /spot/v4/cancel_all": {
        handle: ({ params: b }) => {
          for (const o of orders.values()) if ((!b.symbol || o.symbol === b.symbol) && open(o)) cancel(o);
          return {};
        },
      },
      "POST /spot/v4/query/order": {
        required: ["orderId"],
        handle: ({ params: b }) => {
          const order = orders.get(String(b.orderId));
          if (!order) throw refuse(50005, "Order Id not found");
          return order;
        },
      },
      "POST /spot/v4/query/client-order": {
        required: ["clientOrderId"],
        handle: ({ params: b }) => {
          const id = String(b.clientOrderId);
          const order = [...orders.values()].find((o) => o.clientOrderId === id);
          if (!order) throw refuse(50005, "Order Id not found");
          return order;
        },
      },
      "POST /spot/v4/query/open-orders": {
        handle: ({ params: b }) => {
          const limit = b.limit === undefined ? 200 : Number(b.limit);
          if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw refuse(50000, "Bad Request: limit");
          const from = b.startTime === undefined ? 0 : Number(b.startTime);
          const to = b.endTime === undefined ? Number.POSITIVE_INFINITY : Number(b.endTime);
          if (!(from >= 0) || !(to >= from)) throw refuse(50000, "Bad Request: startTime/endTime");
          // newest first, within [startTime, endTime] (both ends included)
          return [...orders.values()]
            .filter((o) => (!b.symbol || o.symbol === b.symbol) && open(o))
            .filter((o) => o.createTime >= from && o.createTime <= to)
            .sort((x, y) => y.createTime - x.createTime || (BigInt(y.orderId) > BigInt(x.orderId) ? 1 : -1))
            .slice(0, limit);
        },
      },
      "GET /account/v1/wallet": {
        handle: () => ({
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
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    orders,
    fake,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(code, message, status = 400) {
      fake.failNext({ code, msg: message, status });
    },
    close: () => fake.close(),
  };
}
