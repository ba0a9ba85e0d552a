import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol, normalizePair } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { batchFailureMessage, id, num, parseAnswer, partlyPlaced } from "../core/answer.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepValue } from "../core/pair-list.js";
import { encodeQueryValue, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { MEXC_CODE, MEXC_ERRORS } from "./info.js";

export { MEXC_CODE, MEXC_ERRORS };

/**
 * MEXC spot v3 (https://mexcdevelop.github.io/apidocs/spot_v3_en/): header X-MEXC-APIKEY; the
 * `signature` parameter is the lower-case hex HMAC-SHA256 of totalParams (the query string
 * concatenated with the body), with `timestamp` and a 5000 ms `recvWindow` (docs/exchange-rules.md#limits). Every
 * parameter travels in the query string (allowed for POST and DELETE), so the body is empty.
 */
export const MEXC_BASE_URL = "https://api.mexc.com";

export const MEXC_PATHS = {
  order: "/api/v3/order",
  batchOrders: "/api/v3/batchOrders",
  openOrders: "/api/v3/openOrders",
  account: "/api/v3/account",
  exchangeInfo: "/api/v3/exchangeInfo",
} as const;

export const MEXC_RECV_WINDOW = 5000;

/**
 * Percent-encoding of parameter values. MEXC: special symbols "need to be URL encoded when
 * signing, and encode only support uppercase" — encodeURIComponent writes upper-case hex.
 */
const encode = encodeQueryValue;

export function mexcSignature(secret: string, totalParams: string): string {
  return hmacSha256Hex(secret, totalParams);
}

/** Builds the signed query: params, timestamp and recvWindow, then `signature` over all of them. */
export function mexcSignedQuery(
  secret: string,
  params: Record<string, string | number | undefined>,
  timestamp: number,
): string {
  let query = "";
  for (const key in params) {
    const value = params[key];
    if (value !== undefined) query += `${encode(key)}=${encode(String(value))}&`;
  }
  query += `timestamp=${timestamp}&recvWindow=${MEXC_RECV_WINDOW}`;
  return `${query}&signature=${mexcSignature(secret, query)}`;
}

/** Builds one signed request exactly as it goes on the wire: every parameter in the signed query. */
export function mexcSignedRequest(
  credentials: Credentials,
  nowMs: number,
  method: HttpMethod,
  path: string,
  params: Record<string, string | number | undefined> = {},
): HttpRequest {
  return {
    method,
    path,
    query: mexcSignedQuery(credentials.secret, params, nowMs),
    body: "",
    headers: { "X-MEXC-APIKEY": credentials.api, "Content-Type": "application/json" },
  };
}

/** "Exchange Information" (GET /api/v3/exchangeInfo): the symbol fields we read. */
const MexcExchangeInfoSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      status: z.union([z.string(), z.number()]),
      baseAsset: z.string(),
      quoteAsset: z.string(),
      baseAssetPrecision: precisionDigits,
      quotePrecision: precisionDigits,
      isSpotTradingAllowed: z.boolean().optional(),
      quoteAmountPrecision: stepValue.optional(),
      baseSizePrecision: stepValue.optional(),
      tradeSideType: z.union([z.string(), z.number()]).optional(),
    }),
  ),
});

/** "status: 1 - online, 2 - Pause, 3 - offline"; ENABLED is the older spelling of online. */
const MEXC_ONLINE = new Set(["1", "ENABLED"]);
/** "tradeSideType: 1 - All, 2 - buy order only, 3 - Sell order only, 4 - Close". */
const MEXC_CLOSED_SIDE = "4";

const MexcOrderSchema = z.object({
  symbol: z.string(),
  orderId: id,
  clientOrderId: z.string().nullable().optional(),
  origClientOrderId: z.string().nullable().optional(),
  price: num.optional(),
  origQty: num.optional(),
  // The docs' Query Order example names the original quantity "Qty".
  Qty: num.optional(),
  executedQty: num.optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  side: z.string(),
  time: num.optional(),
  transactTime: num.optional(),
});

const MexcBatchItemSchema = z.object({
  symbol: z.string().optional(),
  orderId: id.optional(),
  newClientOrderId: z.string().optional(),
  code: num.optional(),
  msg: z.string().optional(),
});

const MexcAccountSchema = z.object({ balances: z.array(z.object({ asset: z.string(), free: num, locked: num })) });

/** BTCUSDT → BTC/USDT needs the quote; the request's pair is passed where the answer lacks a separator. */
export function parseMexcOrder(raw: unknown, pair: string): Order {
  const order = parseAnswer("mexc", MexcOrderSchema, raw);
  const status = normalizeStatus("mexc", order.status);
  return {
    pair,
    id: order.orderId,
    // In a cancel answer clientOrderId is the cancel request's own id; origClientOrderId is the order's.
    clientOrderId: order.origClientOrderId || order.clientOrderId || "",
    price: toDecimalString(order.price),
    amount: toDecimalString(order.origQty ?? order.Qty),
    filled: toDecimalString(order.executedQty),
    type: (order.type ?? "LIMIT").toLowerCase(),
    side: parseSide(order.side),
    status,
    timestamp: toMillis(order.time ?? order.transactTime),
    // docs/decisions.md#d9: PARTIALLY_CANCELED → open departs from the general rule; keep MEXC's word.
    ...(order.status === "PARTIALLY_CANCELED" ? { rawStatus: order.status } : {}),
  };
}

export function parseMexcBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("mexc", MexcAccountSchema, raw).balances.map((b) => ({
      currency: b.asset,
      free: b.free,
      locked: b.locked,
    })),
  );
}

type Params = Record<string, string | number | undefined>;

export class MexcAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions) {
    super("mexc", credentials, options, { baseUrl: MEXC_BASE_URL });
  }

  private async call(method: HttpMethod, path: string, params: Params = {}): Promise<unknown> {
    return this.unwrap(await this.sendJson(mexcSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** No envelope on success; a failure is an HTTP error or a body {code, msg} with a code other than 0 or 200. */
  protected unwrap(response: JsonResponse): unknown {
    const json = response.json as { code?: unknown; msg?: unknown } | undefined;
    const failed =
      response.status >= 400 ||
      (json !== undefined &&
        !Array.isArray(json) &&
        json.code !== undefined &&
        !isCode(json.code, 0) &&
        !isCode(json.code, 200));
    if (!failed && json !== undefined) return json;
    const code = json?.code as string | number | undefined;
    const msg = typeof json?.msg === "string" ? json.msg : `HTTP ${response.status}`;
    // MEXC (General Info, LIMITS): 418 is the IP ban after repeated 429s; the shared mapper reads it as rate-limit.
    throw this.fail(code, msg, response.status, response.headers);
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "");
  }

  /** MEXC LIMIT orders rest until filled or canceled (good-till-cancel). */
  private limitParams(order: OrderToPlace): Record<string, string> {
    return {
      symbol: this.symbol(order.pair),
      side: order.side === "Buy" ? "BUY" : "SELL",
      // docs/exchange-rules.md "Post-only": maker only is an order type
      type: order.postOnly ? "LIMIT_MAKER" : "LIMIT",
      quantity: order.amount,
      price: order.price,
      newClientOrderId: order.clientOrderId,
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const answer = this.parse(MexcOrderSchema, await this.call("POST", MEXC_PATHS.order, this.limitParams(order)));
    return this.placed(order, answer.orderId, answer.transactTime);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () =>
      parseMexcOrder(
        await this.call("GET", MEXC_PATHS.order, { symbol: this.symbol(pair), origClientOrderId: clientOrderId }),
        pair,
      ),
    );
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const batchOrders = JSON.stringify(orders.map((o) => this.limitParams(o)));
    const answer = this.parse(
      z.array(MexcBatchItemSchema),
      await this.call("POST", MEXC_PATHS.batchOrders, { batchOrders }),
    );
    const failed = answer.find((item) => item.code !== undefined || item.orderId === undefined);
    if (failed) {
      const placed = answer.flatMap((item, i) =>
        item.code === undefined && item.orderId !== undefined && orders[i]
          ? [this.placed(orders[i], item.orderId)]
          : [],
      );
      throw partlyPlaced(
        this.fail(
          failed.code,
          batchFailureMessage([failed.code, failed.msg], { placed: placed.length, total: answer.length }),
        ),
        placed,
      );
    }
    return answer.map((item, i) => this.placed(orders[i]!, item.orderId as string));
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    return this.parse(
      MexcOrderSchema,
      await this.call("DELETE", MEXC_PATHS.order, { symbol: this.symbol(pair), orderId: id }),
    ).orderId;
  }

  protected async submitCancelBatch(): Promise<string[]> {
    // Unreachable: docs/exchange-rules.md#limits lists cancel batch as unsupported on mexc, and the base checks first.
    throw new ExchangeError("mexc", "Not supported for mexc", { kind: "unsupported" });
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    const answer = this.parse(
      z.array(MexcOrderSchema),
      await this.call("DELETE", MEXC_PATHS.openOrders, { symbol: this.symbol(pair) }),
    );
    return answer.map((o) => o.orderId);
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    return parseMexcOrder(
      await this.call("GET", MEXC_PATHS.order, { symbol: this.symbol(pair), orderId: this.orderId(id) }),
      normalizePair(pair, "mexc"),
    );
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const rows = this.parse(
      z.array(z.unknown()),
      await this.call("GET", MEXC_PATHS.openOrders, { symbol: this.symbol(pair) }),
    );
    return rows.map((row) => parseMexcOrder(row, normalizePair(pair, "mexc")));
  }

  /**
   * docs/exchange-rules.md#pairs: "Exchange Information", public. Kept: status online, spot
   * trading allowed through the API, not closed (tradeSideType 4). tick is 10^-quotePrecision,
   * lot 10^-baseAssetPrecision; baseSizePrecision is the documented "min order quantity" and
   * quoteAmountPrecision the "min order amount".
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const answer = this.unwrap(await this.publicGet(MEXC_PATHS.exchangeInfo));
    return finishPairs(
      this.parse(MexcExchangeInfoSchema, answer, "exchangeInfo")
        .symbols.filter(
          (s) =>
            MEXC_ONLINE.has(String(s.status)) &&
            s.isSpotTradingAllowed !== false &&
            // Stryker disable next-line StringLiteral: any default but "4" keeps a symbol without tradeSideType alike
            String(s.tradeSideType ?? "1") !== MEXC_CLOSED_SIDE,
        )
        .map((s) => ({
          base: s.baseAsset,
          quote: s.quoteAsset,
          tick: digitsToStep(s.quotePrecision),
          lot: digitsToStep(s.baseAssetPrecision),
          minAmount: minimum(s.baseSizePrecision),
          minNotional: minimum(s.quoteAmountPrecision),
        })),
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseMexcBalances(await this.call("GET", MEXC_PATHS.account));
  }
}

export function createMexcExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new MexcAdapter(credentials, options);
}
