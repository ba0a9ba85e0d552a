import { createHmac } from "node:crypto";
import { type FakeExchange, raw, refuse, startFakeExchange } from "../core/testing/fake-exchange.js";
import { type MockReply, type MockServer, parseQuery, type ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A Bitrue spot v1 mock on 127.0.0.1. It verifies every SIGNED request the way Bitrue documents it
 * (Spot-official-api-docs README): X-MBX-APIKEY; `signature` = hex HMAC-SHA256 of totalParams (the raw
 * query without `&signature=…`, concatenated with the raw body); timestamp < serverTime + 1000 and
 * serverTime − timestamp <= recvWindow (5000 unless sent). Failures are {code, msg} with the HTTP
 * status of the docs' "Error Codes" table: -1022/401 for a bad signature, timestamp or key, -2013/200
 * for an unknown order, -2010/406 for a rejected placement or cancellation, -1102 and -1111/412.
 * Order ids are 18-digit numbers with their orderIdStr, as in the docs' New order answer. It runs
 * on the fake exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the parameters Bitrue documents as mandatory (symbol, side, type, quantity and
 * price of a LIMIT order; symbol and orderId or origClientOrderId on a cancel or a lookup; symbol on
 * the order lists; timestamp everywhere) and answers -1102/412 otherwise. Bitrue has no batch or
 * cancel-all call, and documents no paging of the open orders (GET /api/v1/openOrders answers them all).
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
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/**
 * GET /api/v1/exchangeInfo as Bitrue documents it: ETHBTC with step filters and MIN_NOTIONAL,
 * BTCUSDT (the pair the CLI scenario trades), two TRADING symbols whose filters write the steps as digits (priceScale, volumeScale) and the minimum
 * value as minVal, one with a 10-digit price and whole-unit amounts, and one HALT symbol.
 */
export const BITRUE_MOCK_EXCHANGE_INFO = {
  timezone: "UTC",
  serverTime: 1508631584636,
  rateLimits: [
    { rateLimitType: "REQUESTS_WEIGHT", interval: "MINUTE", limit: 1200 },
    { rateLimitType: "ORDERS", interval: "SECOND", limit: 10 },
    { rateLimitType: "ORDERS", interval: "DAY", limit: 100000 },
  ],
  exchangeFilters: [],
  symbols: [
    {
      symbol: "ETHBTC",
      status: "TRADING",
      baseAsset: "ETH",
      baseAssetPrecision: 8,
      quoteAsset: "BTC",
      quotePrecision: 8,
      orderTypes: ["LIMIT", "MARKET"],
      icebergAllowed: false,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.00000100", maxPrice: "100000.00000000", tickSize: "0.00000100" },
        { filterType: "LOT_SIZE", minQty: "0.00100000", maxQty: "100000.00000000", stepSize: "0.00100000" },
        { filterType: "MIN_NOTIONAL", minNotional: "0.00100000" },
      ],
    },
    {
      // the pair the CLI scenario trades
      symbol: "btcusdt",
      status: "TRADING",
      baseAsset: "btc",
      baseAssetPrecision: 6,
      quoteAsset: "usdt",
      quotePrecision: 2,
      orderTypes: ["MARKET", "LIMIT"],
      icebergAllowed: false,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.01", maxPrice: "1000000.00", priceScale: 2 },
        { filterType: "LOT_SIZE", minQty: "0.00001", minVal: "5.0", maxQty: "9000.000000", volumeScale: 6 },
      ],
    },
    {
      symbol: "xrpusdt",
      status: "TRADING",
      baseAsset: "xrp",
      baseAssetPrecision: 1,
      quoteAsset: "usdt",
      quotePrecision: 5,
      orderTypes: ["MARKET", "LIMIT"],
      icebergAllowed: false,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.00010", maxPrice: "100.00000", priceScale: 5 },
        { filterType: "LOT_SIZE", minQty: "0.1", minVal: "5.0", maxQty: "2000000.0", volumeScale: 1 },
      ],
    },
    {
      symbol: "shibusdt",
      status: "TRADING",
      baseAsset: "shib",
      baseAssetPrecision: 0,
      quoteAsset: "usdt",
      quotePrecision: 10,
      orderTypes: ["MARKET", "LIMIT"],
      icebergAllowed: false,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.0000000001", maxPrice: "1.0000000000", priceScale: 10 },
        { filterType: "LOT_SIZE", minQty: "1000", minVal: "1.0", maxQty: "100000000000", volumeScale: 0 },
      ],
    },
    {
      symbol: "lunausdt",
      status: "HALT",
      baseAsset: "luna",
      baseAssetPrecision: 2,
      quoteAsset: "usdt",
      quotePrecision: 4,
      orderTypes: ["MARKET", "LIMIT"],
      icebergAllowed: false,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.0001", maxPrice: "1000.0000", priceScale: 4 },
        { filterType: "LOT_SIZE", minQty: "0.01", minVal: "1.0", maxQty: "1000000.00", volumeScale: 2 },
      ],
    },
  ],
  coins: [
    {
      coin: "btr",
      coinFulName: "Bitrue Coin",
      enableWithdraw: true,
      enableDeposit: true,
      chains: ["ERC20", "BEP20"],
      withdrawFee: "161.0",
      minWithdraw: "1961.067474",
      maxWithdraw: "88888888",
    },
  ],
};

export const BITRUE_KEY = "vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A";
export const BITRUE_SECRET = "NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j";

export async function startBitrueMock(options: { now?: () => number } = {}): Promise<BitrueMock> {
  const now = options.now ?? Date.now;
  const orders = new Map<string, BitrueMockOrder>();
  let seq = 1;

  const error = (status: number, code: number, msg: string): MockReply => ({ status, body: { code, msg } });
  const UNAUTHORIZED = "Invalid signature or Invalid timestamp or Unauthorized for API.";
  const rejected = () => refuse(-2010, "Order placement or cancellation or withdrawal rejected.", 406);

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
    return undefined;
  }

  const open = (o: BitrueMockOrder) => o.status === "NEW" || o.status === "PARTIALLY_FILLED";
  const find = (q: Record<string, unknown>) =>
    q.orderId
      ? orders.get(String(q.orderId))
      : [...orders.values()].find((o) => o.clientOrderId === q.origClientOrderId);
  // Bitrue's 18-digit order ids are JSON number literals (beyond 2^53): written as raw text, never via Number().
  const text = (value: unknown): string => JSON.stringify(value).replace(/"orderId":"(\d+)"/g, '"orderId":$1');
  const notFound = () => refuse(-2013, "Could not find order information for given order ID.", 200);
  const ORDER = ["symbol", "side", "type", "quantity", "price", "timestamp"];
  const ONE = ["symbol", ["orderId", "origClientOrderId"], "timestamp"];

  const fake = await startFakeExchange({
    name: "bitrue",
    verify,
    // general endpoints: no key, no signature (docs/exchange-rules.md#pairs)
    isPublic: (req) => req.method === "GET" && req.path === "/api/v1/exchangeInfo",
    envelope: {
      ok: (data) => ({ body: text(data) }),
      error: (e) => error(e.status ?? 400, Number(e.code), e.msg),
    },
    // "If you got a 429, you could get the policy name from response header with key rate_limit_p."
    rateLimited: () => ({
      status: 429,
      headers: { "retry-after": "4", rate_limit_p: "orders_user_seconds" },
      body: { code: -1003, msg: "Too many requests." },
    }),
    missing: () => ({ code: -1102, msg: "Mandatory parameter is missing or illegal.", status: 412 }),
    routes: {
      "GET /api/v1/exchangeInfo": { handle: () => BITRUE_MOCK_EXCHANGE_INFO },
      "POST /api/v1/order": {
        required: ORDER,
        create: true,
        handle: ({ params: q }) => {
          if (q.type !== "LIMIT" || !/^\d+(\.\d+)?$/.test(String(q.quantity)) || !/^\d+(\.\d+)?$/.test(String(q.price)))
            throw refuse(-1111, "Invalid volume or price or address given.", 412);
          if (q.newClientOrderId && [...orders.values()].some((o) => o.clientOrderId === q.newClientOrderId))
            throw rejected();
          const t = now();
          const order: BitrueMockOrder = {
            symbol: String(q.symbol),
            orderId: String(307650651173648896n + BigInt(seq++)),
            clientOrderId: q.newClientOrderId ? String(q.newClientOrderId) : `auto${seq}`,
            price: String(q.price),
            origQty: String(q.quantity),
            executedQty: "0.0",
            cummulativeQuoteQty: "0.0",
            status: "NEW",
            timeInForce: String(q.timeInForce ?? "GTC"),
            type: "LIMIT",
            side: String(q.side),
            stopPrice: "0.0",
            icebergQty: "0.0",
            time: t,
            updateTime: t,
            isWorking: true,
          };
          orders.set(order.orderId, order);
          return {
            symbol: order.symbol,
            orderId: order.orderId,
            orderIdStr: order.orderId,
            clientOrderId: order.clientOrderId,
            transactTime: t,
          };
        },
      },
      "GET /api/v1/order": {
        required: ONE,
        handle: ({ params: q }) => {
          const order = find(q);
          if (!order || order.symbol !== q.symbol) throw notFound();
          return order;
        },
      },
      "DELETE /api/v1/order": {
        required: ONE,
        handle: ({ params: q }) => {
          const order = find(q);
          if (!order || order.symbol !== q.symbol) throw notFound();
          if (!open(order)) throw rejected();
          order.status = "CANCELED";
          order.updateTime = now();
          return {
            symbol: order.symbol,
            origClientOrderId: order.clientOrderId,
            orderId: order.orderId,
            clientOrderId: `cancel${order.clientOrderId}`,
          };
        },
      },
      "GET /api/v1/openOrders": {
        required: ["symbol", "timestamp"],
        handle: ({ params: q }) => [...orders.values()].filter((o) => o.symbol === q.symbol && open(o)),
      },
      // "Get all account orders; active, canceled, or filled" — most recent first.
      "GET /api/v1/allOrders": {
        required: ["symbol", "timestamp"],
        handle: ({ params: q }) => [...orders.values()].filter((o) => o.symbol === q.symbol).reverse(),
      },
      // A raw body: the LTC balance is a JSON number literal longer than 15 characters (docs/exchange-rules.md#limits).
      "GET /api/v1/account": {
        required: ["timestamp"],
        handle: () =>
          raw({
            body:
              '{"makerCommission":15,"takerCommission":15,"buyerCommission":0,"sellerCommission":0,"canTrade":true,"canWithdraw":true,"canDeposit":true,"updateTime":123456789,' +
              '"balances":[{"asset":"BTC","free":"4723846.89208129","locked":"0.00000000"},{"asset":"ltc","free":4763368.680060111234567,"locked":"1.5"},{"asset":"XRP","free":"0.00000000","locked":"0.00000000"}]}',
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
    failNext(code, msg, status = 400) {
      fake.failNext({ code, msg, status });
    },
    close: () => fake.close(),
  };
}
