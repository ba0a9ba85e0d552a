import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  OrderStore,
  parseParams,
  raw,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import { type MockReply, type MockServer, parseQuery, type ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A MEXC spot v3 mock on the fake exchange (exchanges/core/testing/fake-exchange.ts). It verifies
 * every private request the way MEXC documents it: X-MEXC-APIKEY, `signature` = lower-case hex
 * HMAC-SHA256 over totalParams (the raw query string without `&signature=…`, concatenated with the
 * raw body), and the timing rule timestamp < serverTime + 1000 && serverTime − timestamp <=
 * recvWindow. Errors are {code, msg}.
 *
 * Every call checks the parameters MEXC documents as mandatory (symbol, side, type, quantity and
 * price of a LIMIT order, per item of batchOrders too; symbol and orderId or origClientOrderId on a
 * cancel or a lookup; symbol on the open-order calls; timestamp everywhere) and answers 33333 (or
 * 700004 for the order id pair) otherwise. Open orders are one list: MEXC documents no paging there.
 */
export interface MexcMockOrder {
  symbol: string;
  orderId: string;
  orderListId: number;
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
  origQuoteOrderQty: string;
}

export interface MexcMock {
  server: MockServer;
  url: string;
  /** the fake underneath */
  fake: FakeExchange;
  orders: Map<string, MexcMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, msg: string, status?: number): void;
  refuseNextBatchItem(index: number, code: number, msg: string): void;
  close(): Promise<void>;
}

export const MEXC_KEY = "mx0vgl-test-key";
export const MEXC_SECRET = "mexc-test-secret";

/** The documented Account Information example, with one long balance. */
const ACCOUNT = {
  makerCommission: null,
  takerCommission: null,
  buyerCommission: null,
  sellerCommission: null,
  canTrade: true,
  canWithdraw: true,
  canDeposit: true,
  updateTime: null,
  accountType: "SPOT",
  balances: [
    { asset: "NBNTEST", free: "1112", locked: "0" },
    { asset: "MX", free: "3", locked: "0" },
    { asset: "BTC", free: "0.00000000000000000001", locked: "0.5" },
    { asset: "DOGE", free: "0", locked: "0" },
  ],
  permissions: ["SPOT"],
};

/** The query and body's parameters, with batchOrders (a JSON list sent as one parameter) read as a list. */
function mexcParams(req: ReceivedRequest): FakeParams {
  const params = parseParams(req);
  if (typeof params.batchOrders === "string") params.batchOrders = JSON.parse(params.batchOrders);
  return params;
}

/** One symbol of "Exchange Information", in MEXC's shape. */
function symbolInfo(
  base: string,
  quote: string,
  status: string,
  quotePrecision: number,
  baseAssetPrecision: number,
  baseSizePrecision: string,
  more: { isSpotTradingAllowed?: boolean; tradeSideType?: string } = {},
) {
  return {
    symbol: `${base}${quote}`,
    status,
    baseAsset: base,
    baseAssetPrecision,
    quoteAsset: quote,
    quotePrecision,
    quoteAssetPrecision: quotePrecision,
    baseCommissionPrecision: baseAssetPrecision,
    quoteCommissionPrecision: quotePrecision,
    orderTypes: ["LIMIT", "MARKET", "LIMIT_MAKER"],
    isSpotTradingAllowed: more.isSpotTradingAllowed ?? true,
    isMarginTradingAllowed: false,
    quoteAmountPrecision: "1",
    baseSizePrecision,
    permissions: ["SPOT"],
    filters: [],
    maxQuoteAmount: "2000000",
    makerCommission: "0",
    takerCommission: "0.0005",
    quoteAmountPrecisionMarket: "1",
    maxQuoteAmountMarket: "100000",
    fullName: base,
    tradeSideType: more.tradeSideType ?? "1",
  };
}

/** The list the mock answers, unsorted: paused, offline, API-closed and close-only symbols, odd precisions. */
export const MEXC_SYMBOLS = [
  symbolInfo("ETH", "USDT", "1", 2, 5, "0.0001"),
  symbolInfo("BTC", "USDT", "1", 2, 6, "0.000001"),
  symbolInfo("PAUSE", "USDT", "2", 4, 2, "1"),
  symbolInfo("GONE", "USDT", "3", 4, 2, "1"),
  symbolInfo("NOAPI", "USDT", "1", 4, 2, "1", { isSpotTradingAllowed: false }),
  symbolInfo("CLOSE", "USDT", "1", 4, 2, "1", { tradeSideType: "4" }),
  symbolInfo("PEPE", "USDT", "1", 10, 0, "0"),
];

export async function startMexcMock(options: { now?: () => number } = {}): Promise<MexcMock> {
  const now = options.now ?? Date.now;
  const orders = new OrderStore<MexcMockOrder>(1196315350023612316n, (o) => o.orderId);

  const error = (status: number, code: number, msg: string): MockReply => ({ status, body: { code, msg } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers["x-mexc-apikey"] !== MEXC_KEY) return error(400, 10072, "Api key info invalid");
    const at = req.query.lastIndexOf("&signature=");
    if (at < 0) return error(400, 700002, "Signature for this request is not valid.");
    const totalParams = req.query.slice(0, at) + req.body;
    const signature = req.query.slice(at + "&signature=".length);
    if (signature !== createHmac("sha256", MEXC_SECRET).update(totalParams).digest("hex"))
      return error(400, 700002, "Signature for this request is not valid.");
    const q = parseQuery(req.query);
    const ts = Number(q.timestamp);
    const recvWindow = Number(q.recvWindow ?? 5000);
    if (recvWindow > 60000) return error(400, 700005, "recvWindow must less than 60000");
    const serverTime = now();
    if (!(ts < serverTime + 1000 && serverTime - ts <= recvWindow))
      return error(400, 700003, "Timestamp for this request is outside of the recvWindow.");
    return undefined;
  }

  function place(input: FakeParams): MexcMockOrder | { code: number; msg: string } {
    // LIMIT, or LIMIT_MAKER: maker only (docs/exchange-rules.md "Post-only")
    if (input.type !== "LIMIT" && input.type !== "LIMIT_MAKER") return { code: 700004, msg: "only LIMIT in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.quantity)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return { code: 30002, msg: "The minimum transaction volume cannot be less than:0.5USDT" };
    const t = now();
    const order: MexcMockOrder = {
      symbol: String(input.symbol),
      orderId: orders.nextId(),
      orderListId: -1,
      clientOrderId: String(input.newClientOrderId ?? ""),
      price: String(input.price),
      origQty: String(input.quantity),
      executedQty: "0",
      cummulativeQuoteQty: "0",
      status: "NEW",
      timeInForce: "",
      type: String(input.type),
      side: String(input.side),
      stopPrice: "",
      icebergQty: "",
      time: t,
      updateTime: t,
      isWorking: true,
      origQuoteOrderQty: "0",
    };
    return orders.add(order);
  }

  const cancelView = (o: MexcMockOrder) => {
    o.status = "CANCELED";
    o.updateTime = now();
    return {
      symbol: o.symbol,
      origClientOrderId: o.clientOrderId,
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
      price: o.price,
      origQty: o.origQty,
      executedQty: o.executedQty,
      cummulativeQuoteQty: o.cummulativeQuoteQty,
      status: o.status,
      timeInForce: o.timeInForce,
      type: o.type,
      side: o.side,
    };
  };

  const open = (o: MexcMockOrder) => o.status === "NEW" || o.status === "PARTIALLY_FILLED";
  const openOf = (symbol: unknown) => orders.filter((o) => o.symbol === symbol && open(o));

  // New Order: symbol, side, type and timestamp are mandatory; quantity and price for a LIMIT order.
  const ORDER = ["symbol", "side", "type", "quantity", "price"];
  const fake = await startFakeExchange({
    name: "mexc",
    // "Exchange Information" is public market data: no key
    isPublic: (req) => req.path === "/api/v3/exchangeInfo",
    verify,
    params: mexcParams,
    envelope: {
      ok: (body) => ({ body }),
      error: (e) => error(e.status ?? 400, Number(e.code), e.msg),
    },
    rateLimited: () => ({
      status: 429,
      headers: { "retry-after": "2" },
      body: { code: 429, msg: "Too Many Requests" },
    }),
    missing: (name) =>
      name.includes(" or ")
        ? { code: 700004, msg: "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!" }
        : { code: 33333, msg: `Parameter error: ${name}` },
    routes: {
      "POST /api/v3/order": {
        required: [...ORDER, "timestamp"],
        create: true,
        handle: ({ params }) => {
          const result = place(params);
          if (!("orderId" in result)) throw refuse(result.code, result.msg, 400);
          return {
            symbol: result.symbol,
            orderId: result.orderId,
            orderListId: -1,
            price: result.price,
            origQty: result.origQty,
            type: "LIMIT",
            side: result.side,
            transactTime: result.time,
          };
        },
      },
      "POST /api/v3/batchOrders": {
        required: [...ORDER.map((name) => `batchOrders[].${name}`), "timestamp"],
        handle: ({ params }) => {
          const list = params.batchOrders as FakeParams[];
          if (list.length > 20) throw refuse(700004, "batchOrders supports max 20 orders", 400);
          const answer = list.map((item, index) => {
            const fault = fake.takeBatchFault(index);
            const result =
              fault && "refuse" in fault ? { code: Number(fault.refuse.code), msg: fault.refuse.msg } : place(item);
            return "orderId" in result
              ? { symbol: result.symbol, orderId: result.orderId, orderListId: -1 }
              : { newClientOrderId: item.newClientOrderId, msg: result.msg, code: result.code };
          });
          fake.endBatch();
          return answer;
        },
      },
      "GET /api/v3/order": {
        required: ["symbol", ["orderId", "origClientOrderId"], "timestamp"],
        handle: ({ params: q }) => {
          const order = q.orderId
            ? orders.get(String(q.orderId))
            : orders.find((o) => o.clientOrderId === q.origClientOrderId);
          // Not in the docs' table, but what MEXC really answers (with its `_extend` field).
          if (!order || order.symbol !== q.symbol)
            return raw({ status: 400, body: { msg: "Order does not exist.", code: -2013, _extend: null } });
          return order;
        },
      },
      "DELETE /api/v3/order": {
        required: ["symbol", ["orderId", "origClientOrderId"], "timestamp"],
        handle: ({ params: q }) => {
          const order = q.orderId ? orders.get(String(q.orderId)) : undefined;
          if (!order || !open(order)) throw refuse(-2011, "Unknown order sent.", 400);
          return cancelView(order);
        },
      },
      "GET /api/v3/openOrders": {
        required: ["symbol", "timestamp"],
        handle: ({ params: q }) => openOf(q.symbol),
      },
      "DELETE /api/v3/openOrders": {
        required: ["symbol", "timestamp"],
        handle: ({ params: q }) => openOf(q.symbol).map(cancelView),
      },
      "GET /api/v3/exchangeInfo": {
        handle: () => ({
          timezone: "CST",
          serverTime: Date.now(),
          rateLimits: [],
          exchangeFilters: [],
          symbols: MEXC_SYMBOLS,
        }),
      },
      "GET /api/v3/account": {
        required: ["timestamp"],
        handle: () => ACCOUNT,
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    fake,
    orders,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(code, msg, status = 400) {
      fake.failNext({ code, msg, status });
    },
    refuseNextBatchItem(index, code, msg) {
      fake.refuseNextBatchItem(index, { code, msg });
    },
    close: () => fake.close(),
  };
}
