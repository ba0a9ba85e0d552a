import { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, notPlacedMessage, num, parseAnswer } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepText, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { BITMART_CODE, BITMART_ERRORS } from "./info.js";

export { BITMART_CODE, BITMART_ERRORS };

/**
 * BitMart spot (https://developer-pro.bitmart.com/en/spot/): headers X-BM-KEY, X-BM-TIMESTAMP (ms)
 * and X-BM-SIGN = hex HMAC-SHA256 of `timestamp#memo#payload`, where the memo is the key's
 * passphrase (docs/exchange-rules.md#entities) and the payload is the JSON body of a POST or the query string of a GET.
 * v4 endpoints take `recvWindow` (5000, docs/exchange-rules.md#limits) in the body; v2/v3 ones do not document it.
 *
 * Success: BitMart answers {code, message, trace, data} and documents code 1000 ("OK") as success
 * (with HTTP 200). docs/exchange-rules.md#errors lists bitmart's success as 200 — that is the HTTP status which
 * accompanies code 1000, not a body code BitMart sends; so success here is body code 1000.
 */
export const BITMART_BASE_URL = "https://api-cloud.bitmart.com";
export const BITMART_RECV_WINDOW = 5000;

/** The most open orders one page of /spot/v4/query/open-orders holds (docs: limit [1, 200]). */
export const BITMART_OPEN_PAGE = 200;
export const BITMART_SUCCESS = 1000;

export const BITMART_PATHS = {
  submitOrder: "/spot/v2/submit_order",
  batchOrders: "/spot/v4/batch_orders",
  cancelOrder: "/spot/v3/cancel_order",
  cancelOrders: "/spot/v4/cancel_orders",
  cancelAll: "/spot/v4/cancel_all",
  queryOrder: "/spot/v4/query/order",
  queryClientOrder: "/spot/v4/query/client-order",
  openOrders: "/spot/v4/query/open-orders",
  wallet: "/account/v1/wallet",
  symbolsDetails: "/spot/v1/symbols/details",
} as const;

type Params = Record<string, unknown>;

/** Builds the signed request: the JSON body (POST) or query (GET) is built once, signed and sent. */
export function bitmartSignedRequest(
  credentials: Pick<Credentials, "api" | "secret" | "password">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  params: Params = {},
): HttpRequest {
  const query = method === "GET" ? buildQuery(params as Record<string, string | number | undefined>) : "";
  const body = method === "GET" ? "" : JSON.stringify(params);
  const ts = String(timestamp);
  return {
    method,
    path,
    query,
    body,
    headers: {
      "X-BM-KEY": credentials.api,
      "X-BM-TIMESTAMP": ts,
      "X-BM-SIGN": hmacSha256Hex(
        credentials.secret,
        `${ts}#${credentials.password ?? ""}#${method === "GET" ? query : body}`,
      ),
      ...(method === "GET" ? {} : { "Content-Type": "application/json" }),
    },
  };
}

/** The v4 order object of query/order, query/client-order and query/open-orders. */
const BitmartOrderSchema = z.object({
  orderId: id,
  clientOrderId: z.string().nullable().optional(),
  symbol: z.string().optional(),
  side: z.string(),
  type: z.string().optional(),
  state: z.string().optional(),
  price: num.optional(),
  size: num.optional(),
  filledSize: num.optional(),
  createTime: num.optional(),
});

const EnvelopeSchema = z.object({ code: num, message: z.string().optional(), data: z.unknown().optional() });

/**
 * docs/exchange-rules.md#states by the general table: new and partially_filled are open, filled is closed, canceled
 * and partially_canceled are canceled (docs/decisions.md#d9: only the exact 'PARTIALLY_CANCELED' spelling is
 * open, and that is mexc's; BitMart's word is kept in rawStatus).
 */
export function parseBitmartOrder(raw: unknown, pair: string): Order {
  const o = parseAnswer("bitmart", BitmartOrderSchema, raw);
  const order: Order = {
    pair,
    id: o.orderId,
    clientOrderId: o.clientOrderId ?? "",
    price: toDecimalString(o.price),
    amount: toDecimalString(o.size),
    filled: toDecimalString(o.filledSize),
    type: (o.type ?? "limit").toLowerCase(),
    side: parseSide(o.side),
    status: normalizeStatus("bitmart", o.state),
    timestamp: toMillis(o.createTime),
  };
  if (o.state !== undefined) order.rawStatus = o.state;
  return order;
}

/** GET /account/v1/wallet: available is free, frozen is what orders lock (BitMart returns only non-zero assets). */
export function parseBitmartBalances(data: unknown): Balances {
  const { wallet } = parseAnswer(
    "bitmart",
    z.object({
      wallet: z
        .array(z.object({ currency: z.string(), available: num, frozen: num }))
        .nullable()
        .optional(),
    }),
    data,
  );
  return collectBalances((wallet ?? []).map((w) => ({ currency: w.currency, free: w.available, locked: w.frozen })));
}

/**
 * GET /spot/v1/symbols/details: data.symbols, each with trade_status (trading, or pre-trade before
 * it opens), price_max_precision (the price's decimal places), quote_increment ("the minimum order
 * quantity is also the minimum order quantity increment"), base_min_size (the minimum order
 * quantity) and min_buy_amount / min_sell_amount (the minimum order amount, in the quote currency).
 */
const BitmartSymbolsSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      base_currency: z.string(),
      quote_currency: z.string(),
      quote_increment: stepValue,
      base_min_size: stepValue.optional(),
      price_max_precision: precisionDigits,
      min_buy_amount: stepValue.optional(),
      min_sell_amount: stepValue.optional(),
      trade_status: z.string(),
    }),
  ),
});

/** The larger of the two minimum amounts: an order of either side passes it. */
function largerOf(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return new Decimal(a).isGreaterThanOrEqualTo(b) ? a : b;
}

/** docs/exchange-rules.md#pairs: the pairs trading now; tick 10^-price_max_precision, lot quote_increment. */
export function parseBitmartPairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("bitmart", BitmartSymbolsSchema, raw, "data")
      .symbols.filter((s) => s.trade_status === "trading")
      .map((s) => ({
        base: s.base_currency,
        quote: s.quote_currency,
        tick: digitsToStep(s.price_max_precision),
        lot: stepText(s.quote_increment),
        minAmount: minimum(s.base_min_size),
        minNotional: largerOf(minimum(s.min_buy_amount), minimum(s.min_sell_amount)),
      })),
  );
}

export class BitmartAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    // client_order_id: "case-sensitive alphanumerics ... up to 32 characters" — 32 hex (docs/decisions.md#d11).
    super("bitmart", credentials, options, {
      baseUrl: BITMART_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, params: Params = {}): Promise<unknown> {
    return this.unwrap(await this.sendJson(bitmartSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** {code, message, trace, data}: code 1000 with HTTP 200 is success. */
  protected unwrap(response: JsonResponse): unknown {
    const parsed = EnvelopeSchema.safeParse(response.json);
    if (!parsed.success)
      throw this.fail(undefined, `Unexpected answer (HTTP ${response.status})`, response.status, response.headers);
    const { code, message = "" } = parsed.data;
    if (isCode(code, BITMART_SUCCESS) && response.status < 400) return parsed.data.data;
    // X-BM-RateLimit-Reset is the length of the current limit window in seconds (docs: "Current
    // time window, in seconds"; 600 calls per 60 s reads Limit 600, Reset 60): waiting one whole
    // window is the safe hint, as BitMart gives no time of reset.
    const reset = Number(response.headers["x-bm-ratelimit-reset"]);
    throw this.fail(code, message || `HTTP ${response.status}`, response.status, response.headers, {
      retryAfterMs: Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined,
    });
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "_");
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    // A BitMart limit order rests until filled or canceled (good-till-cancel); v2 takes snake_case.
    const data = await this.call("POST", BITMART_PATHS.submitOrder, {
      symbol: this.symbol(order.pair),
      side: order.side === "Buy" ? "buy" : "sell",
      // docs/exchange-rules.md "Post-only": maker only is an order type
      type: order.postOnly ? "limit_maker" : "limit",
      size: order.amount,
      price: order.price,
      client_order_id: order.clientOrderId,
    });
    // "The request is successful only when order_id is returned."
    const orderId = z.object({ order_id: id }).safeParse(data);
    if (!orderId.success)
      throw new ExchangeError(this.id, "Order was not placed: no order_id in the answer", { kind: "invalid-order" });
    return this.placed(order, orderId.data.order_id);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () =>
      parseBitmartOrder(
        await this.call("POST", BITMART_PATHS.queryClientOrder, { clientOrderId, recvWindow: BITMART_RECV_WINDOW }),
        pair,
      ),
    );
  }

  protected async submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const data = await this.call("POST", BITMART_PATHS.batchOrders, {
      symbol: this.symbol(pair),
      orderParams: orders.map((o) => ({
        clientOrderId: o.clientOrderId,
        size: o.amount,
        price: o.price,
        side: o.side === "Buy" ? "buy" : "sell",
        type: o.postOnly ? "limit_maker" : "limit",
      })),
      recvWindow: BITMART_RECV_WINDOW,
    });
    // The documented answer nests its own {code, msg, data: {orderIds}} (0 there is success);
    // a flat data {orderIds} is read too.
    const inner = this.parse(
      z.object({
        code: num.optional(),
        msg: z.string().optional(),
        data: z
          .object({ orderIds: z.array(id).optional() })
          .nullable()
          .optional(),
        orderIds: z.array(id).optional(),
      }),
      data ?? {},
    );
    if (inner.code !== undefined && !isCode(inner.code, 0)) throw this.fail(inner.code, inner.msg ?? "Batch failed");
    const ids = inner.data?.orderIds ?? inner.orderIds ?? [];
    if (ids.length !== orders.length) {
      throw new ExchangeError(this.id, notPlacedMessage({ placed: ids.length, total: orders.length }), {
        kind: "invalid-order",
      });
    }
    return orders.map((order, i) => this.placed(order, ids[i]!));
  }

  protected async submitCancel(pair: string, orderId: string): Promise<string> {
    const data = this.parse(
      z.object({ result: z.boolean().optional() }),
      (await this.call("POST", BITMART_PATHS.cancelOrder, { symbol: this.symbol(pair), order_id: orderId })) ?? {},
    );
    // "result = false indicates that the cancel failed because the order was matched or cancelled."
    if (data.result === false) {
      throw new ExchangeError(this.id, `Cancel failed: order ${orderId} was already filled or canceled`, {
        kind: "order-not-found",
      });
    }
    return orderId;
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const data = this.parse(
      z.object({ successIds: z.array(id).nullable().optional(), failIds: z.array(id).nullable().optional() }),
      (await this.call("POST", BITMART_PATHS.cancelOrders, {
        symbol: this.symbol(pair),
        orderIds: ids,
        recvWindow: BITMART_RECV_WINDOW,
      })) ?? {},
    );
    const failed = data.failIds ?? [];
    const done = data.successIds ?? [];
    // A partly failed batch resolves to the ids BitMart cancelled (ExchangeAdapter.cancelBatch;
    // docs/orders.md "Cancels"); one that cancelled none fails.
    if (failed.length && !done.length) {
      throw new ExchangeError(this.id, `Cancel failed for ${failed.join(", ")}`, { kind: "order-not-found" });
    }
    return done;
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    // BitMart answers data {}: it does not say which orders it canceled.
    await this.call("POST", BITMART_PATHS.cancelAll, { symbol: this.symbol(pair) });
    return [];
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    const p = this.pairOf(pair);
    return parseBitmartOrder(
      await this.call("POST", BITMART_PATHS.queryOrder, {
        orderId: this.orderId(orderId),
        recvWindow: BITMART_RECV_WINDOW,
      }),
      p,
    );
  }

  /**
   * docs/exchange-rules.md#paging: BitMart pages its open orders by time window only. Pages of 200
   * (the documented maximum and bitmart's open-orders limit), newest first; the next page ends
   * (`endTime`, included) at the creation time of the last order seen, so orders sharing that
   * millisecond are asked again and kept once.
   */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    const query = {
      symbol: this.symbol(p),
      orderMode: "spot",
      limit: BITMART_OPEN_PAGE,
      recvWindow: BITMART_RECV_WINDOW,
    };
    return collectPages(
      "bitmart",
      "open orders",
      (o) => o.id,
      async (_index, last) => {
        const data = await this.call(
          "POST",
          BITMART_PATHS.openOrders,
          last ? { ...query, endTime: last.timestamp } : query,
        );
        const rows = this.parse(z.array(z.unknown()), data ?? []);
        return { items: rows.map((raw) => parseBitmartOrder(raw, p)), more: rows.length === BITMART_OPEN_PAGE };
      },
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseBitmartBalances((await this.call("GET", BITMART_PATHS.wallet)) ?? {});
  }

  /** docs/exchange-rules.md#pairs: the public trading pair details, sent without a key or signature. */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseBitmartPairs(this.unwrap(await this.publicGet(BITMART_PATHS.symbolsDetails)));
  }
}

export function createBitmartExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new BitmartAdapter(credentials, options);
}
