/**
 * The base every REST adapter of a real exchange builds on. It holds what two exchanges share and
 * nothing particular to one: the adapter's own file keeps its paths, signer and parsers.
 *
 * CONTRACT (for adapter authors)
 *
 *   class BybitAdapter extends RestAdapter {
 *     constructor(credentials, options) {
 *       // the client order id rule and the error codes by kind come from exchanges/bybit/info.ts
 *       super("bybit", credentials, options, { baseUrl: "https://api.bybit.com" });
 *     }
 *     protected submitOrder(order: OrderToPlace): Promise<Order>                  // one create, no retry
 *     protected findByClientOrderId(pair, clientOrderId): Promise<Order|undefined> // after a time-out
 *     protected submitBatch(pair, orders: OrderToPlace[]): Promise<Order[]>
 *     protected submitCancel(pair, id): Promise<string>
 *     protected submitCancelBatch(pair, ids): Promise<string[]>
 *     protected submitCancelAll(pair): Promise<string[]>     // never called when LIMITS say unsupported
 *     protected unwrap(response: JsonResponse): unknown      // the envelope: payload, or throw this.fail(...)
 *     fetchOrder(pair, id), fetchOpenOrders(pair), fetchBalances()                 // public, as in ExchangeAdapter
 *   }
 *
 * What the base gives the hooks: `this.parse(schema, answer, root)` (a shape it does not know is
 * "Unexpected answer from {id}: {field} …", docs/exchange-rules.md#unexpected-answers, and any
 * schema refusal escaping an operation is turned into the same), `this.placed(order, id, time?)`
 * for a create answered by an id only, `this.unlessNotFound(lookup)` for the time-out look-up, and
 * `errorMessages` (message substrings → kinds) beside `errors` (exact codes), both from the exchange's info.ts.
 *
 * What the base does before calling those hooks:
 * - `this.rest` is a RestClient on `options.baseUrl ?? defaults.baseUrl` (baseUrl replaces EVERY
 *   REST host: build every request's path on `this.rest`), with `options.timeoutMs` and the proxy
 *   from `credentials.httpAgent` (docs/decisions.md#d12). `this.now()` is `options.now ?? Date.now`.
 * - createOrder: the pair is normalized (BTC/USDT), amount and price must be positive decimals
 *   ('bad-input' otherwise, before any request), a hexadecimal client order id is generated with
 *   the exchange's rule (docs/decisions.md#d11) unless the caller gave one, and the create goes through
 *   placeOnce: after a time-out the order is looked up by client order id before any resend.
 * - A caller's client order id (CLI --client-order-id, a batch item's clientOrderId) is checked
 *   against the rule (chars, min/max length, prefix) before any request; the public
 *   findOrderByClientOrderId(pair, id) wraps the findByClientOrderId hook for retries
 *   (docs/orders.md "Client order ids").
 * - createBatch / cancelBatch: assertBatchSize (docs/exchange-rules.md#validation "Maximum for ... is: {max}", "Not
 *   supported for {id}") and item validation before any request; every item gets its own id.
 * - cancelAll: assertSupported before any request.
 * - `this.sendJson(request)` sends through RestClient and parses the body with `parseJsonExact`
 *   (numbers longer than 15 characters arrive as strings, docs/exchange-rules.md#limits). It throws only for
 *   transport failures and non-JSON HTTP errors; the adapter checks its own success code and calls
 *   `this.fail(code, message, httpStatus, headers)` to throw an ExchangeError whose kind comes
 *   from the exchange's table of NAMED codes (`ErrorCodeTable`); HTTP 429 is rate-limit (with
 *   Retry-After, or the exchange's hint via `retryAfterMs`), 401/403 are auth.
 * - `collectBalances(rows)` drops all-zero currencies and upper-cases the codes (docs/exchange-rules.md#entities).
 */
import type { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import { type ErrorKind, ExchangeError } from "../../lib/errors.js";
import type { Logger } from "../../lib/log.js";
import { normalizePair } from "../../lib/pair.js";
import type { Balances, BatchItem, Credentials, Order, RealExchangeId, Side } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";
import type { CreateOrderRequest, ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { isSchemaError, parseAnswer, unexpectedAnswer } from "./answer.js";
import { checkClientOrderId, newClientOrderId } from "./client-order-id.js";
import type { ClientOrderIdRule, ErrorCodeTable, MessageRule } from "./info.js";
import { assertBatchSize, assertPostOnly, assertSupported } from "./limits.js";
import { placeOnce } from "./place.js";
import { buildQuery, type HttpRequest, type HttpResponse, RestClient, retryAfterMs } from "./rest.js";

/** An order that passed validation: pair BTC/USDT, decimal strings > 0, a client order id. */
export interface OrderToPlace {
  pair: string;
  side: Side;
  amount: string;
  price: string;
  clientOrderId: string;
  /** maker only: the exchange's documented form is sent (docs/exchange-rules.md "Post-only") */
  postOnly: boolean;
}

/** The exchange's error codes, by kind (exchanges/core/info.ts). Adapters fill it from NAMED constants of their docs. */
export type { ErrorCodeTable, MessageRule };

export interface AdapterDefaults {
  /** the exchange's production REST host, used when options.baseUrl is absent */
  baseUrl: string;
}

/** A parsed JSON answer. `json` is undefined when the body was not JSON. */
export interface JsonResponse {
  status: number;
  headers: HttpResponse["headers"];
  json: unknown;
  text: string;
}

const POSITIVE_DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** Checks a decimal string > 0 and returns its plain form (no exponent, no trailing dot). */
export function positiveDecimal(exchange: string, field: string, value: string): string {
  const text = String(value ?? "").trim();
  if (!POSITIVE_DECIMAL.test(text)) {
    throw new ExchangeError(exchange, `Invalid ${field} '${value}': expected a positive decimal number`, {
      kind: "bad-input",
    });
  }
  const n = new Decimal(text);
  if (!n.isGreaterThan(0))
    throw new ExchangeError(exchange, `Invalid ${field} '${value}': it must be above zero`, { kind: "bad-input" });
  return n.toFixed();
}

/**
 * JSON.parse that keeps long numbers exact (docs/exchange-rules.md#limits: "Numbers longer than 15 characters are
 * parsed as big numbers"): every numeric literal longer than 15 characters outside a string is
 * quoted before parsing, so it arrives as its exact decimal text. Short numbers stay numbers.
 *
 * Why ours and not lossless-json (issue 14 asked): lossless-json tokenizes in JavaScript, so every
 * answer would pay for it, while this scan runs only when a 16-character number is present and then
 * hands the text to the native parser. Measured on a 19 KB bybit-shaped answer of 100 orders with
 * 19-digit ids: lossless-json 4 `parse` with a long-numbers-as-text reviver 1,664 µs, this 529 µs,
 * plain JSON.parse 553 µs (same process), and lossless-json's import is a cost at every start.
 * Node 20 has no JSON.parse source-text access (the reviver `context.source`) that would make both
 * unnecessary. The feeds' hot path has its own scanner, levels.ts parseJsonKeepingLevels.
 */
export function parseJsonExact(text: string): unknown {
  if (!/[\d.eE+-]{16}/.test(text)) return JSON.parse(text);
  let out = "";
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++;
        else break;
      }
      if (i - start > 15) {
        out += `${text.slice(last, start)}"${text.slice(start, i)}"`;
        last = i;
      }
    } else {
      i++;
    }
  }
  return JSON.parse(out + text.slice(last));
}

/**
 * docs/exchange-rules.md#entities balances: currency → {f, l} as decimal strings; currencies whose free and locked
 * are both zero are dropped and codes are upper-cased. Repeated codes are added.
 */
export function collectBalances(rows: Iterable<{ currency: string; free: unknown; locked: unknown }>): Balances {
  const out: Balances = {};
  for (const row of rows) {
    const f = new Decimal(toDecimalString(row.free));
    const l = new Decimal(toDecimalString(row.locked));
    if (f.isZero() && l.isZero()) continue;
    const code = row.currency.toUpperCase();
    const prev = out[code];
    out[code] = prev
      ? { f: f.plus(prev.f).toFixed(), l: l.plus(prev.l).toFixed() }
      : { f: f.toFixed(), l: l.toFixed() };
  }
  return out;
}

/** Milliseconds from an exchange timestamp: seconds (10 digits or fewer) are multiplied by 1000 (docs/exchange-rules.md#entities). */
export function toMillis(value: unknown): number {
  // Stryker disable next-line all: a shortcut; Number(null) and Number("") are 0, and undefined falls to Date.parse, NaN, 0
  if (value === null || value === undefined || value === "") return 0;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) {
    const parsed = Date.parse(String(value));
    return Number.isNaN(parsed) ? 0 : parsed;
  }
  return Math.abs(n) < 1e11 ? Math.round(n * 1000) : Math.trunc(n);
}

export function kindForCode(table: ErrorCodeTable, code: string | number | undefined): ErrorKind | undefined {
  if (code === undefined || code === null || code === "") return undefined;
  const text = String(code);
  for (const [kind, codes] of Object.entries(table) as [ErrorKind, readonly (string | number)[]][]) {
    if (codes.some((c) => String(c) === text)) return kind;
  }
  return undefined;
}

/** Messages compared without case, and with any run of spaces or underscores as one space. */
// Stryker disable next-line MethodExpression: upper or lower, both sides of the comparison are folded the same way
const looseText = (text: string): string => text.toLowerCase().replace(/[\s_]+/g, " ");

/** The first message rule that reads this failure, or undefined. */
export function messageRule(
  rules: readonly MessageRule[],
  kind: ErrorKind,
  code: string | number | undefined,
  message: string,
): MessageRule | undefined {
  if (rules.length === 0) return undefined;
  const text = looseText(message);
  const codeText = code === undefined ? "" : looseText(String(code));
  return rules.find(
    (rule) =>
      (rule.code === undefined || String(rule.code) === String(code)) &&
      (rule.over === undefined || rule.over === kind) &&
      rule.text.some((part) => {
        const p = looseText(part);
        return (rule.start ? text.startsWith(p) : text.includes(p)) || (rule.inCode === true && codeText.includes(p));
      }),
  );
}

/**
 * The error mapper: (exchange code, message, HTTP status) → ExchangeError. The exchange's own table
 * wins; then HTTP 429 (and 418, the ban after repeated 429s) → rate-limit, 401/403 → auth;
 * anything else is an invalid order (the exchange refused the request). A message rule that
 * matches then decides the kind (and its wait).
 */
export function exchangeError(
  exchange: RealExchangeId,
  table: ErrorCodeTable,
  failure: {
    code?: string | number | undefined;
    message: string;
    status?: number | undefined;
    headers?: HttpResponse["headers"] | undefined;
    /** the exchange's own retry hint in ms, when its body carries one */
    retryAfterMs?: number | undefined;
    /** overrides the message text (okx's "Transaction failed (code, msg)") */
    detail?: string | undefined;
    /** overrides the reading of the status (ExchangeErrorOptions.unclear) */
    unclear?: boolean | undefined;
  },
  messages: readonly MessageRule[] = [],
): ExchangeError {
  let kind = kindForCode(table, failure.code);
  if (!kind) {
    // 418: the IP ban that follows repeated 429s (mexc's and bitmart's docs), with Retry-After.
    if (failure.status === 429 || failure.status === 418) kind = "rate-limit";
    else if (failure.status === 401 || failure.status === 403) kind = "auth";
    else kind = "invalid-order";
  }
  const rule = messageRule(messages, kind, failure.code, failure.message);
  if (rule) kind = rule.kind;
  const detail =
    failure.detail ??
    (failure.code !== undefined && failure.code !== "" ? `${failure.message} (code ${failure.code})` : failure.message);
  const retry =
    kind === "rate-limit"
      ? (rule?.retryAfterMs ??
        failure.retryAfterMs ??
        (failure.headers ? retryAfterMs(failure.headers) : undefined) ??
        1000)
      : undefined;
  // A server error (its gateway may have passed the request on) or a success status without the
  // exchange's own failure code (an empty or unknown body) does not say the request failed.
  const status = failure.status;
  const coded = failure.code !== undefined && failure.code !== "";
  const unclear = failure.unclear ?? (status !== undefined && (status >= 500 || (status < 300 && !coded)));
  return new ExchangeError(exchange, detail, {
    kind,
    ...(coded ? { code: failure.code } : {}),
    ...(retry !== undefined ? { retryAfterMs: retry } : {}),
    ...(unclear ? { unclear: true } : {}),
  });
}

/** The operations whose answers an adapter reads (the nine of docs/exchange-rules.md#operations and the client-id look-up). */
const OPERATIONS = [
  "createOrder",
  "createBatch",
  "cancelOrder",
  "cancelBatch",
  "cancelAll",
  "fetchOrder",
  "fetchOpenOrders",
  "fetchBalances",
  "findOrderByClientOrderId",
] as const;

export abstract class RestAdapter implements ExchangeAdapter {
  readonly id: RealExchangeId;
  protected readonly rest: RestClient;
  protected readonly credentials: Credentials;
  protected readonly now: () => number;
  protected readonly logger: Logger | undefined;
  protected readonly errorCodes: ErrorCodeTable;
  protected readonly errorMessages: readonly MessageRule[];
  private readonly clientOrderIdRule: ClientOrderIdRule;

  protected constructor(
    id: RealExchangeId,
    credentials: Credentials,
    options: ExchangeOptions,
    defaults: AdapterDefaults,
  ) {
    this.id = id;
    this.credentials = credentials;
    this.now = options.now ?? Date.now;
    this.logger = options.logger;
    this.errorCodes = CATALOGUE[id].errors ?? {};
    this.errorMessages = CATALOGUE[id].errorMessages ?? [];
    // the exchange's documented client order id shape, from its info.ts (docs/orders.md "Client order ids")
    this.clientOrderIdRule = CATALOGUE[id].clientOrderId;
    this.rest = new RestClient(id, {
      baseUrl: options.baseUrl ?? defaults.baseUrl,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(credentials.httpAgent ? { proxy: credentials.httpAgent } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.dryRun ? { dryRun: true } : {}),
    });
    // Every operation reads answers through schemas: a refusal that escaped parseAnswer still
    // leaves as the exchange's "Unexpected answer", never as a schema library's error.
    for (const name of OPERATIONS) {
      const operation = this[name] as (...args: unknown[]) => Promise<unknown>;
      (this as Record<string, unknown>)[name] = (...args: unknown[]) =>
        operation.apply(this, args).catch((error: unknown) => {
          throw isSchemaError(error) ? unexpectedAnswer(this.id, error) : error;
        });
    }
  }

  // ---- hooks each exchange implements ----
  /**
   * The exchange's envelope: the payload of a successful answer, or the failure it carries thrown
   * as `this.fail(...)`. Every signed call goes `this.unwrap(await this.sendJson(request))`.
   */
  protected abstract unwrap(response: JsonResponse): unknown;
  protected abstract submitOrder(order: OrderToPlace): Promise<Order>;
  protected abstract findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined>;
  protected abstract submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]>;
  protected abstract submitCancel(pair: string, id: string): Promise<string>;
  protected abstract submitCancelBatch(pair: string, ids: string[]): Promise<string[]>;
  protected abstract submitCancelAll(pair: string): Promise<string[]>;
  abstract fetchOrder(pair: string, id: string): Promise<Order>;
  abstract fetchOpenOrders(pair: string): Promise<Order[]>;
  abstract fetchBalances(): Promise<Balances>;
  /** the venue's public pair list (docs/exchange-rules.md#pairs): no key needed */
  abstract fetchPairs(): Promise<PairSpec[]>;

  // ---- the generic parts of the nine operations ----
  newClientOrderId(): string {
    return newClientOrderId(this.clientOrderIdRule);
  }

  protected orderToPlace(
    pair: string,
    item: {
      side: Side;
      amount: string;
      price: string;
      clientOrderId?: string | undefined;
      postOnly?: boolean | undefined;
    },
  ): OrderToPlace {
    if (item.side !== "Buy" && item.side !== "Sell") {
      throw new ExchangeError(this.id, `Invalid side '${String(item.side)}': expected Buy or Sell`, {
        kind: "bad-input",
      });
    }
    return {
      pair: normalizePair(pair, this.id),
      side: item.side,
      amount: positiveDecimal(this.id, "amount", item.amount),
      price: positiveDecimal(this.id, "price", item.price),
      clientOrderId:
        item.clientOrderId === undefined ? this.newClientOrderId() : this.checkClientOrderId(item.clientOrderId),
      postOnly: this.postOnlyOf(item.postOnly),
    };
  }

  private postOnlyOf(postOnly: boolean | undefined): boolean {
    if (postOnly !== true) return false;
    assertPostOnly(this.id);
    return true;
  }

  /** A caller's client order id checked against the exchange's documented rule (docs/orders.md "Client order ids"). */
  checkClientOrderId(clientOrderId: string): string {
    return checkClientOrderId(this.id, this.clientOrderIdRule, clientOrderId);
  }

  /**
   * The order the exchange knows by this client order id, or undefined: the look-up of the
   * time-out rule, also used before a retried create (docs/orders.md "Client order ids").
   */
  async findOrderByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.findByClientOrderId(normalizePair(pair, this.id), this.checkClientOrderId(clientOrderId));
  }

  async createOrder(request: CreateOrderRequest): Promise<Order> {
    const order = this.orderToPlace(request.pair, request);
    return placeOnce(
      () => this.submitOrder(order),
      () => this.findByClientOrderId(order.pair, order.clientOrderId),
    );
  }

  async createBatch(pair: string, items: readonly BatchItem[]): Promise<Order[]> {
    assertBatchSize(this.id, "createBatch", items.length);
    const orders = items.map((item) => this.orderToPlace(pair, item));
    return this.submitBatch(orders[0]!.pair, orders);
  }

  async cancelOrder(pair: string, id: string): Promise<string> {
    return this.submitCancel(normalizePair(pair, this.id), this.orderId(id));
  }

  async cancelBatch(pair: string, ids: readonly string[]): Promise<string[]> {
    assertBatchSize(this.id, "cancelBatch", ids.length);
    return this.submitCancelBatch(
      normalizePair(pair, this.id),
      ids.map((id) => this.orderId(id)),
    );
  }

  async cancelAll(pair: string): Promise<string[]> {
    assertSupported(this.id, "cancelAll");
    return this.submitCancelAll(normalizePair(pair, this.id));
  }

  async close(): Promise<void> {}

  /**
   * What a create returns when the exchange answers only the order's id (and perhaps its time):
   * the order as sent, open, nothing filled, stamped with the exchange's time or our clock.
   */
  protected placed(order: OrderToPlace, id: string, time?: unknown): Order {
    return {
      pair: order.pair,
      id,
      clientOrderId: order.clientOrderId,
      price: order.price,
      amount: order.amount,
      filled: "0",
      type: "limit",
      side: order.side,
      status: "open",
      timestamp: toMillis(time) || this.now(),
    };
  }

  /**
   * A look-up whose "not found" answer means the order is not there (the time-out rule's
   * findByClientOrderId): undefined instead of the error. `notFound` says which errors mean that
   * (kind order-not-found unless the exchange needs a narrower test).
   */
  protected async unlessNotFound<T>(
    lookup: () => Promise<T>,
    notFound: (error: ExchangeError) => boolean = (error) => error.kind === "order-not-found",
  ): Promise<T | undefined> {
    try {
      return await lookup();
    } catch (error) {
      if (error instanceof ExchangeError && notFound(error)) return undefined;
      throw error;
    }
  }

  /** Parses an answer with a schema; another shape is "Unexpected answer from {id}: {field} …" (core/answer.ts). */
  protected parse<S extends z.ZodType>(schema: S, answer: unknown, root = ""): z.output<S> {
    return parseAnswer(this.id, schema, answer, root);
  }

  /** The pair written BTC/USDT, checked (bad-input otherwise). */
  protected pairOf(pair: string): string {
    return normalizePair(pair, this.id);
  }

  protected orderId(id: string): string {
    const text = String(id ?? "").trim();
    if (!text) throw new ExchangeError(this.id, "An order id is required", { kind: "bad-input" });
    return text;
  }

  // ---- transport and errors ----
  /** Sends the request exactly as built and parses the JSON answer with long numbers kept exact. */
  protected async sendJson(request: HttpRequest): Promise<JsonResponse> {
    const response = await this.rest.send(request);
    let json: unknown;
    try {
      json = response.text === "" ? undefined : parseJsonExact(response.text);
    } catch {
      json = undefined;
    }
    if (json === undefined && response.status >= 400) {
      throw this.fail(
        undefined,
        response.text.slice(0, 200) || `HTTP ${response.status}`,
        response.status,
        response.headers,
      );
    }
    return { status: response.status, headers: response.headers, json, text: response.text };
  }

  /**
   * A public GET: no key, no signature, on `this.rest` like every call (baseUrl, --proxy). The
   * venue's market data, such as its pair list (docs/exchange-rules.md#pairs), needs no account.
   */
  protected publicGet(
    path: string,
    params: Record<string, string | number | undefined> = {},
    encode?: (value: string) => string,
  ): Promise<JsonResponse> {
    return this.sendJson({
      method: "GET",
      path,
      query: buildQuery(params, encode ? { encode } : {}),
      body: "",
      headers: {},
    });
  }

  /** Builds (does not throw) the ExchangeError for an exchange failure. */
  protected fail(
    code: string | number | undefined,
    message: string,
    status?: number,
    headers?: HttpResponse["headers"],
    extra: { retryAfterMs?: number | undefined; detail?: string | undefined; unclear?: boolean | undefined } = {},
  ): ExchangeError {
    return exchangeError(this.id, this.errorCodes, { code, message, status, headers, ...extra }, this.errorMessages);
  }
}
