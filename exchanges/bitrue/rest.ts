import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, num, parseAnswer } from "../core/answer.js";
import { assertSupported } from "../core/limits.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepText, stepValue } from "../core/pair-list.js";
import { encodeQueryValue, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isSuccessCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { BITRUE_CODE, BITRUE_ERRORS } from "./info.js";

export { BITRUE_CODE, BITRUE_ERRORS };

const _C = BITRUE_CODE;

/**
 * Bitrue spot v1, checked against the official docs (github.com/Bitrue-exchange/Spot-official-api-docs,
 * README "Public Rest API for Bitrue (2023-07-14)"): header X-MBX-APIKEY; `signature` = hex
 * HMAC-SHA256 of totalParams (the query string concatenated with the body), sent in the query string;
 * `timestamp` in ms and `recvWindow` (default 5000, docs/exchange-rules.md#limits) among the parameters. Every parameter
 * travels in the query string (the docs' Example 1), so totalParams is exactly the query sent.
 *
 * Success: order and account answers are bare objects; a failure is {code, msg} with a negative code,
 * documented with its HTTP status ("Error Codes": -2013 arrives with HTTP 200). docs/exchange-rules.md#errors's "200" is
 * the success code of the {code, msg, data} envelopes of the wallet endpoints; an answer carrying a
 * `code` other than 200 is a failure. HTTP 5xx: "the execution status is UNKNOWN and could have been
 * a success" — reported as a network failure so a create is looked up before any resend.
 * docs/exchange-rules.md#limits: no batch, no cancel batch, no cancel all on bitrue.
 */
export const BITRUE_BASE_URL = "https://openapi.bitrue.com";
export const BITRUE_RECV_WINDOW = 5000;
export const BITRUE_SUCCESS = 200;

export const BITRUE_PATHS = {
  order: "/api/v1/order",
  openOrders: "/api/v1/openOrders",
  allOrders: "/api/v1/allOrders",
  account: "/api/v1/account",
  exchangeInfo: "/api/v1/exchangeInfo",
} as const;

type Params = Record<string, string | number | undefined>;

/** The signed query: parameters, timestamp and recvWindow, URL-encoded once, then `&signature=` over exactly that. */
export function bitrueSignedQuery(secret: string, params: Params, timestamp: number): string {
  let query = "";
  for (const key in params) {
    const value = params[key];
    if (value === undefined) continue;
    const text = String(value);
    query += `${key}=${encodeQueryValue(text)}&`;
  }
  query += `recvWindow=${BITRUE_RECV_WINDOW}&timestamp=${timestamp}`;
  return `${query}&signature=${hmacSha256Hex(secret, query)}`;
}

export function bitrueSignedRequest(
  credentials: Pick<Credentials, "api" | "secret">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  params: Params = {},
): HttpRequest {
  return {
    method,
    path,
    query: bitrueSignedQuery(credentials.secret, params, timestamp),
    body: "",
    headers: { "X-MBX-APIKEY": credentials.api },
  };
}

const BitrueOrderSchema = z.object({
  symbol: z.string().optional(),
  orderId: id,
  orderIdStr: z.string().optional(),
  clientOrderId: z.string().nullable().optional(),
  price: num.optional(),
  origQty: num.optional(),
  executedQty: num.optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  side: z.string(),
  time: num.optional(),
});

/**
 * docs/exchange-rules.md#states by the general table: NEW, PARTIALLY_FILLED open; FILLED closed; CANCELED, PENDING_CANCEL,
 * REJECTED, EXPIRED canceled. PENDING_CREATE ("your order is in queue", docs' release note 2023-07-14)
 * is an accepted order not yet resting: open.
 */
export function bitrueStatus(raw: string | undefined): Order["status"] {
  return raw === "PENDING_CREATE" ? "open" : normalizeStatus("bitrue", raw);
}

export function parseBitrueOrder(raw: unknown, pair: string): Order {
  const o = parseAnswer("bitrue", BitrueOrderSchema, raw);
  const order: Order = {
    pair,
    id: o.orderIdStr ?? o.orderId,
    clientOrderId: o.clientOrderId ?? "",
    price: toDecimalString(o.price),
    amount: toDecimalString(o.origQty),
    filled: toDecimalString(o.executedQty),
    type: (o.type ?? "LIMIT").toLowerCase(),
    side: parseSide(o.side),
    status: bitrueStatus(o.status),
    timestamp: toMillis(o.time),
  };
  if (o.status !== undefined) order.rawStatus = o.status;
  return order;
}

export function parseBitrueBalances(raw: unknown): Balances {
  const { balances } = parseAnswer(
    "bitrue",
    z.object({ balances: z.array(z.object({ asset: z.string(), free: num, locked: num })) }),
    raw,
  );
  return collectBalances(balances.map((b) => ({ currency: b.asset, free: b.free, locked: b.locked })));
}

export class BitrueAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    // newClientOrderId: "a unique id for the order" (no documented shape); 32 hex as on its binance-family peers (docs/decisions.md#d11).
    super("bitrue", credentials, options, {
      baseUrl: BITRUE_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, params: Params = {}): Promise<unknown> {
    return this.unwrap(await this.sendJson(bitrueSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** No envelope: a 2xx answer without an error `code` is the payload (docs/decisions.md#d20). */
  protected unwrap(response: JsonResponse): unknown {
    // an array, a number or null has no `code` either: `?.` reads every answer that is no error object as undefined
    const json = response.json as { code?: string | number; msg?: unknown } | null | undefined;
    const code = json?.code;
    if (response.status < 400 && json !== undefined && isSuccessCode(code, BITRUE_SUCCESS, true)) return json;
    const msg = typeof json?.msg === "string" ? json.msg : `HTTP ${response.status}`;
    if (response.status >= 500) {
      // Docs: a 5xx is NOT a failure; the execution status is unknown (placeOnce looks the order up).
      throw new ExchangeError(this.id, `${msg} (HTTP ${response.status}: execution status unknown)`, {
        kind: "network",
        code: code ?? response.status,
      });
    }
    throw this.fail(code, msg, response.status, response.headers);
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "");
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const answer = this.parse(
      z.object({
        orderId: id,
        orderIdStr: z.string().optional(),
        clientOrderId: z.string().nullable().optional(),
        transactTime: num.optional(),
      }),
      await this.call("POST", BITRUE_PATHS.order, {
        symbol: this.symbol(order.pair),
        side: order.side === "Buy" ? "BUY" : "SELL",
        type: "LIMIT",
        timeInForce: "GTC",
        quantity: order.amount,
        price: order.price,
        newClientOrderId: order.clientOrderId,
      }),
    );
    return {
      // the docs' answer carries an 18-digit orderId beside its text form orderIdStr
      ...this.placed(order, answer.orderIdStr ?? answer.orderId, answer.transactTime),
      clientOrderId: answer.clientOrderId || order.clientOrderId,
    };
  }

  /**
   * After a time-out: the open orders carry clientOrderId; an order no longer open is found in GET
   * /api/v1/allOrders ("active, canceled, or filled", most recent first). Not GET /api/v1/order: its
   * documented orderId is mandatory. A failing look-up keeps placeOnce from resending.
   */
  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    const resting = (await this.fetchOpenOrders(pair)).find((o) => o.clientOrderId === clientOrderId);
    if (resting) return resting;
    const all = this.parse(
      z.array(z.unknown()),
      await this.call("GET", BITRUE_PATHS.allOrders, { symbol: this.symbol(pair) }),
    );
    return all.map((raw) => parseBitrueOrder(raw, pair)).find((o) => o.clientOrderId === clientOrderId);
  }

  // docs/exchange-rules.md#limits: no batch, cancel batch or cancel all on bitrue. The base refuses the three
  // before any request (the refusal is tested through createBatch, cancelBatch and cancelAll), so these are
  // never called; each still refuses should the limits table change (docs/mutation.md "Group B ignore list").
  // Stryker disable all: never called, see above
  protected async submitBatch(): Promise<Order[]> {
    assertSupported("bitrue", "createBatch");
    return [];
  }
  protected async submitCancelBatch(): Promise<string[]> {
    assertSupported("bitrue", "cancelBatch");
    return [];
  }
  protected async submitCancelAll(): Promise<string[]> {
    assertSupported("bitrue", "cancelAll");
    return [];
  }
  // Stryker restore all

  protected async submitCancel(pair: string, orderId: string): Promise<string> {
    const answer = this.parse(
      z.object({ orderId: id, orderIdStr: z.string().optional() }),
      await this.call("DELETE", BITRUE_PATHS.order, { symbol: this.symbol(pair), orderId }),
    );
    return answer.orderIdStr ?? answer.orderId;
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    const p = this.pairOf(pair);
    return parseBitrueOrder(
      await this.call("GET", BITRUE_PATHS.order, { symbol: this.symbol(p), orderId: this.orderId(orderId) }),
      p,
    );
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    return this.parse(
      z.array(z.unknown()),
      await this.call("GET", BITRUE_PATHS.openOrders, { symbol: this.symbol(p) }),
    ).map((raw) => parseBitrueOrder(raw, p));
  }

  async fetchBalances(): Promise<Balances> {
    return parseBitrueBalances(await this.call("GET", BITRUE_PATHS.account));
  }

  /** docs/exchange-rules.md#pairs: the public exchange information, sent without key or signature. */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseBitruePairs(this.unwrap(await this.publicGet(BITRUE_PATHS.exchangeInfo)));
  }
}

export function createBitrueExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new BitrueAdapter(credentials, options);
}

/**
 * GET /api/v1/exchangeInfo's symbols: status TRADING (or HALT), base and quote asset, and filters:
 * PRICE_FILTER (minPrice, maxPrice, tickSize), LOT_SIZE (minQty, maxQty, stepSize), MIN_NOTIONAL
 * (minNotional). Bitrue's answers also write the steps as digits, PRICE_FILTER priceScale and
 * LOT_SIZE volumeScale, and the minimum value as LOT_SIZE minVal: a step is read from either.
 */
const BitrueExchangeInfoSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      status: z.string(),
      baseAsset: z.string(),
      quoteAsset: z.string(),
      filters: z.array(
        z.object({
          filterType: z.string(),
          tickSize: stepValue.optional(),
          priceScale: precisionDigits.optional(),
          stepSize: stepValue.optional(),
          volumeScale: precisionDigits.optional(),
          minQty: stepValue.optional(),
          minVal: stepValue.optional(),
          minNotional: stepValue.optional(),
        }),
      ),
    }),
  ),
});

/** docs/exchange-rules.md#pairs: the TRADING symbols with the steps of their price and lot filters. */
export function parseBitruePairs(raw: unknown): PairSpec[] {
  const info = parseAnswer("bitrue", BitrueExchangeInfoSchema, raw);
  return finishPairs(
    info.symbols.flatMap((s, i) => {
      if (s.status !== "TRADING") return [];
      const filter = (type: string) => s.filters.find((f) => f.filterType === type);
      const price = filter("PRICE_FILTER");
      const lot = filter("LOT_SIZE");
      const tick = price?.tickSize ?? (price?.priceScale !== undefined ? digitsToStep(price.priceScale) : undefined);
      const size = lot?.stepSize ?? (lot?.volumeScale !== undefined ? digitsToStep(lot.volumeScale) : undefined);
      if (tick === undefined || size === undefined) {
        const missing = tick === undefined ? "PRICE_FILTER tickSize or priceScale" : "LOT_SIZE stepSize or volumeScale";
        throw new ExchangeError("bitrue", `Unexpected answer from bitrue: symbols[${i}].filters expected ${missing}`, {
          kind: "invalid-order",
        });
      }
      const minNotional = filter("MIN_NOTIONAL")?.minNotional;
      return [
        {
          base: s.baseAsset,
          quote: s.quoteAsset,
          tick: stepText(tick),
          lot: stepText(size),
          // Stryker disable next-line OptionalChaining: lot is defined here (a missing LOT_SIZE has no step and threw above)
          minAmount: minimum(lot?.minQty),
          // Stryker disable next-line OptionalChaining: lot is defined here (a missing LOT_SIZE has no step and threw above)
          minNotional: minimum(minNotional ?? lot?.minVal),
        },
      ];
    }),
  );
}
