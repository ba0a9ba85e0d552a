import { createHmac } from "node:crypto";
import { type FakeExchange, type FakeParams, raw, refuse, startFakeExchange } from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * An XT spot v4 mock on 127.0.0.1. It verifies every request the way XT documents it: the four
 * validate-* headers (algorithms HmacSHA256), the timestamp within validate-recvwindow, and
 * validate-signature = hex HMAC-SHA256 over X + Y recomputed from the RAW received query (keys
 * sorted) and body: X = the headers sorted as key=value joined by '&', Y = #METHOD#path[#query][#body].
 * Answers are {rc, mc, ma, result}; rc 0 success, rc 1 with mc naming the failure. It runs on the
 * fake exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the parameters XT documents as required (symbol, side, type, timeInForce,
 * bizType, and price and quantity of a LIMIT order, per item of a batch too; orderId or
 * clientOrderId on a lookup; orderIds on a batch cancel; bizType on cancel-all). XT's docs name no
 * code for a missing one: the mock answers rc 1, mc ORDER_001 ("Platform rejection") with the field
 * in ma. XT documents no paging of the open orders (GET /v4/open-order answers them all), and a
 * batch cancel as a whole: one unknown or closed order fails it and cancels none.
 */
export interface XtMockOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string;
  baseCurrency: string;
  quoteCurrency: string;
  side: string;
  type: string;
  timeInForce: string;
  price: string;
  origQty: string;
  origQuoteQty: string;
  executedQty: string;
  leavingQty: string;
  tradeBase: string;
  tradeQuote: string;
  avgPrice: string;
  fee: string;
  feeCurrency: string;
  state: string;
  time: number;
  ip: string;
  updatedTime: number;
}

export interface XtMock {
  server: MockServer;
  url: string;
  orders: Map<string, XtMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(mc: string): void;
  /** the next batch rejects the item at this index (reject: true) */
  rejectNextBatchItem(index: number): void;
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/** One symbol of GET /v4/public/symbol in XT's documented shape, with its filters. */
function xtSymbol(
  id: number,
  base: string,
  quote: string,
  state: string,
  pricePrecision: number,
  quantityPrecision: number,
  price: { min: string | null; tickSize: string | null },
  quantity: { min: string | null; tickSize: string | null },
  quoteMin: string | null,
  tradingEnabled = true,
) {
  return {
    id,
    symbol: `${base}_${quote}`,
    state,
    tradingEnabled,
    openapiEnabled: true,
    nextStateTime: null,
    nextState: null,
    depthMergePrecision: 5,
    baseCurrency: base,
    baseCurrencyPrecision: 5,
    baseCurrencyId: id * 10,
    quoteCurrency: quote,
    quoteCurrencyPrecision: 6,
    quoteCurrencyId: 11,
    pricePrecision,
    quantityPrecision,
    orderTypes: ["LIMIT", "MARKET"],
    timeInForces: ["GTC", "FOK", "IOC", "GTX"],
    displayWeight: 1,
    displayLevel: "FULL",
    plates: [],
    filters: [
      { filter: "PROTECTION_LIMIT", buyMaxDeviation: "0.8", sellMaxDeviation: "0.8" },
      { filter: "PROTECTION_MARKET", maxDeviation: "0.1" },
      { filter: "PROTECTION_ONLINE", durationSeconds: "300", maxPriceMultiple: "5" },
      { filter: "PRICE", min: price.min, max: null, tickSize: price.tickSize },
      { filter: "QUANTITY", min: quantity.min, max: null, tickSize: quantity.tickSize },
      { filter: "QUOTE_QTY", min: quoteMin },
    ],
  };
}

/**
 * GET /v4/public/symbol's result: two ONLINE symbols (one whose filters give no tick size, so its
 * precisions count), one ONLINE with trading disabled, one SUSPEND and one DELISTED.
 */
export const XT_MOCK_SYMBOLS = {
  time: 1662444177871,
  version: "7cd2cfab0dc979339f1de904bd90c9cb",
  symbols: [
    xtSymbol(
      614,
      "btc",
      "usdt",
      "ONLINE",
      2,
      6,
      { min: null, tickSize: "0.01" },
      { min: "0.00001", tickSize: "0.000001" },
      "1",
    ),
    xtSymbol(640, "xt", "usdt", "ONLINE", 4, 2, { min: null, tickSize: null }, { min: null, tickSize: null }, null),
    xtSymbol(
      700,
      "pepe",
      "usdt",
      "ONLINE",
      10,
      0,
      { min: null, tickSize: "0.0000000001" },
      { min: "1000", tickSize: "1" },
      "5",
      false,
    ),
    xtSymbol(
      710,
      "luna",
      "usdt",
      "SUSPEND",
      4,
      2,
      { min: null, tickSize: "0.0001" },
      { min: "1", tickSize: "0.01" },
      "1",
    ),
    xtSymbol(
      720,
      "old",
      "btc",
      "DELISTED",
      8,
      2,
      { min: null, tickSize: "0.00000001" },
      { min: "1", tickSize: "0.01" },
      null,
    ),
  ],
};

export const XT_KEY = "3976eb88-76d0-4f6e-a6b2-a57980770085";
export const XT_SECRET = "bc6630d0231fda5cd98794f52c4998659beda290";

/** XT's signed message rebuilt from what was received. */
export function xtOriginal(req: ReceivedRequest): string {
  const h = req.headers;
  const x = `validate-algorithms=${h["validate-algorithms"]}&validate-appkey=${h["validate-appkey"]}&validate-recvwindow=${h["validate-recvwindow"]}&validate-timestamp=${h["validate-timestamp"]}`;
  const sortedQuery = req.query
    ? req.query
        .split("&")
        .map((p) => {
          const eq = p.indexOf("=");
          return [decodeURIComponent(p.slice(0, eq)), decodeURIComponent(p.slice(eq + 1))] as const;
        })
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${k}=${v}`)
        .join("&")
    : "";
  return `${x}#${req.method}#${req.path}${sortedQuery ? `#${sortedQuery}` : ""}${req.body ? `#${req.body}` : ""}`;
}

export async function startXtMock(options: { now?: () => number } = {}): Promise<XtMock> {
  const now = options.now ?? Date.now;
  const orders = new Map<string, XtMockOrder>();
  let seq = 6216559590087220004n;

  const error = (mc: string, status = 200, ma: unknown[] = []): MockReply => ({
    status,
    body: { rc: 1, mc, ma, result: null },
  });

  function verify(req: ReceivedRequest): MockReply | undefined {
    const h = req.headers;
    if (!h["validate-appkey"]) return error("AUTH_001");
    if (!h["validate-timestamp"]) return error("AUTH_002");
    if (!h["validate-recvwindow"]) return error("AUTH_003");
    const window = Number(h["validate-recvwindow"]);
    if (!(window > 0 && window <= 60000)) return error("AUTH_004");
    if (!h["validate-algorithms"]) return error("AUTH_005");
    if (h["validate-algorithms"] !== "HmacSHA256") return error("AUTH_006");
    if (!h["validate-signature"]) return error("AUTH_007");
    if (h["validate-appkey"] !== XT_KEY) return error("AUTH_101");
    if (h["validate-signature"] !== createHmac("sha256", XT_SECRET).update(xtOriginal(req)).digest("hex"))
      return error("AUTH_103");
    const ts = Number(h["validate-timestamp"]);
    const serverTime = now();
    if (!(ts < serverTime + 1000 && serverTime - ts <= window)) return error("AUTH_105");
    return undefined;
  }

  function place(input: FakeParams): XtMockOrder | string {
    // GTC, or GTX: maker only (docs/exchange-rules.md "Post-only")
    const tif = input.timeInForce;
    if (input.type !== "LIMIT" || (tif !== "GTC" && tif !== "GTX") || input.bizType !== "SPOT") return "ORDER_001";
    if (!/^\d+(\.\d+)?$/.test(String(input.quantity)) || !/^\d+(\.\d+)?$/.test(String(input.price))) return "ORDER_008";
    const client = String(input.clientOrderId ?? "");
    if (client && !/^[a-zA-Z0-9_]{4,22}$/.test(client)) return "ORDER_001";
    const t = now();
    const [base, quote] = String(input.symbol).split("_");
    const order: XtMockOrder = {
      symbol: String(input.symbol),
      orderId: String(seq++),
      clientOrderId: client,
      baseCurrency: base ?? "",
      quoteCurrency: quote ?? "",
      side: String(input.side),
      type: "LIMIT",
      timeInForce: String(tif),
      price: String(input.price),
      origQty: String(input.quantity),
      origQuoteQty: "0",
      executedQty: "0",
      leavingQty: String(input.quantity),
      tradeBase: "0",
      tradeQuote: "0",
      avgPrice: "0",
      fee: "0",
      feeCurrency: quote ?? "",
      state: "NEW",
      time: t,
      ip: "127.0.0.1",
      updatedTime: t,
    };
    orders.set(order.orderId, order);
    return order;
  }

  const open = (o: XtMockOrder) => o.state === "NEW" || o.state === "PARTIALLY_FILLED";
  const cancel = (o: XtMockOrder) => {
    o.state = "CANCELED";
    o.leavingQty = "0";
    o.updatedTime = now();
  };

  // Order: symbol, side, type, timeInForce and bizType; price and quantity for a LIMIT order.
  const ORDER = ["symbol", "side", "type", "timeInForce", "bizType", "price", "quantity"];
  const fake = await startFakeExchange({
    name: "xt",
    verify,
    // "For requests that start other than /public, the request message needs to be signed"
    isPublic: (req) => req.path.startsWith("/v4/public/"),
    envelope: {
      ok: (result) => ({ body: { rc: 0, mc: "SUCCESS", ma: [], result } }),
      error: (e) => error(String(e.code), e.status, (e.extra?.ma as unknown[]) ?? []),
    },
    rateLimited: () => ({
      status: 429,
      headers: { "retry-after": "3" },
      body: { rc: 1, mc: "FAILURE", ma: [], result: null },
    }),
    missing: (name) => ({
      code: "ORDER_001",
      msg: "Platform rejection",
      extra: { ma: [name.replace(/^items\[\]\./, "")] },
    }),
    routes: {
      "GET /v4/public/symbol": { handle: () => XT_MOCK_SYMBOLS },
      "POST /v4/order": {
        required: ORDER,
        create: true,
        handle: ({ params }) => {
          const result = place(params);
          if (typeof result === "string") throw refuse(result, result);
          return { orderId: result.orderId, ip: "127.0.0.1" };
        },
      },
      "POST /v4/batch-order": {
        required: ORDER.map((name) => `items[].${name}`),
        handle: ({ params }) => {
          const items = params.items as FakeParams[];
          const answer = {
            batchId: String(params.clientBatchId ?? seq),
            items: items.map((item, index) => {
              const fault = fake.takeBatchFault(index);
              const result = fault && "refuse" in fault ? String(fault.refuse.code) : place(item);
              return typeof result === "string"
                ? { index, clientOrderId: item.clientOrderId ?? null, orderId: null, reject: true, reason: result }
                : { index, clientOrderId: result.clientOrderId, orderId: result.orderId, reject: false, reason: null };
            }),
          };
          fake.endBatch();
          return answer;
        },
      },
      "GET /v4/order": {
        required: [["orderId", "clientOrderId"]],
        handle: ({ params: q }) => {
          const order = q.orderId
            ? orders.get(String(q.orderId))
            : [...orders.values()].find((o) => o.clientOrderId === q.clientOrderId);
          if (!order) throw refuse("ORDER_005", "Order not exist");
          return order;
        },
      },
      "GET /v4/order/:id": {
        handle: ({ path }) => {
          const order = orders.get(path.id!);
          if (!order) throw refuse("ORDER_005", "Order not exist");
          return order;
        },
      },
      "DELETE /v4/order/:id": {
        handle: ({ path }) => {
          const order = orders.get(path.id!);
          if (!order || !open(order)) throw refuse("ORDER_005", "Order not exist");
          cancel(order);
          return { cancelId: order.orderId };
        },
      },
      "DELETE /v4/batch-order": {
        required: ["orderIds"],
        handle: ({ params }) => {
          const list = (params.orderIds as string[]).map((id) => orders.get(String(id)));
          if (list.some((o) => !o || !open(o))) throw refuse("ORDER_005", "Order not exist");
          for (const o of list) cancel(o!);
          return {};
        },
      },
      "DELETE /v4/open-order": {
        required: ["bizType"],
        handle: ({ params: b }) => {
          if (b.bizType !== "SPOT") throw refuse("FAILURE", "FAILURE");
          for (const o of orders.values()) if ((!b.symbol || o.symbol === b.symbol) && open(o)) cancel(o);
          return {};
        },
      },
      "GET /v4/open-order": {
        handle: ({ params: q }) => [...orders.values()].filter((o) => (!q.symbol || o.symbol === q.symbol) && open(o)),
      },
      // A raw body: the BTC amount is a JSON number literal longer than 15 characters (docs/exchange-rules.md#limits).
      "GET /v4/balances": {
        handle: () =>
          raw({
            body:
              '{"rc":0,"mc":"SUCCESS","ma":[],"result":{"totalBtcAmount":0.5,"assets":[' +
              '{"currency":"usdt","currencyId":11,"frozenAmount":"120","availableAmount":"1000.5","totalAmount":"1120.5","convertBtcAmount":0.01},' +
              '{"currency":"btc","currencyId":2,"frozenAmount":0,"availableAmount":0.12345678901234567890,"totalAmount":0.12345678901234567890,"convertBtcAmount":0.12},' +
              '{"currency":"xt","currencyId":3,"frozenAmount":0,"availableAmount":0,"totalAmount":0,"convertBtcAmount":0}]}}',
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
    failNext(mc) {
      fake.failNext({ code: mc, msg: mc });
    },
    rejectNextBatchItem(index) {
      fake.refuseNextBatchItem(index, { code: "ORDER_002", msg: "Insufficient funds" });
    },
    close: () => fake.close(),
  };
}
