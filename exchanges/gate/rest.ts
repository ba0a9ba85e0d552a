import { z } from "zod";
import { averagePrice, Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter } from "../core/adapter.js";
import { batchFailureMessage, id, num, parseAnswer, partlyPlaced } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest, retryAfterMs } from "../core/rest.js";
import { hmacSha512Hex, sha512Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import type { CountdownRule, ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { GATE_ERRORS, GATE_INFO, GATE_LABEL } from "./info.js";

export { GATE_ERRORS, GATE_LABEL };

/**
 * Gate APIv4 spot (https://www.gate.com/docs/developers/apiv4/): headers KEY, Timestamp (seconds,
 * within 60 s of the server) and SIGN = hex HMAC-SHA512 over
 * "METHOD\n/api/v4/path\nquery (not URL-encoded)\nhex SHA512(body)\ntimestamp".
 */
export const GATE_BASE_URL = "https://api.gateio.ws";

export const GATE_PATHS = {
  orders: "/api/v4/spot/orders",
  order: (id: string) => `/api/v4/spot/orders/${encodeURIComponent(id)}`,
  batchOrders: "/api/v4/spot/batch_orders",
  // docs/decisions.md#d10: gate's batch cancel is supported; the documented endpoint is cancel_batch_orders.
  cancelBatchOrders: "/api/v4/spot/cancel_batch_orders",
  accounts: "/api/v4/spot/accounts",
  currencyPairs: "/api/v4/spot/currency_pairs",
  // docs/exchange-rules.md#countdown: "Countdown cancel orders"
  countdownCancelAll: "/api/v4/spot/countdown_cancel_all",
} as const;

/**
 * gate's spot countdown (docs/exchange-rules.md#countdown): `timeout` at least 5 s (0 disarms),
 * optionally one `currency_pair`. No maximum is documented; spotdesk arms at most a day.
 */
export const GATE_COUNTDOWN: CountdownRule = GATE_INFO.countdown!;

/** Gate's `text` rule: "t-" and at most 28 more bytes of 0-9 A-Z a-z _ - . (docs/decisions.md#d11: hex). */
export const GATE_CLIENT_ID_RULE = GATE_INFO.clientOrderId;

export interface GateSignInput {
  method: HttpMethod;
  path: string;
  query: string;
  body: string;
  /** unix seconds, as sent in the Timestamp header */
  timestamp: string;
}

/** The signature string of Gate APIv4 and its hex HMAC-SHA512. */
export function gateSignature(secret: string, input: GateSignInput): string {
  const payload = `${input.method}\n${input.path}\n${input.query}\n${sha512Hex(input.body)}\n${input.timestamp}`;
  return hmacSha512Hex(secret, payload);
}

/** Builds the headers of one signed request (exported for the bench and the mock's tests). */
export function gateSignedHeaders(credentials: Credentials, input: GateSignInput): Record<string, string> {
  return {
    KEY: credentials.api,
    Timestamp: input.timestamp,
    SIGN: gateSignature(credentials.secret, input),
    Accept: "application/json",
    "Content-Type": "application/json",
  };
}

/** Builds one signed request exactly as it goes on the wire: the query and body signed are the ones sent. */
export function gateSignedRequest(
  credentials: Credentials,
  nowMs: number,
  method: HttpMethod,
  path: string,
  params: Record<string, string | number | undefined> = {},
  payload?: unknown,
): HttpRequest {
  const query = buildQuery(params);
  const body = payload === undefined ? "" : JSON.stringify(payload);
  const timestamp = String(Math.floor(nowMs / 1000));
  // Gate signs the query "without URL encode", in the order sent; for plain values the same bytes.
  const signedQuery = buildQuery(params, { encode: (value) => value });
  return {
    method,
    path,
    query,
    body,
    headers: gateSignedHeaders(credentials, { method, path, query: signedQuery, body, timestamp }),
  };
}

/** One pair of "List all currency pairs supported" (the fields we read). */
const GateCurrencyPairsSchema = z.array(
  z.object({
    id: z.string(),
    base: z.string(),
    quote: z.string(),
    min_base_amount: stepValue.nullable().optional(),
    min_quote_amount: stepValue.nullable().optional(),
    amount_precision: precisionDigits,
    precision: precisionDigits,
    trade_status: z.string(),
  }),
);

const GateOrderSchema = z.object({
  id,
  text: z.string().optional().default(""),
  create_time: num.optional(),
  create_time_ms: num.optional(),
  status: z.string().optional(),
  finish_as: z.string().optional(),
  currency_pair: z.string(),
  type: z.string().optional().default("limit"),
  side: z.string(),
  amount: num,
  price: num.optional(),
  left: num.optional(),
  filled_amount: num.optional(),
  avg_deal_price: num.optional(),
  fee: num.optional(),
  fee_currency: z.string().optional(),
});
type GateOrder = z.infer<typeof GateOrderSchema>;

const GateBatchItemSchema = z
  .object({ succeeded: z.boolean().optional(), label: z.string().optional(), message: z.string().optional() })
  .passthrough();

const GateCancelItemSchema = z.object({
  id: id.optional(),
  succeeded: z.boolean().optional(),
  label: z.string().optional(),
  message: z.string().optional(),
});

const GateAccountSchema = z.array(z.object({ currency: z.string(), available: num, locked: num }));

/** Gate's `currency_pair` (BTC_USDT) back to the pair as written BTC/USDT. */
function pairFromSymbol(symbol: string): string {
  return symbol.replace("_", "/").toUpperCase();
}

/** docs/exchange-rules.md#entities: milliseconds; create_time_ms when present, else the seconds of create_time × 1000. */
function gateTimestamp(order: GateOrder): number {
  if (order.create_time_ms !== undefined) return Math.floor(Number(order.create_time_ms));
  if (order.create_time !== undefined) return Math.floor(Number(order.create_time) * 1000);
  return 0;
}

/**
 * Gate's status is open / closed / cancelled; `finish_as` tells how a finished order ended
 * (filled, cancelled, ioc, stp, …): a closed order that did not finish as filled was cancelled.
 */
function gateStatus(order: GateOrder): Order["status"] {
  const status = normalizeStatus("gate", order.status);
  if (status === "closed" && order.finish_as && order.finish_as !== "filled" && order.finish_as !== "open") {
    return "canceled";
  }
  return status;
}

/** `root` names the answer in an "Unexpected answer" message (`orders[3]` → `orders[3].id …`). */
export function parseGateOrder(raw: unknown, root = "order"): Order {
  const order = parseAnswer("gate", GateOrderSchema, raw, root);
  const amount = toDecimalString(order.amount);
  // filled_amount on current answers; older ones only carry `left` (amount still open).
  const filled =
    order.filled_amount !== undefined
      ? toDecimalString(order.filled_amount)
      : order.left !== undefined
        ? new Decimal(amount).minus(toDecimalString(order.left)).toFixed()
        : "0";
  const status = gateStatus(order);
  return {
    pair: pairFromSymbol(order.currency_pair),
    id: order.id,
    clientOrderId: order.text,
    price: toDecimalString(order.price),
    amount,
    filled,
    type: order.type,
    side: parseSide(order.side),
    status,
    timestamp: gateTimestamp(order),
    ...(order.status && order.status !== status
      ? { rawStatus: order.finish_as ? `${order.status}/${order.finish_as}` : order.status }
      : {}),
    ...averageField(averagePrice(order.avg_deal_price, filled)),
    ...(order.fee !== undefined && order.fee_currency
      ? { fee: { amount: toDecimalString(order.fee), currency: order.fee_currency } }
      : {}),
  };
}

const averageField = (average: string | undefined) => (average === undefined ? {} : { average });

export function parseGateBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("gate", GateAccountSchema, raw, "accounts").map((row) => ({
      currency: row.currency,
      free: row.available,
      locked: row.locked,
    })),
  );
}

/** Retry-After when sent, else Gate's X-Gate-RateLimit-Reset-Timestamp (ms); undefined lets the base default. */
function gateRetryAfter(response: JsonResponse): number | undefined {
  const fromHeader = retryAfterMs(response.headers);
  if (fromHeader !== undefined) return fromHeader;
  const reset = Number(response.headers["x-gate-ratelimit-reset-timestamp"]);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - Date.now()) : undefined;
}

type Params = Record<string, string | number | undefined>;

export class GateAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions) {
    super("gate", credentials, options, {
      baseUrl: GATE_BASE_URL,
    });
  }

  /** One signed call: the query and body are built once, signed, and sent as signed. */
  private async call(method: HttpMethod, path: string, params: Params = {}, payload?: unknown): Promise<unknown> {
    return this.unwrap(
      await this.sendJson(gateSignedRequest(this.credentials, this.now(), method, path, params, payload)),
    );
  }

  /** Gate has no envelope: a 2xx answer is the payload. */
  protected unwrap(response: JsonResponse): unknown {
    if (response.status >= 200 && response.status < 300 && response.json !== undefined) return response.json;
    // Gate answers errors as {label, message} with a 4xx/5xx status.
    const error = (response.json ?? {}) as { label?: unknown; message?: unknown; detail?: unknown };
    const label = typeof error.label === "string" ? error.label : undefined;
    const message =
      typeof error.message === "string"
        ? error.message
        : typeof error.detail === "string"
          ? error.detail
          : `HTTP ${response.status}`;
    throw this.fail(label, message, response.status, response.headers, { retryAfterMs: gateRetryAfter(response) });
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "_");
  }

  private limitOrder(order: OrderToPlace) {
    return {
      text: order.clientOrderId,
      currency_pair: this.symbol(order.pair),
      type: "limit",
      account: "spot",
      side: order.side === "Buy" ? "buy" : "sell",
      amount: order.amount,
      price: order.price,
      // docs/exchange-rules.md "Post-only": "poc" (pending or cancelled) is maker only
      time_in_force: order.postOnly ? "poc" : "gtc",
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    return parseGateOrder(await this.call("POST", GATE_PATHS.orders, {}, this.limitOrder(order)));
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    // Gate accepts the custom `text` in place of the order id while the order is open.
    return this.unlessNotFound(async () =>
      parseGateOrder(await this.call("GET", GATE_PATHS.order(clientOrderId), { currency_pair: this.symbol(pair) })),
    );
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const answer = this.parse(
      z.array(GateBatchItemSchema),
      await this.call(
        "POST",
        GATE_PATHS.batchOrders,
        {},
        orders.map((o) => this.limitOrder(o)),
      ),
      "orders",
    );
    const failed = answer.find((item) => item.succeeded === false);
    if (failed) {
      const placed = answer.flatMap((item, i) =>
        item.succeeded === false ? [] : [parseGateOrder(item, `orders[${i}]`)],
      );
      throw partlyPlaced(
        this.fail(
          failed.label,
          batchFailureMessage([failed.label, failed.message], { placed: placed.length, total: answer.length }),
        ),
        placed,
      );
    }
    return answer.map((item, i) => parseGateOrder(item, `orders[${i}]`));
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    return parseGateOrder(await this.call("DELETE", GATE_PATHS.order(id), { currency_pair: this.symbol(pair) })).id;
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const payload = ids.map((id) => ({ currency_pair: this.symbol(pair), id }));
    const answer = this.parse(
      z.array(GateCancelItemSchema),
      await this.call("POST", GATE_PATHS.cancelBatchOrders, {}, payload),
      "cancels",
    );
    return succeededIds(answer);
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    const answer = this.parse(
      z.array(GateCancelItemSchema),
      await this.call("DELETE", GATE_PATHS.orders, { currency_pair: this.symbol(pair) }),
      "cancels",
    );
    return succeededIds(answer);
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    return parseGateOrder(
      await this.call("GET", GATE_PATHS.order(this.orderId(id)), { currency_pair: this.symbol(pair) }),
    );
  }

  /** docs/exchange-rules.md#paging: `page` 1, 2, … of `limit` 100 (the documented maximum), until a page comes short. */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    // docs/decisions.md#d10: the open-orders limit is the page size; `orders` pages past it.
    const limit = GATE_INFO.limits.openOrders ?? 100;
    let read = 0;
    return collectPages(
      "gate",
      "open orders",
      (o) => o.id,
      async (index) => {
        const rows = this.parse(
          z.array(z.unknown()),
          await this.call("GET", GATE_PATHS.orders, {
            currency_pair: this.symbol(pair),
            status: "open",
            page: index + 1,
            limit,
          }),
          "orders",
        );
        const items = rows.map((row, i) => parseGateOrder(row, `orders[${read + i}]`));
        read += rows.length;
        return { items, more: rows.length === limit };
      },
    );
  }

  /**
   * docs/exchange-rules.md#pairs: "List all currency pairs supported", public. Only
   * trade_status tradable is kept (not untradable, nor buyable or sellable alone); tick is
   * 10^-precision, lot 10^-amount_precision, min_base_amount and min_quote_amount the minimums.
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const answer = this.unwrap(await this.publicGet(GATE_PATHS.currencyPairs));
    return finishPairs(
      this.parse(GateCurrencyPairsSchema, answer, "pairs")
        .filter((p) => p.trade_status === "tradable")
        .map((p) => ({
          base: p.base,
          quote: p.quote,
          tick: digitsToStep(p.precision),
          lot: digitsToStep(p.amount_precision),
          minAmount: minimum(p.min_base_amount),
          minNotional: minimum(p.min_quote_amount),
        })),
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseGateBalances(await this.call("GET", GATE_PATHS.accounts));
  }

  readonly countdown = GATE_COUNTDOWN;

  /**
   * docs/exchange-rules.md#countdown: POST /spot/countdown_cancel_all {timeout, currency_pair}:
   * unless called again within `seconds`, gate cancels the pair's open spot orders (every pair's
   * without one); 0 disarms it. A length gate refuses is refused here first.
   */
  async cancelAllAfter(pair: string | undefined, seconds: number): Promise<void> {
    if (
      !Number.isInteger(seconds) ||
      (seconds !== 0 && (seconds < GATE_COUNTDOWN.minSeconds || seconds > GATE_COUNTDOWN.maxSeconds))
    )
      throw new ExchangeError(
        "gate",
        `Invalid countdown ${seconds}: expected 0 (off) or whole seconds from ${GATE_COUNTDOWN.minSeconds} to ${GATE_COUNTDOWN.maxSeconds}`,
        { kind: "bad-input" },
      );
    await this.call(
      "POST",
      GATE_PATHS.countdownCancelAll,
      {},
      { timeout: seconds, ...(pair !== undefined ? { currency_pair: this.symbol(pair) } : {}) },
    );
  }
}

function succeededIds(answer: z.infer<typeof GateCancelItemSchema>[]): string[] {
  return answer.filter((item) => item.succeeded !== false && item.id !== undefined).map((item) => item.id as string);
}

export function createGateExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new GateAdapter(credentials, options);
}
