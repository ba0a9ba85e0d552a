import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol, normalizePair } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { batchFailureMessage, id, num, parseAnswer, partlyPlaced } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepValue } from "../core/pair-list.js";
import { encodeQueryValue, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Base64 } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { HTX_CODE, HTX_ERRORS } from "./info.js";

export { HTX_CODE, HTX_ERRORS };

/**
 * HTX (Huobi) spot v1, signature version 2 (https://huobiapi.github.io/docs/spot/v1/en/): the query
 * carries AccessKeyId, SignatureMethod=HmacSHA256, SignatureVersion=2 and Timestamp
 * (UTC YYYY-MM-DDThh:mm:ss), plus a GET's own parameters, sorted by ASCII and URL-encoded;
 * Signature = base64 HMAC-SHA256 over "METHOD\nhost\npath\nsortedQuery". POST parameters travel as
 * a JSON body that is not signed. The host signed is the host of the base URL actually used.
 */
export const HTX_BASE_URL = "https://api.huobi.pro";

export const HTX_PATHS = {
  accounts: "/v1/account/accounts",
  balance: (accountId: string) => `/v1/account/accounts/${encodeURIComponent(accountId)}/balance`,
  place: "/v1/order/orders/place",
  batchOrders: "/v1/order/batch-orders",
  submitCancel: (id: string) => `/v1/order/orders/${encodeURIComponent(id)}/submitcancel`,
  batchCancel: "/v1/order/orders/batchcancel",
  // docs/decisions.md#d10: the documented cancel-all endpoint wins over the seed's GET cancelAllOrders.
  cancelAllOpen: "/v1/order/orders/batchCancelOpenOrders",
  order: (id: string) => `/v1/order/orders/${encodeURIComponent(id)}`,
  byClientOrderId: "/v1/order/orders/getClientOrder",
  openOrders: "/v1/order/openOrders",
  symbols: "/v1/common/symbols",
} as const;

/** docs/exchange-rules.md#validation. */
export const HTX_NO_SPOT_ACCOUNT = "No account found for spot trading for this api key";

/** UTC YYYY-MM-DDThh:mm:ss, the only Timestamp form HTX accepts. */
export function htxTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** RFC 3986 encoding (encodeURIComponent leaves !'()* alone; HTX's canonical form escapes them). */
const encode = (value: string) =>
  encodeQueryValue(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The sorted, encoded query of signature version 2 (without Signature). */
export function htxCanonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${encode(k)}=${encode(params[k]!)}`)
    .join("&");
}

export function htxSignature(
  secret: string,
  method: HttpMethod,
  host: string,
  path: string,
  canonicalQuery: string,
): string {
  return hmacSha256Base64(secret, `${method}\n${host.toLowerCase()}\n${path}\n${canonicalQuery}`);
}

/** The full signed query: the canonical query and its Signature. */
export function htxSignedQuery(
  credentials: Credentials,
  method: HttpMethod,
  host: string,
  path: string,
  params: Record<string, string>,
  nowMs: number,
): string {
  const canonical = htxCanonicalQuery({
    ...params,
    AccessKeyId: credentials.api,
    SignatureMethod: "HmacSHA256",
    SignatureVersion: "2",
    Timestamp: htxTimestamp(nowMs),
  });
  return `${canonical}&Signature=${encode(htxSignature(credentials.secret, method, host, path, canonical))}`;
}

/** Builds one signed request exactly as it goes on the wire: signed query, unsigned JSON body. */
export function htxSignedRequest(
  credentials: Credentials,
  nowMs: number,
  method: HttpMethod,
  host: string,
  path: string,
  params: Record<string, string> = {},
  payload?: unknown,
): HttpRequest {
  return {
    method,
    path,
    query: htxSignedQuery(credentials, method, host, path, params, nowMs),
    body: payload === undefined ? "" : JSON.stringify(payload),
    headers: { "Content-Type": "application/json" },
  };
}

/**
 * X-HB-RateLimit-Requests-Expire: "the expire time for current rate limit time window". The docs
 * give no unit; an epoch in ms (13 digits) is read as a deadline, a smaller number as ms to wait.
 */
export function htxRetryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const expire = Number(Array.isArray(header) ? header[0] : header);
  if (!Number.isFinite(expire) || expire <= 0) return undefined;
  return expire > 1e12 ? Math.max(0, expire - nowMs) : expire;
}

const HtxOrderSchema = z.object({
  id,
  symbol: z.string(),
  "client-order-id": z.string().nullable().optional(),
  amount: num,
  price: num.optional(),
  "created-at": num,
  type: z.string(),
  // GET /v1/order/orders/{id} names it field-amount; openOrders and newer answers filled-amount.
  "field-amount": num.optional(),
  "filled-amount": num.optional(),
  state: z.string(),
});

const HtxAccountsSchema = z.array(
  z.object({ id, type: z.string(), subtype: z.string().optional(), state: z.string().optional() }),
);

const HtxBalanceSchema = z.object({
  list: z.array(z.object({ currency: z.string(), type: z.string(), balance: num })),
});

const HtxBatchItemSchema = z.object({
  "order-id": id.optional(),
  "client-order-id": z.string().nullable().optional(),
  "err-code": z.string().nullable().optional(),
  "err-msg": z.string().nullable().optional(),
});

const HtxBatchCancelSchema = z.object({
  success: z.array(id),
  failed: z
    .array(
      z.object({
        "order-id": id.nullable().optional(),
        "err-code": z.string().nullable().optional(),
        "err-msg": z.string().nullable().optional(),
      }),
    )
    .optional(),
});

/** The most open orders one page of GET /v1/order/openOrders holds (docs: size [1, 500]). */
export const HTX_OPEN_PAGE = 500;

/** The most orders one batchCancelOpenOrders call cancels (docs: size [1, 100]). */
export const HTX_CANCEL_ALL_PAGE = 100;

const HtxCancelOpenSchema = z.object({
  "success-count": num,
  "failed-count": num.optional(),
  "next-id": num.optional(),
});

/** btcusdt → BTC/USDT needs the quote; the caller's pair is used (HTX symbols have no separator). */
export function parseHtxOrder(raw: unknown, pair: string): Order {
  const order = parseAnswer("htx", HtxOrderSchema, raw);
  const [side = "", ...rest] = order.type.split("-");
  const status = normalizeStatus("htx", order.state);
  return {
    pair,
    id: order.id,
    clientOrderId: order["client-order-id"] ?? "",
    price: toDecimalString(order.price),
    amount: toDecimalString(order.amount),
    filled: toDecimalString(order["filled-amount"] ?? order["field-amount"]),
    type: rest.join("-") || "limit",
    side: parseSide(side),
    status,
    timestamp: toMillis(order["created-at"]),
    // docs/exchange-rules.md#states departs from the general rule for these two; keep HTX's own word.
    ...(order.state === "partial-canceled" || order.state === "canceling" ? { rawStatus: order.state } : {}),
  };
}

/** HTX lists "trade" (free) and "frozen" (locked) rows per currency. */
export function parseHtxBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("htx", HtxBalanceSchema, raw).list.map((row) => ({
      currency: row.currency,
      free: row.type === "trade" ? row.balance : "0",
      locked: row.type === "frozen" ? row.balance : "0",
    })),
  );
}

/**
 * GET /v1/common/symbols: one row per symbol; state "online" trades now (offline, pre-online,
 * suspend do not) and "api-trading" says whether orders may come through the API.
 */
const HtxSymbolsSchema = z.array(
  z.object({
    "base-currency": z.string(),
    "quote-currency": z.string(),
    state: z.string(),
    "api-trading": z.string().optional(),
    "price-precision": precisionDigits,
    "amount-precision": precisionDigits,
    "min-order-amt": stepValue.optional(),
    "limit-order-min-order-amt": stepValue.optional(),
    "min-order-value": stepValue.optional(),
  }),
);

/** docs/exchange-rules.md#pairs: the online symbols, precisions in digits, the limit order's minimum amount. */
export function parseHtxPairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("htx", HtxSymbolsSchema, raw, "data")
      // "api-trading": disabled refuses orders sent through the API, which is all this adapter sends
      .filter((s) => s.state === "online" && s["api-trading"] !== "disabled")
      .map((s) => ({
        base: s["base-currency"],
        quote: s["quote-currency"],
        tick: digitsToStep(s["price-precision"]),
        lot: digitsToStep(s["amount-precision"]),
        minAmount: minimum(s["limit-order-min-order-amt"] ?? s["min-order-amt"]),
        minNotional: minimum(s["min-order-value"]),
      })),
  );
}

export class HtxAdapter extends RestAdapter {
  private readonly host: string;
  private spotAccountId: Promise<string> | undefined;

  constructor(credentials: Credentials, options: ExchangeOptions) {
    super("htx", credentials, options, { baseUrl: HTX_BASE_URL });
    // The host signed is the host actually called (a testnet, a proxy or a mock under --base-url).
    this.host = new URL(this.rest.baseUrl).host.toLowerCase();
  }

  private async call(
    method: HttpMethod,
    path: string,
    params: Record<string, string> = {},
    payload?: unknown,
  ): Promise<unknown> {
    return this.unwrap(
      await this.sendJson(htxSignedRequest(this.credentials, this.now(), method, this.host, path, params, payload)),
    );
  }

  /** {status: "ok", data} on success, {status: "error", err-code, err-msg} on failure. */
  protected unwrap(response: JsonResponse): unknown {
    const envelope = (response.json ?? {}) as {
      status?: unknown;
      data?: unknown;
      "err-code"?: unknown;
      "err-msg"?: unknown;
    };
    if (envelope.status === "ok") return envelope.data;
    const code = typeof envelope["err-code"] === "string" ? envelope["err-code"] : undefined;
    const msg = typeof envelope["err-msg"] === "string" ? envelope["err-msg"] : `HTTP ${response.status}`;
    const hint = htxRetryAfterMs(response.headers["x-hb-ratelimit-requests-expire"], this.now());
    throw this.fail(code, msg, response.status, response.headers, { retryAfterMs: hint });
  }

  /** docs/exchange-rules.md#validation: the key's spot account id, looked up once through the same base URL. */
  private accountId(): Promise<string> {
    this.spotAccountId ??= (async () => {
      const accounts = this.parse(HtxAccountsSchema, await this.call("GET", HTX_PATHS.accounts));
      const spot =
        accounts.find((a) => a.type === "spot" && (a.state === undefined || a.state === "working")) ??
        accounts.find((a) => a.type === "spot");
      if (!spot) throw new ExchangeError("htx", HTX_NO_SPOT_ACCOUNT, { kind: "auth" });
      return spot.id;
    })();
    const pending = this.spotAccountId;
    pending.catch(() => {
      if (this.spotAccountId === pending) this.spotAccountId = undefined;
    });
    return pending;
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "", true);
  }

  private async limitOrder(order: OrderToPlace) {
    return {
      "account-id": await this.accountId(),
      symbol: this.symbol(order.pair),
      // buy-limit / sell-limit rest until filled or canceled (good-till-cancel).
      // docs/exchange-rules.md "Post-only": buy-limit-maker / sell-limit-maker are maker only.
      type: `${order.side === "Buy" ? "buy" : "sell"}-limit${order.postOnly ? "-maker" : ""}`,
      amount: order.amount,
      price: order.price,
      source: "spot-api",
      "client-order-id": order.clientOrderId,
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const orderId = this.parse(id, await this.call("POST", HTX_PATHS.place, {}, await this.limitOrder(order)), "data");
    return this.placed(order, orderId);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () =>
      parseHtxOrder(await this.call("GET", HTX_PATHS.byClientOrderId, { clientOrderId }), pair),
    );
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const payload = await Promise.all(orders.map((o) => this.limitOrder(o)));
    const answer = this.parse(z.array(HtxBatchItemSchema), await this.call("POST", HTX_PATHS.batchOrders, {}, payload));
    // docs/exchange-rules.md#validation: "htx batch fails per item with the same 'One of orders threw an error' message".
    const failed = answer.find((item) => item["err-code"] || item["order-id"] === undefined);
    if (failed) {
      const code = failed["err-code"] ?? undefined;
      const placed = orders.flatMap((order, i) => {
        const item = answer.find((a) => a["client-order-id"] === order.clientOrderId) ?? answer[i];
        return item && !item["err-code"] && item["order-id"] !== undefined
          ? [this.placed(order, item["order-id"])]
          : [];
      });
      const detail = batchFailureMessage([code, failed["err-msg"] ?? undefined]);
      throw partlyPlaced(this.fail(code, detail, undefined, undefined, { detail }), placed);
    }
    return answer.map((item, i) => this.placed(orders[i]!, item["order-id"] as string));
  }

  protected async submitCancel(_pair: string, orderId: string): Promise<string> {
    return this.parse(id, await this.call("POST", HTX_PATHS.submitCancel(orderId), {}, {}), "data");
  }

  protected async submitCancelBatch(_pair: string, ids: string[]): Promise<string[]> {
    return this.parse(HtxBatchCancelSchema, await this.call("POST", HTX_PATHS.batchCancel, {}, { "order-ids": ids }))
      .success;
  }

  /**
   * batchCancelOpenOrders answers counts, not ids: the list is empty (ExchangeAdapter.cancelAll).
   * It cancels at most 100 orders a call and answers next-id -1 when none is left open, so it is
   * called again while orders remain (bounded: 500 open orders is the seed's limit for htx).
   */
  protected async submitCancelAll(pair: string): Promise<string[]> {
    const body = { "account-id": await this.accountId(), symbol: this.symbol(pair), size: HTX_CANCEL_ALL_PAGE };
    for (let round = 0; round < 10; round++) {
      const answer = this.parse(HtxCancelOpenSchema, await this.call("POST", HTX_PATHS.cancelAllOpen, {}, body));
      if (String(answer["next-id"]) === "-1" || Number(answer["success-count"]) === 0) break;
    }
    return [];
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    return parseHtxOrder(await this.call("GET", HTX_PATHS.order(this.orderId(orderId))), normalizePair(pair, "htx"));
  }

  /**
   * docs/exchange-rules.md#paging: pages of `size` 500 (the documented maximum and htx's
   * open-orders limit), newest first; the next page is `from` the last order id, `direct` next
   * (older), until a page comes short.
   */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = normalizePair(pair, "htx");
    const params = { "account-id": await this.accountId(), symbol: this.symbol(p), size: String(HTX_OPEN_PAGE) };
    return collectPages(
      "htx",
      "open orders",
      (o) => o.id,
      async (_index, last) => {
        const rows = this.parse(
          z.array(z.unknown()),
          await this.call("GET", HTX_PATHS.openOrders, last ? { ...params, from: last.id, direct: "next" } : params),
        );
        return { items: rows.map((row) => parseHtxOrder(row, p)), more: rows.length === HTX_OPEN_PAGE };
      },
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseHtxBalances(await this.call("GET", HTX_PATHS.balance(await this.accountId())));
  }

  /** docs/exchange-rules.md#pairs: the public symbol list, unsigned (no key needed). */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseHtxPairs(this.unwrap(await this.publicGet(HTX_PATHS.symbols)));
  }
}

export function createHtxExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new HtxAdapter(credentials, options);
}
