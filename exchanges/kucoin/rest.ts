import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { batchFailureMessage, num, parseAnswer, partlyPlaced } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { finishPairs, minimum, stepText, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Base64 } from "../core/sign.js";
import { kucoinStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { KUCOIN_CODE, KUCOIN_ERRORS, KUCOIN_INFO } from "./info.js";

export { KUCOIN_CODE, KUCOIN_ERRORS };

/**
 * KuCoin spot REST (https://www.kucoin.com/docs/rest/): KC-API-SIGN = base64 HMAC-SHA256 over
 * timestamp + METHOD + endpoint (with its query, not URL-encoded) + body; key version 2 sends the
 * passphrase itself HMAC-SHA256-signed with the secret, base64. The seed's /api/v1/orders paths are
 * still in KuCoin's current documentation (as the "- Old" order endpoints), so they stay (docs/decisions.md#d10).
 */
export const KUCOIN_BASE_URL = "https://api.kucoin.com";

export const KUCOIN_PATHS = {
  orders: "/api/v1/orders",
  order: (id: string) => `/api/v1/orders/${encodeURIComponent(id)}`,
  multi: "/api/v1/orders/multi",
  byClientOid: (clientOid: string) => `/api/v1/order/client-order/${encodeURIComponent(clientOid)}`,
  accounts: "/api/v1/accounts",
  symbols: "/api/v2/symbols",
} as const;

/** Success code of every KuCoin answer (docs/exchange-rules.md#errors). */
export const KUCOIN_OK = "200000";

export interface KucoinSignInput {
  method: HttpMethod;
  /** the endpoint with its query, e.g. /api/v1/orders?status=active */
  endpoint: string;
  body: string;
  /** milliseconds, as sent in KC-API-TIMESTAMP */
  timestamp: string;
}

export function kucoinSignature(secret: string, input: KucoinSignInput): string {
  return hmacSha256Base64(secret, `${input.timestamp}${input.method}${input.endpoint}${input.body}`);
}

/** Key version 2: the passphrase travels HMAC-SHA256-signed with the secret, base64. */
export function kucoinPassphrase(secret: string, passphrase: string): string {
  // The same key signs the same passphrase on every request: remember the last one.
  if (lastPassphrase && lastPassphrase.secret === secret && lastPassphrase.passphrase === passphrase)
    return lastPassphrase.signed;
  const signed = hmacSha256Base64(secret, passphrase);
  lastPassphrase = { secret, passphrase, signed };
  return signed;
}
let lastPassphrase: { secret: string; passphrase: string; signed: string } | undefined;

export function kucoinSignedHeaders(
  credentials: Credentials,
  input: KucoinSignInput,
  signedPassphrase?: string,
): Record<string, string> {
  return {
    "KC-API-KEY": credentials.api,
    "KC-API-SIGN": kucoinSignature(credentials.secret, input),
    "KC-API-TIMESTAMP": input.timestamp,
    "KC-API-PASSPHRASE": signedPassphrase ?? kucoinPassphrase(credentials.secret, credentials.password ?? ""),
    "KC-API-KEY-VERSION": "2",
    "Content-Type": "application/json",
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Builds one signed request exactly as it goes on the wire (the endpoint signed carries the query sent). */
export function kucoinSignedRequest(
  credentials: Credentials,
  nowMs: number,
  method: HttpMethod,
  path: string,
  params: Record<string, string | number | undefined> = {},
  payload?: unknown,
  signedPassphrase?: string,
): HttpRequest {
  const query = buildQuery(params);
  const body = payload === undefined ? "" : JSON.stringify(payload);
  // KuCoin signs the URL as it reads before URL-encoding ("/api/v1/sub/api-key?...&passphrase=abc!@#11"),
  // while the wire carries the encoded form; for plain values the two are the same bytes.
  const rawQuery = buildQuery(params, { encode: (value) => value });
  const rawPath = safeDecode(path);
  const endpoint = rawQuery ? `${rawPath}?${rawQuery}` : rawPath;
  return {
    method,
    path,
    query,
    body,
    headers: kucoinSignedHeaders(credentials, { method, endpoint, body, timestamp: String(nowMs) }, signedPassphrase),
  };
}

/** One symbol of "Get All Symbols" (GET /api/v2/symbols; the fields we read). */
const KucoinSymbolsSchema = z.array(
  z.object({
    symbol: z.string(),
    baseCurrency: z.string(),
    quoteCurrency: z.string(),
    baseMinSize: stepValue.optional(),
    baseIncrement: stepValue,
    priceIncrement: stepValue,
    minFunds: stepValue.nullable().optional(),
    enableTrading: z.boolean(),
  }),
);

const KucoinOrderSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  type: z.string().optional().default("limit"),
  side: z.string(),
  price: num.nullable().optional(),
  size: num.nullable().optional(),
  dealSize: num.nullable().optional(),
  clientOid: z.string().nullable().optional(),
  isActive: z.boolean(),
  cancelExist: z.boolean(),
  createdAt: num,
});

const KucoinPageSchema = z.object({
  currentPage: z.number(),
  pageSize: z.number(),
  totalNum: z.number(),
  totalPage: z.number(),
  items: z.array(z.unknown()),
});

const KucoinMultiItemSchema = z.object({
  id: z.string().nullable().optional(),
  clientOid: z.string().nullable().optional(),
  status: z.string(),
  failMsg: z.string().nullable().optional(),
  side: z.string(),
  price: num.nullable().optional(),
  size: num.nullable().optional(),
  symbol: z.string(),
});

const KucoinCancelledSchema = z.object({ cancelledOrderIds: z.array(z.string()) });

const KucoinAccountsSchema = z.array(
  z.object({ currency: z.string(), type: z.string(), balance: num, available: num, holds: num }),
);

export function parseKucoinOrder(raw: unknown): Order {
  const order = parseAnswer("kucoin", KucoinOrderSchema, raw);
  const dealSize = toDecimalString(order.dealSize);
  return {
    pair: order.symbol.replace("-", "/").toUpperCase(),
    id: order.id,
    clientOrderId: order.clientOid ?? "",
    price: toDecimalString(order.price),
    amount: toDecimalString(order.size),
    filled: dealSize,
    type: order.type,
    side: parseSide(order.side),
    // docs/decisions.md#d19: kucoin derives the status from isActive and cancelExist.
    status: kucoinStatus({ isActive: order.isActive, cancelExist: order.cancelExist }),
    timestamp: toMillis(order.createdAt),
  };
}

/** Trade-account balances: free = available, locked = holds (docs/exchange-rules.md#entities rules via collectBalances). */
export function parseKucoinBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("kucoin", KucoinAccountsSchema, raw)
      .filter((row) => row.type === "trade")
      .map((row) => ({ currency: row.currency, free: row.available, locked: row.holds })),
  );
}

type Params = Record<string, string | number | undefined>;

export class KucoinAdapter extends RestAdapter {
  private readonly signedPassphrase: string;

  constructor(credentials: Credentials, options: ExchangeOptions) {
    // clientOid: "the use of UUID, with a maximum length of 128 bits" — 32 hexadecimal characters.
    super("kucoin", credentials, options, {
      baseUrl: KUCOIN_BASE_URL,
    });
    this.signedPassphrase = kucoinPassphrase(credentials.secret, credentials.password ?? "");
  }

  private async call(method: HttpMethod, path: string, params: Params = {}, payload?: unknown): Promise<unknown> {
    return this.unwrap(
      await this.sendJson(
        kucoinSignedRequest(this.credentials, this.now(), method, path, params, payload, this.signedPassphrase),
      ),
    );
  }

  /** {code: "200000", data} on success. */
  protected unwrap(response: JsonResponse): unknown {
    const envelope = (response.json ?? {}) as { code?: unknown; msg?: unknown; data?: unknown };
    if (isCode(envelope.code, KUCOIN_OK)) return envelope.data;
    throw this.kucoinError(response, envelope);
  }

  private kucoinError(response: JsonResponse, envelope: { code?: unknown; msg?: unknown }): ExchangeError {
    const code = envelope.code === undefined ? undefined : String(envelope.code);
    const msg = typeof envelope.msg === "string" ? envelope.msg : `HTTP ${response.status}`;
    // KuCoin's rate-limit hint: gw-ratelimit-reset, milliseconds until the window resets.
    const reset = Number(response.headers["gw-ratelimit-reset"]);
    return this.fail(
      code,
      msg,
      response.status,
      response.headers,
      Number.isFinite(reset) && reset > 0 ? { retryAfterMs: reset } : {},
    );
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "-");
  }

  private limitOrder(order: OrderToPlace) {
    return {
      clientOid: order.clientOrderId,
      side: order.side === "Buy" ? "buy" : "sell",
      symbol: this.symbol(order.pair),
      type: "limit",
      price: order.price,
      size: order.amount,
      timeInForce: "GTC",
      // docs/exchange-rules.md "Post-only": a flag beside GTC
      ...(order.postOnly ? { postOnly: true } : {}),
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const data = this.parse(
      z.object({ orderId: z.string() }),
      await this.call("POST", KUCOIN_PATHS.orders, {}, this.limitOrder(order)),
    );
    return this.placed(order, data.orderId);
  }

  protected async findByClientOrderId(_pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () =>
      parseKucoinOrder(await this.call("GET", KUCOIN_PATHS.byClientOid(clientOrderId))),
    );
  }

  protected async submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const payload = {
      symbol: this.symbol(pair),
      orderList: orders.map((o) => {
        const { symbol: _symbol, ...item } = this.limitOrder(o);
        return item;
      }),
    };
    const data = await this.call("POST", KUCOIN_PATHS.multi, {}, payload);
    // The documented answer is {data: [...]} inside the envelope's data.
    const list = this.parse(
      z.array(KucoinMultiItemSchema),
      Array.isArray(data) ? data : (data as { data?: unknown } | null)?.data,
    );
    const failed = list.find((item) => item.status !== "success");
    if (failed) {
      const placed = list.flatMap((item, i) =>
        item.status === "success" && orders[i] ? [this.placed(orders[i], item.id ?? "")] : [],
      );
      throw partlyPlaced(
        new ExchangeError(
          "kucoin",
          batchFailureMessage([failed.failMsg ?? failed.status], { placed: placed.length, total: list.length }),
          { kind: "invalid-order" },
        ),
        placed,
      );
    }
    return list.map((item, i) => this.placed(orders[i]!, item.id ?? ""));
  }

  protected async submitCancel(_pair: string, id: string): Promise<string> {
    const data = this.parse(KucoinCancelledSchema, await this.call("DELETE", KUCOIN_PATHS.order(id)));
    return data.cancelledOrderIds[0] ?? id;
  }

  protected async submitCancelBatch(): Promise<string[]> {
    // Unreachable: docs/exchange-rules.md#limits lists cancel batch as unsupported on kucoin, and the base checks first.
    throw new ExchangeError("kucoin", "Not supported for kucoin", { kind: "unsupported" });
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    return this.parse(
      KucoinCancelledSchema,
      await this.call("DELETE", KUCOIN_PATHS.orders, { symbol: this.symbol(pair) }),
    ).cancelledOrderIds;
  }

  async fetchOrder(_pair: string, id: string): Promise<Order> {
    return parseKucoinOrder(await this.call("GET", KUCOIN_PATHS.order(this.orderId(id))));
  }

  /** docs/exchange-rules.md#paging: `currentPage` 1, 2, … of `pageSize` 500, up to the `totalPage` KuCoin counts. */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    // docs/decisions.md#d10: the open-orders limit (500) is the page size; `orders` pages past it.
    const pageSize = KUCOIN_INFO.limits.openOrders ?? 500;
    return collectPages(
      "kucoin",
      "open orders",
      (o) => o.id,
      async (index) => {
        const page = this.parse(
          KucoinPageSchema,
          await this.call("GET", KUCOIN_PATHS.orders, {
            status: "active",
            symbol: this.symbol(pair),
            currentPage: index + 1,
            pageSize,
          }),
        );
        return { items: page.items.map(parseKucoinOrder), more: index + 1 < page.totalPage };
      },
    );
  }

  /**
   * docs/exchange-rules.md#pairs: "Get All Symbols", public. Only enableTrading symbols are kept;
   * tick is priceIncrement, lot baseIncrement, baseMinSize and minFunds the minimums.
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const data = this.unwrap(await this.publicGet(KUCOIN_PATHS.symbols));
    return finishPairs(
      this.parse(KucoinSymbolsSchema, data, "data")
        .filter((s) => s.enableTrading)
        .map((s) => ({
          base: s.baseCurrency,
          quote: s.quoteCurrency,
          tick: stepText(s.priceIncrement),
          lot: stepText(s.baseIncrement),
          minAmount: minimum(s.baseMinSize),
          minNotional: minimum(s.minFunds),
        })),
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseKucoinBalances(await this.call("GET", KUCOIN_PATHS.accounts, { type: "trade" }));
  }
}

export function createKucoinExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new KucoinAdapter(credentials, options);
}
