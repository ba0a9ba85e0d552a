import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol, normalizePair } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { batchFailureMessage, id, num, parseAnswer, partlyPlaced } from "../core/answer.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { COINSTORE_CODE, COINSTORE_ERRORS } from "./info.js";

export { COINSTORE_CODE, COINSTORE_ERRORS };

/**
 * Coinstore spot, checked against the official docs (coinstore-openapi.github.io/en, "Signature
 * Authentication", "Order Related"): headers X-CS-APIKEY, X-CS-EXPIRES (13-digit ms) and X-CS-SIGN,
 * Content-Type application/json. The signature is a double HMAC keyed by the 30-second time bucket
 * (docs/exchange-rules.md#calls, #limits): key = hex HMAC-SHA256(secret, floor(expires / 30000)), then X-CS-SIGN = hex
 * HMAC-SHA256(key as its hex text, payload), where the payload is the query string of a GET and the
 * JSON body of a POST ("{}" when there is nothing to send), unsorted, exactly as sent.
 * Answers are {code, message|msg, data}; code 0 (number or "0") is success.
 */
export const COINSTORE_BASE_URL = "https://api.coinstore.com";

export const COINSTORE_PATHS = {
  place: "/api/trade/order/place",
  placeBatch: "/api/trade/order/placeBatch",
  cancel: "/api/trade/order/cancel",
  cancelBatch: "/api/trade/order/cancelBatch",
  accountList: "/api/spot/accountList",
  orderInfo: "/api/v2/trade/order/orderInfo",
  active: "/api/v2/trade/order/active",
  symbols: "/api/v2/public/config/spot/symbols",
} as const;

/** docs/exchange-rules.md#limits: "coinstore signing time bucket 30 seconds". */
export const COINSTORE_BUCKET_MS = 30_000;

/** The per-bucket key: hex HMAC-SHA256 of floor(expires / 30000) under the secret. */
export function coinstoreBucketKey(secret: string, expires: number): string {
  return hmacSha256Hex(secret, String(Math.floor(expires / COINSTORE_BUCKET_MS)));
}

export function coinstoreSignature(secret: string, expires: number, payload: string): string {
  return hmacSha256Hex(coinstoreBucketKey(secret, expires), payload);
}

/** Builds one signed request exactly as it goes on the wire: GET params in the query, POST as JSON. */
export function coinstoreSignedRequest(
  credentials: Credentials,
  nowMs: number,
  method: HttpMethod,
  path: string,
  params: Record<string, unknown> = {},
): HttpRequest {
  const get = method === "GET";
  const query = get ? buildQuery(params as Record<string, string>) : "";
  const body = get ? "" : JSON.stringify(params);
  return {
    method,
    path,
    query,
    body,
    headers: {
      "Content-Type": "application/json",
      "X-CS-APIKEY": credentials.api,
      "X-CS-EXPIRES": String(nowMs),
      "X-CS-SIGN": coinstoreSignature(credentials.secret, nowMs, get ? query : body),
    },
  };
}

/**
 * The order object of orderInfo and active (v2). The v2 answers name the status `ordStatus`; the v1
 * orderInfo names it `ordState`: either is read.
 */
const CoinstoreOrderSchema = z.object({
  symbol: z.string().optional(),
  baseCurrency: z.string().optional(),
  quoteCurrency: z.string().optional(),
  ordId: id,
  clOrdId: z.string().nullable().optional(),
  side: z.string(),
  ordType: z.string().optional(),
  ordStatus: z.string().optional(),
  ordState: z.string().optional(),
  ordPrice: num.optional(),
  ordQty: num.optional(),
  cumQty: num.optional(),
  timestamp: num.optional(),
});

const AccountRowSchema = z.object({
  currency: z.string(),
  balance: num,
  type: num.optional(),
  typeName: z.string().optional(),
});

/**
 * docs/exchange-rules.md#entities: coinstore gives seconds, multiplied by 1000 (toMillis keeps a value that is already
 * in milliseconds, as the v2 docs' examples are). Statuses follow the general rule (SUBMITTING,
 * SUBMITTED, PARTIAL_FILLED open; FILLED closed; CANCELED, NOT_FOUND canceled).
 */
export function parseCoinstoreOrder(raw: unknown, pair: string): Order {
  const order = parseAnswer("coinstore", CoinstoreOrderSchema, raw);
  const state = order.ordStatus ?? order.ordState;
  const fromCurrencies =
    order.baseCurrency && order.quoteCurrency
      ? normalizePair(`${order.baseCurrency}/${order.quoteCurrency}`, "coinstore")
      : pair;
  return {
    pair: fromCurrencies,
    id: order.ordId,
    clientOrderId: order.clOrdId ?? "",
    price: toDecimalString(order.ordPrice),
    amount: toDecimalString(order.ordQty),
    filled: toDecimalString(order.cumQty),
    type: (order.ordType ?? "LIMIT").toLowerCase(),
    side: parseSide(order.side),
    status: normalizeStatus("coinstore", state),
    timestamp: toMillis(order.timestamp),
    ...(state !== undefined ? { rawStatus: state } : {}),
  };
}

/** v2 orderInfo answers `data: [ORDER]` (v1: a bare ORDER); NOT_FOUND or an empty list means no such order. */
export function coinstoreOrderFromInfo(data: unknown, pair: string): Order | undefined {
  const row = Array.isArray(data) ? data[0] : data;
  if (row === null || row === undefined) return undefined;
  const order = parseCoinstoreOrder(row, pair);
  return order.rawStatus === "NOT_FOUND" ? undefined : order;
}

/** accountList gives one row per currency and type: AVAILABLE (type 1) is free, FROZEN (type 4) locked. */
export function parseCoinstoreBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("coinstore", z.array(AccountRowSchema), raw).map((row) => {
      const frozen = row.typeName === "FROZEN" || String(row.type) === "4";
      return { currency: row.currency, free: frozen ? "0" : row.balance, locked: frozen ? row.balance : "0" };
    }),
  );
}

export class CoinstoreAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions) {
    super("coinstore", credentials, options, {
      baseUrl: COINSTORE_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, params: Record<string, unknown> = {}): Promise<unknown> {
    return this.unwrap(await this.sendJson(coinstoreSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** {code, message, data}: code 0 is success. */
  protected unwrap(response: JsonResponse): unknown {
    const json = (response.json ?? {}) as { code?: unknown; message?: unknown; msg?: unknown; data?: unknown };
    if (response.status < 400 && isCode(json.code, COINSTORE_CODE.SUCCESS)) return json.data;
    const code = typeof json.code === "number" || typeof json.code === "string" ? json.code : undefined;
    const text =
      typeof json.message === "string" && json.message ? json.message : typeof json.msg === "string" ? json.msg : "";
    throw this.fail(code, text || `HTTP ${response.status}`, response.status, response.headers);
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "");
  }

  private limitOrder(order: OrderToPlace) {
    return {
      clOrdId: order.clientOrderId,
      side: order.side === "Buy" ? "BUY" : "SELL",
      // docs/exchange-rules.md "Post-only": maker only is an order type
      ordType: order.postOnly ? "POST_ONLY" : "LIMIT",
      timeInForce: "GTC",
      ordPrice: order.price,
      ordQty: order.amount,
    };
  }

  /** `timestamp` (ms) is a required body field of place and placeBatch (docs "Create order"). */
  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    // The table names the answer's id `ordId`; the docs' example answer writes `order_id`: either is read.
    const data = this.parse(
      z
        .object({ ordId: id.optional(), order_id: id.optional() })
        .refine((d) => d.ordId !== undefined || d.order_id !== undefined, "ordId missing"),
      await this.call("POST", COINSTORE_PATHS.place, {
        symbol: this.symbol(order.pair),
        ...this.limitOrder(order),
        timestamp: this.now(),
      }),
    );
    return this.placed(order, (data.ordId ?? data.order_id)!);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () =>
      coinstoreOrderFromInfo(await this.call("GET", COINSTORE_PATHS.orderInfo, { clOrdId: clientOrderId }), pair),
    );
  }

  protected async submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const data = this.parse(
      z.array(
        // docs "Batch ordering": each item is {ordId, clOrdId, errno, errMsg}
        z.object({
          ordId: id.nullable().optional(),
          clOrdId: z.string().nullable().optional(),
          errno: num.nullable().optional(),
          errMsg: z.string().nullable().optional(),
        }),
      ),
      await this.call("POST", COINSTORE_PATHS.placeBatch, {
        symbol: this.symbol(pair),
        orders: orders.map((o) => this.limitOrder(o)),
        timestamp: this.now(),
      }),
    );
    const failed = data.find(
      (item) => !item.ordId || (item.errno !== undefined && item.errno !== null && Number(item.errno) !== 0),
    );
    if (failed || data.length !== orders.length) {
      const ok = (item: (typeof data)[number] | undefined) =>
        item?.ordId && (item.errno === undefined || item.errno === null || Number(item.errno) === 0);
      const placed = orders.flatMap((order, i) => {
        const item =
          data.find((d) => d.clOrdId === order.clientOrderId) ?? (data.length === orders.length ? data[i] : undefined);
        return item && ok(item) ? [this.placed(order, item.ordId as string)] : [];
      });
      const detail = batchFailureMessage([failed?.errno ?? undefined, failed?.errMsg ?? "not placed"]);
      throw partlyPlaced(this.fail(failed?.errno ?? undefined, detail, undefined, undefined, { detail }), placed);
    }
    return data.map((item, i) => this.placed(orders[i]!, item.ordId as string));
  }

  protected async submitCancel(pair: string, orderId: string): Promise<string> {
    const data = await this.call("POST", COINSTORE_PATHS.cancel, { symbol: this.symbol(pair), ordId: orderId });
    return z.object({ ordId: id }).safeParse(data).data?.ordId ?? orderId;
  }

  /** docs "Batch cancellation according to order id": data {success: [ids], reject: [ids]}; the canceled ids are returned. */
  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const data = this.parse(
      z.object({ success: z.array(id).nullable().optional(), reject: z.array(id).nullable().optional() }),
      await this.call("POST", COINSTORE_PATHS.cancelBatch, { symbol: this.symbol(pair), orderIds: ids }),
    );
    return data.success ?? [];
  }

  protected async submitCancelAll(): Promise<string[]> {
    // Unreachable: docs/exchange-rules.md#limits lists cancel all as unsupported on coinstore; the base checks first.
    throw new ExchangeError("coinstore", "Not supported for coinstore", { kind: "unsupported" });
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    const order = coinstoreOrderFromInfo(
      await this.call("GET", COINSTORE_PATHS.orderInfo, { ordId: this.orderId(orderId) }),
      this.pairOf(pair),
    );
    if (!order) throw new ExchangeError("coinstore", `Order ${orderId} not found`, { kind: "order-not-found" });
    return order;
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    const rows = this.parse(
      z.array(z.unknown()),
      (await this.call("GET", COINSTORE_PATHS.active, { symbol: this.symbol(p) })) ?? [],
    );
    return rows.map((row) => parseCoinstoreOrder(row, p));
  }

  async fetchBalances(): Promise<Balances> {
    return parseCoinstoreBalances(await this.call("POST", COINSTORE_PATHS.accountList));
  }

  /**
   * docs/exchange-rules.md#pairs: "Currency & spot information", POST with an empty JSON filter
   * (no symbolCodes, no symbolIds: every symbol). A public path, sent without key or signature.
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const request = {
      method: "POST" as const,
      path: COINSTORE_PATHS.symbols,
      query: "",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    };
    return parseCoinstorePairs(this.unwrap(await this.sendJson(request)));
  }
}

export function createCoinstoreExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new CoinstoreAdapter(credentials, options);
}

/**
 * The symbols of POST /api/v2/public/config/spot/symbols: openTrade (true: open to trade), tickSz
 * and lotSz the price's and quantity's decimal places, minLmtSz the smallest limit order quantity.
 */
const CoinstoreSymbolsSchema = z.array(
  z.object({
    symbolCode: z.string(),
    tradeCurrencyCode: z.string(),
    quoteCurrencyCode: z.string(),
    openTrade: z.boolean(),
    tickSz: precisionDigits,
    lotSz: precisionDigits,
    minLmtSz: stepValue.nullable().optional(),
  }),
);

/** docs/exchange-rules.md#pairs: the symbols open to trade; tick 10^-tickSz, lot 10^-lotSz. */
export function parseCoinstorePairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("coinstore", CoinstoreSymbolsSchema, raw, "data")
      .filter((s) => s.openTrade)
      .map((s) => ({
        base: s.tradeCurrencyCode,
        quote: s.quoteCurrencyCode,
        tick: digitsToStep(s.tickSz),
        lot: digitsToStep(s.lotSz),
        minAmount: minimum(s.minLmtSz),
      })),
  );
}
