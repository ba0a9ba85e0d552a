import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, num, parseAnswer } from "../core/answer.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepText, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { XT_CODE, XT_ERRORS } from "./info.js";

export { XT_CODE, XT_ERRORS };

/**
 * XT spot v4 (https://doc.xt.com/docs/spot/Access%20Description/signSteps): headers
 * validate-algorithms (HmacSHA256), validate-appkey, validate-recvwindow (5000, docs/exchange-rules.md#limits),
 * validate-timestamp (ms) and validate-signature = hex HMAC-SHA256 of X + Y, where
 *   X = those four headers as `key=value` sorted by key and joined with '&';
 *   Y = `#METHOD#path`, then `#query` (keys sorted) when there is one, then `#body` (raw JSON) when there is one.
 * Answers are {rc, mc, ma, result}: rc 0 is success (docs/exchange-rules.md#errors), mc names the failure.
 */
export const XT_BASE_URL = "https://sapi.xt.com";
export const XT_RECV_WINDOW = 5000;

export const XT_PATHS = {
  order: "/v4/order",
  orderById: (id: string) => `/v4/order/${encodeURIComponent(id)}`,
  batchOrder: "/v4/batch-order",
  openOrder: "/v4/open-order",
  balances: "/v4/balances",
  symbols: "/v4/public/symbol",
} as const;

type Params = Record<string, string | number | undefined>;

/** Builds the signed request; `query` keys are sorted as XT signs them, the body is the raw JSON sent. */
export function xtSignedRequest(
  credentials: Pick<Credentials, "api" | "secret">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  query: Params = {},
  body?: unknown,
): HttpRequest {
  const queryString = buildQuery(query, { sort: true });
  const bodyText = body === undefined ? "" : JSON.stringify(body);
  const ts = String(timestamp);
  const x = `validate-algorithms=HmacSHA256&validate-appkey=${credentials.api}&validate-recvwindow=${XT_RECV_WINDOW}&validate-timestamp=${ts}`;
  const y = `#${method}#${path}${queryString ? `#${queryString}` : ""}${bodyText ? `#${bodyText}` : ""}`;
  return {
    method,
    path,
    query: queryString,
    body: bodyText,
    headers: {
      "validate-algorithms": "HmacSHA256",
      "validate-appkey": credentials.api,
      "validate-recvwindow": String(XT_RECV_WINDOW),
      "validate-timestamp": ts,
      "validate-signature": hmacSha256Hex(credentials.secret, x + y),
      ...(bodyText ? { "Content-Type": "application/json" } : {}),
    },
  };
}

const XtOrderSchema = z.object({
  symbol: z.string().optional(),
  orderId: id,
  clientOrderId: z.string().nullable().optional(),
  side: z.string(),
  type: z.string().optional(),
  price: num.nullable().optional(),
  origQty: num.nullable().optional(),
  executedQty: num.nullable().optional(),
  state: z.string().optional(),
  time: num.optional(),
});

const EnvelopeSchema = z.object({ rc: num, mc: z.string().nullable().optional(), result: z.unknown().optional() });

/** docs/exchange-rules.md#states by the general table: NEW, PARTIALLY_FILLED open; FILLED closed; CANCELED, REJECTED, EXPIRED canceled. */
export function parseXtOrder(raw: unknown, pair: string): Order {
  const o = parseAnswer("xt", XtOrderSchema, raw);
  const order: Order = {
    pair,
    id: o.orderId,
    clientOrderId: o.clientOrderId ?? "",
    price: toDecimalString(o.price),
    amount: toDecimalString(o.origQty),
    filled: toDecimalString(o.executedQty),
    type: (o.type ?? "LIMIT").toLowerCase(),
    side: parseSide(o.side),
    status: normalizeStatus("xt", o.state),
    timestamp: toMillis(o.time),
  };
  if (o.state !== undefined) order.rawStatus = o.state;
  return order;
}

export function parseXtBalances(result: unknown): Balances {
  const { assets } = parseAnswer(
    "xt",
    z.object({
      assets: z
        .array(z.object({ currency: z.string(), availableAmount: num, frozenAmount: num }))
        .nullable()
        .optional(),
    }),
    result,
  );
  return collectBalances(
    (assets ?? []).map((a) => ({ currency: a.currency, free: a.availableAmount, locked: a.frozenAmount })),
  );
}

/** One item of the batch answer: accepted items carry orderId, rejected ones reject=true and a reason. */
const BatchItemSchema = z.object({
  index: z.number().optional(),
  clientOrderId: z.string().nullable().optional(),
  orderId: id.nullable().optional(),
  reject: z.boolean().optional(),
  reason: z.string().nullable().optional(),
});

/**
 * GET /v4/public/symbol: result.symbols, each with its state (ONLINE trades), tradingEnabled and
 * openapiEnabled, its precisions in digits and its filters: PRICE and QUANTITY (min, max, tickSize,
 * each possibly null) and QUOTE_QTY (min: price x quantity of a limit order; null is no limit).
 */
const XtSymbolsSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      state: z.string(),
      tradingEnabled: z.boolean(),
      openapiEnabled: z.boolean().optional(),
      baseCurrency: z.string(),
      quoteCurrency: z.string(),
      pricePrecision: precisionDigits,
      quantityPrecision: precisionDigits,
      filters: z
        .array(
          z.object({
            filter: z.string(),
            min: stepValue.nullable().optional(),
            tickSize: stepValue.nullable().optional(),
          }),
        )
        .nullable()
        .optional(),
    }),
  ),
});

/** docs/exchange-rules.md#pairs: ONLINE symbols open to trading through the API; the filters' steps, else the precisions. */
export function parseXtPairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("xt", XtSymbolsSchema, raw, "result")
      .symbols.filter((s) => s.state === "ONLINE" && s.tradingEnabled && s.openapiEnabled !== false)
      .map((s) => {
        const filter = (name: string) => s.filters?.find((f) => f.filter === name);
        const price = filter("PRICE")?.tickSize;
        const quantity = filter("QUANTITY");
        return {
          base: s.baseCurrency,
          quote: s.quoteCurrency,
          tick: price != null ? stepText(price) : digitsToStep(s.pricePrecision),
          lot: quantity?.tickSize != null ? stepText(quantity.tickSize) : digitsToStep(s.quantityPrecision),
          minAmount: minimum(quantity?.min),
          minNotional: minimum(filter("QUOTE_QTY")?.min),
        };
      }),
  );
}

export class XtAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    // clientOrderId: ^[a-zA-Z0-9_]{4,22}$ for a single order ({4,32} in a batch) — 22 hex fit both (docs/decisions.md#d11).
    super("xt", credentials, options, {
      baseUrl: XT_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, query: Params = {}, body?: unknown): Promise<unknown> {
    return this.unwrap(await this.sendJson(xtSignedRequest(this.credentials, this.now(), method, path, query, body)));
  }

  /** {rc, mc, result}: rc 0 is success; mc names the failure. */
  protected unwrap(response: JsonResponse): unknown {
    const parsed = EnvelopeSchema.safeParse(response.json);
    if (!parsed.success)
      throw this.fail(undefined, `Unexpected answer (HTTP ${response.status})`, response.status, response.headers);
    if (isCode(parsed.data.rc, 0) && response.status < 400) return parsed.data.result;
    const mc = parsed.data.mc ?? undefined;
    const message = (mc && (XT_CODE as Record<string, string>)[mc]) || mc || `HTTP ${response.status}`;
    throw this.fail(mc, message, response.status, response.headers);
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "_", true);
  }

  private orderBody(order: OrderToPlace): Record<string, string> {
    return {
      symbol: this.symbol(order.pair),
      clientOrderId: order.clientOrderId,
      side: order.side === "Buy" ? "BUY" : "SELL",
      type: "LIMIT",
      // docs/exchange-rules.md "Post-only": GTX is maker only
      timeInForce: order.postOnly ? "GTX" : "GTC",
      bizType: "SPOT",
      price: order.price,
      quantity: order.amount,
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const result = this.parse(
      z.object({ orderId: id }),
      await this.call("POST", XT_PATHS.order, {}, this.orderBody(order)),
    );
    return this.placed(order, result.orderId);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () => {
      const result = await this.call("GET", XT_PATHS.order, { clientOrderId });
      return result ? parseXtOrder(result, pair) : undefined;
    });
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const result = this.parse(
      z.object({ items: z.array(BatchItemSchema).nullable().optional() }),
      (await this.call("POST", XT_PATHS.batchOrder, {}, { items: orders.map((o) => this.orderBody(o)) })) ?? {},
    );
    // docs/exchange-rules.md#validation: xt batch skips rejected items — the accepted ones are returned, the others logged.
    const placed: Order[] = [];
    for (const [i, item] of (result.items ?? []).entries()) {
      const order = orders.find((o) => o.clientOrderId === item.clientOrderId) ?? orders[item.index ?? i];
      if (!order) continue;
      if (item.reject || !item.orderId) {
        this.logger?.warn("xt batch item rejected", { clientOrderId: order.clientOrderId, reason: item.reason ?? "" });
        continue;
      }
      placed.push(this.placed(order, item.orderId));
    }
    return placed;
  }

  protected async submitCancel(_pair: string, orderId: string): Promise<string> {
    const result = this.parse(
      z.object({ cancelId: id.optional() }),
      (await this.call("DELETE", XT_PATHS.orderById(orderId))) ?? {},
    );
    return result.cancelId ?? orderId;
  }

  protected async submitCancelBatch(_pair: string, ids: string[]): Promise<string[]> {
    // XT answers result {}: the call either cancels the list or fails as a whole.
    await this.call("DELETE", XT_PATHS.batchOrder, {}, { orderIds: ids });
    return ids;
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    // result {}: XT does not say which orders it canceled.
    await this.call("DELETE", XT_PATHS.openOrder, {}, { symbol: this.symbol(pair), bizType: "SPOT" });
    return [];
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    const p = this.pairOf(pair);
    const result = await this.call("GET", XT_PATHS.orderById(this.orderId(orderId)));
    if (!result) throw new ExchangeError(this.id, `Order ${orderId} not found`, { kind: "order-not-found" });
    return parseXtOrder(result, p);
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    const result = await this.call("GET", XT_PATHS.openOrder, { symbol: this.symbol(p), bizType: "SPOT" });
    return this.parse(z.array(z.unknown()), result ?? []).map((raw) => parseXtOrder(raw, p));
  }

  async fetchBalances(): Promise<Balances> {
    return parseXtBalances((await this.call("GET", XT_PATHS.balances)) ?? {});
  }

  /** docs/exchange-rules.md#pairs: the public symbol list; a path under /public is not signed. */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseXtPairs(this.unwrap(await this.publicGet(XT_PATHS.symbols)));
  }
}

export function createXtExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new XtAdapter(credentials, options);
}
