import { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, parseJsonExact, RestAdapter } from "../core/adapter.js";
import { id, num, parseAnswer } from "../core/answer.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepText, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest, RestClient } from "../core/rest.js";
import { sha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { PROBIT_CODE, PROBIT_ERRORS } from "./info.js";

export { PROBIT_CODE, PROBIT_ERRORS };

/**
 * ProBit Global (https://docs-en.probit.com): OAuth 2.0 client credentials. POST
 * https://accounts.probit.com/token with `Authorization: Basic base64(clientId:secret)` and the JSON
 * body {"grant_type":"client_credentials"} answers {access_token, token_type, expires_in (seconds)};
 * private calls carry `Authorization: Bearer <access_token>`. docs/exchange-rules.md#states: the token is cached per
 * key, renewed at 95% of its lifetime, and only one fetch is in flight however many calls wait.
 * `--base-url` replaces both hosts: the token is then POST {baseUrl}/token.
 */
export const PROBIT_BASE_URL = "https://api.probit.com";
export const PROBIT_ACCOUNTS_URL = "https://accounts.probit.com";

export const PROBIT_PATHS = {
  token: "/token",
  newOrder: "/api/exchange/v1/new_order",
  cancelOrder: "/api/exchange/v1/cancel_order",
  order: "/api/exchange/v1/order",
  openOrder: "/api/exchange/v1/open_order",
  balance: "/api/exchange/v1/balance",
  market: "/api/exchange/v1/market",
} as const;

/** docs/exchange-rules.md#limits: "probit token refresh at 95% of its lifetime". */
export const PROBIT_TOKEN_RENEW_AT = 0.95;

// ---------------------------------------------------------------- the bearer token (docs/exchange-rules.md#states)

export interface ProbitToken {
  accessToken: string;
  /** lifetime in seconds, as the token answer's expires_in */
  expiresIn: number;
}

/** `Basic base64(clientId:secret)`, the client-credentials header of the token request. */
export function probitBasicAuth(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.api}:${credentials.secret}`, "utf8").toString("base64")}`;
}

/** The token request exactly as sent. */
export function probitTokenRequest(credentials: Credentials): HttpRequest {
  return {
    method: "POST",
    path: PROBIT_PATHS.token,
    query: "",
    body: '{"grant_type":"client_credentials"}',
    headers: { "Content-Type": "application/json", Authorization: probitBasicAuth(credentials) },
  };
}

/**
 * One key's token: reused until 95% of its lifetime has passed, then fetched again; while a fetch
 * is in flight every caller waits on that same fetch (never two at once). A failed fetch is not
 * cached, so the next call tries again. The fetch is the caller's own (`get(fetchToken)`): the
 * cache outlives every adapter, so it keeps no adapter, no client and no secret, and a token is
 * fetched with the time-out, proxy, logger and dry run of the adapter that needs it.
 */
export class ProbitTokenCache {
  private token: { value: string; renewAt: number } | undefined;
  private inflight: Promise<string> | undefined;

  constructor(private readonly now: () => number) {}

  get(fetchToken: () => Promise<ProbitToken>): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.inflight ??= fetchToken().then(
      (fresh) => {
        const fetchedAt = this.now();
        this.token = { value: fresh.accessToken, renewAt: fetchedAt + fresh.expiresIn * 1000 * PROBIT_TOKEN_RENEW_AT };
        this.inflight = undefined;
        return fresh.accessToken;
      },
      (error: unknown) => {
        this.inflight = undefined;
        throw error;
      },
    );
    return this.inflight;
  }

  /** Forgets the token (ProBit answered UNAUTHORIZED with it). */
  invalidate(token: string): void {
    if (this.token?.value === token) this.token = undefined;
  }
}

/**
 * "Cached per key" (docs/exchange-rules.md#states): one cache per accounts host and client id, shared by every adapter
 * of the process. The secret takes part only as a digest, so a wrong secret never reuses a token.
 */
const TOKEN_CACHES = new Map<string, ProbitTokenCache>();

function tokenCacheFor(host: string, credentials: Credentials, create: () => ProbitTokenCache): ProbitTokenCache {
  const key = `${host}\n${credentials.api}\n${sha256Hex(credentials.secret)}`;
  let cache = TOKEN_CACHES.get(key);
  if (!cache) {
    cache = create();
    TOKEN_CACHES.set(key, cache);
  }
  return cache;
}

// ---------------------------------------------------------------- requests

/** A private request with the bearer token: GET parameters in the query, POST as a JSON body. */
export function probitSignedRequest(
  accessToken: string,
  method: HttpMethod,
  path: string,
  params: Record<string, string> = {},
): HttpRequest {
  const get = method === "GET";
  return {
    method,
    path,
    query: get ? buildQuery(params) : "",
    body: get ? "" : JSON.stringify(params),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${accessToken}` },
  };
}

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: num, token_type: z.string().optional() });

/** The ORDER object of new_order, cancel_order, order and open_order. */
const ProbitOrderSchema = z.object({
  id,
  market_id: z.string(),
  type: z.string().optional(),
  side: z.string(),
  quantity: num.optional(),
  limit_price: num.optional(),
  filled_quantity: num.optional(),
  open_quantity: num.optional(),
  cancelled_quantity: num.optional(),
  status: z.string(),
  time: z.string(),
  client_order_id: z.string().nullable().optional(),
});

const BalanceSchema = z.object({
  data: z.array(z.object({ currency_id: z.string(), total: num, available: num })),
});

/** BTC-USDT → BTC/USDT. */
function pairOfMarket(marketId: string): string {
  return marketId.replace("-", "/").toUpperCase();
}

/**
 * docs/decisions.md#d9: normalized by the general rule (open, filled → closed, cancelled → canceled) and
 * ProBit's own string kept in `rawStatus`. docs/exchange-rules.md#entities: the ISO time is parsed to milliseconds.
 */
export function parseProbitOrder(raw: unknown): Order {
  const order = parseAnswer("probit", ProbitOrderSchema, raw);
  const filled = toDecimalString(order.filled_quantity);
  const amount =
    order.quantity !== undefined
      ? toDecimalString(order.quantity)
      : new Decimal(filled)
          .plus(toDecimalString(order.open_quantity))
          .plus(toDecimalString(order.cancelled_quantity))
          .toFixed();
  const time = Date.parse(order.time);
  return {
    pair: pairOfMarket(order.market_id),
    id: order.id,
    clientOrderId: order.client_order_id ?? "",
    price: toDecimalString(order.limit_price),
    amount,
    filled,
    type: order.type ?? "limit",
    side: parseSide(order.side),
    status: normalizeStatus("probit", order.status),
    timestamp: Number.isNaN(time) ? 0 : time,
    rawStatus: order.status,
  };
}

/** ProBit gives total and available: locked is their difference. */
export function parseProbitBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("probit", BalanceSchema, raw).data.map((row) => {
      const total = toDecimalString(row.total);
      const available = toDecimalString(row.available);
      return { currency: row.currency_id, free: available, locked: new Decimal(total).minus(available).toFixed() };
    }),
  );
}

export class ProbitAdapter extends RestAdapter {
  private readonly accounts: RestClient;
  private readonly tokens: ProbitTokenCache;

  constructor(credentials: Credentials, options: ExchangeOptions) {
    super("probit", credentials, options, {
      baseUrl: PROBIT_BASE_URL,
    });
    // The token host is a second host: --base-url replaces it too (issue 8).
    this.accounts = new RestClient("probit", {
      baseUrl: options.baseUrl ?? PROBIT_ACCOUNTS_URL,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(credentials.httpAgent ? { proxy: credentials.httpAgent } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
    });
    this.tokens = tokenCacheFor(this.accounts.baseUrl, credentials, () => new ProbitTokenCache(this.now));
  }

  /** POST /token with the client credentials. Any refusal is an auth error (429 a rate limit). */
  private async fetchToken(): Promise<ProbitToken> {
    const response = await this.accounts.send(probitTokenRequest(this.credentials));
    let json: unknown;
    try {
      json = response.text ? parseJsonExact(response.text) : undefined;
    } catch {
      // not JSON: json stays undefined, and the refusal below names the HTTP status
    }
    const parsed = TokenSchema.safeParse(json);
    if (response.status < 300 && parsed.success) {
      return { accessToken: parsed.data.access_token, expiresIn: Number(parsed.data.expires_in) };
    }
    const body = (json ?? {}) as {
      errorCode?: unknown;
      message?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    const code =
      typeof body.errorCode === "string" ? body.errorCode : typeof body.error === "string" ? body.error : undefined;
    const message =
      typeof body.message === "string"
        ? body.message
        : typeof body.error_description === "string"
          ? body.error_description
          : `Token request refused (HTTP ${response.status})`;
    const error = this.fail(code, message, response.status, response.headers);
    if (error.kind === "rate-limit") throw error;
    throw new ExchangeError("probit", error.detail, { kind: "auth", ...(code ? { code } : {}) });
  }

  /** A private call: the ProBit answer is {data} on success and {errorCode, message, details} on 4xx/5xx. */
  private async call(method: HttpMethod, path: string, params: Record<string, string> = {}): Promise<unknown> {
    const token = await this.tokens.get(() => this.fetchToken());
    const response = await this.sendJson(probitSignedRequest(token, method, path, params));
    const refused = (response.json as { errorCode?: unknown } | undefined)?.errorCode === PROBIT_CODE.UNAUTHORIZED;
    if (refused || response.status === 401) this.tokens.invalidate(token);
    return this.unwrap(response);
  }

  /** {data} on success, {errorCode, message, details} on 4xx/5xx. */
  protected unwrap(response: JsonResponse): unknown {
    const json = (response.json ?? {}) as { data?: unknown; errorCode?: unknown; message?: unknown };
    if (response.status < 300 && json.data !== undefined) return json.data;
    const code = typeof json.errorCode === "string" ? json.errorCode : undefined;
    const msg = typeof json.message === "string" && json.message ? json.message : `HTTP ${response.status}`;
    throw this.fail(code, msg, response.status, response.headers);
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "-");
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    return parseProbitOrder(
      await this.call("POST", PROBIT_PATHS.newOrder, {
        market_id: this.symbol(order.pair),
        type: "limit",
        side: order.side === "Buy" ? "buy" : "sell",
        // docs/exchange-rules.md "Post-only": "gtcpo" is good-till-cancel, maker only
        time_in_force: order.postOnly ? "gtcpo" : "gtc",
        limit_price: order.price,
        quantity: order.amount,
        client_order_id: order.clientOrderId,
      }),
    );
  }

  private async queryOrder(
    pair: string,
    by: { order_id: string } | { client_order_id: string },
  ): Promise<Order | undefined> {
    // {data: [ORDER]}; a single ORDER object is read too, null as none (unwrap never yields undefined)
    const data = await this.call("GET", PROBIT_PATHS.order, { market_id: this.symbol(pair), ...by });
    const rows = Array.isArray(data) ? data : data === null ? [] : [data];
    return rows.length > 0 ? parseProbitOrder(rows[0]) : undefined;
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () => await this.queryOrder(pair, { client_order_id: clientOrderId }));
  }

  protected async submitBatch(): Promise<Order[]> {
    // Unreachable: docs/exchange-rules.md#limits lists batch as unsupported on probit and the base checks first.
    throw new ExchangeError("probit", "Not supported for probit", { kind: "unsupported" });
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    return parseProbitOrder(
      await this.call("POST", PROBIT_PATHS.cancelOrder, { market_id: this.symbol(pair), order_id: id }),
    ).id;
  }

  protected async submitCancelBatch(): Promise<string[]> {
    throw new ExchangeError("probit", "Not supported for probit", { kind: "unsupported" });
  }

  protected async submitCancelAll(): Promise<string[]> {
    throw new ExchangeError("probit", "Not supported for probit", { kind: "unsupported" });
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const order = await this.queryOrder(this.pairOf(pair), { order_id: this.orderId(id) });
    if (!order) throw new ExchangeError("probit", `Order ${id} not found`, { kind: "order-not-found" });
    return order;
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const rows = this.parse(
      z.array(z.unknown()),
      await this.call("GET", PROBIT_PATHS.openOrder, { market_id: this.symbol(this.pairOf(pair)) }),
    );
    return rows.map(parseProbitOrder);
  }

  async fetchBalances(): Promise<Balances> {
    return parseProbitBalances({ data: await this.call("GET", PROBIT_PATHS.balance) });
  }

  /** docs/exchange-rules.md#pairs: the public market list, sent without a bearer token (no key needed). */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseProbitPairs(this.unwrap(await this.publicGet(PROBIT_PATHS.market)));
  }
}

export function createProbitExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new ProbitAdapter(credentials, options);
}

/**
 * GET /api/exchange/v1/market's data: one market per row, `closed` true when it does not trade,
 * `price_increment` the price step, `quantity_precision` the amount's decimal places,
 * `min_quantity` and `min_cost` (price x quantity) the order minimums.
 */
const ProbitMarketsSchema = z.array(
  z.object({
    id: z.string(),
    base_currency_id: z.string(),
    quote_currency_id: z.string(),
    price_increment: stepValue,
    quantity_precision: precisionDigits,
    min_quantity: stepValue.optional(),
    min_cost: stepValue.optional(),
    closed: z.boolean(),
  }),
);

/** docs/exchange-rules.md#pairs: the markets not closed; tick price_increment, lot 10^-quantity_precision. */
export function parseProbitPairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("probit", ProbitMarketsSchema, raw, "data")
      .filter((m) => !m.closed)
      .map((m) => ({
        base: m.base_currency_id,
        quote: m.quote_currency_id,
        tick: stepText(m.price_increment),
        lot: digitsToStep(m.quantity_precision),
        minAmount: minimum(m.min_quantity),
        minNotional: minimum(m.min_cost),
      })),
  );
}
