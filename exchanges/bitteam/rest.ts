import { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, num, parseAnswer } from "../core/answer.js";
import { digitsToStep, finishPairs, precisionDigits } from "../core/pair-list.js";
import { mayHaveBeenPlaced } from "../core/place.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { normalizeStatus } from "../core/status.js";
import { isCode, isSuccessCode } from "../core/success.js";
import type { CreateOrderRequest, ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { BITTEAM_CODE, BITTEAM_ERRORS, BITTEAM_INFO } from "./info.js";

export { BITTEAM_CODE, BITTEAM_ERRORS };

const C = BITTEAM_CODE;

/**
 * BIT.TEAM (https://bit.team/trade/api/documentation, section CCXT): docs/exchange-rules.md#calls "bitteam: basic
 * authentication" — every private call carries `Authorization: Basic base64(apiKey:secret)`, GET
 * parameters in the query, POST parameters as a JSON body. Answers are {ok, result} on success and
 * {ok: false, code, message} on failure (six-digit codes such as 401000); docs/exchange-rules.md#errors gives 0 as
 * bitteam's success code, so an answer is a success only when `ok` is true and its code, if any, is 0.
 *
 * Orders name their market by a numeric pair id (`pairId`, sent as a string); the ids come from
 * GET /trade/api/ccxt/pairs, fetched once per adapter. docs/exchange-rules.md#limits: open orders 100 a page, no
 * batch create or cancel; cancel all is supported.
 */
export const BITTEAM_BASE_URL = "https://bit.team";
export const BITTEAM_SUCCESS = 0;

export const BITTEAM_PATHS = {
  pairs: "/trade/api/ccxt/pairs",
  order: (id: string) => `/trade/api/ccxt/order/${encodeURIComponent(id)}`,
  ordersOfUser: "/trade/api/ccxt/ordersOfUser",
  balance: "/trade/api/ccxt/balance",
  orderCreate: "/trade/api/ccxt/ordercreate",
  cancelOrder: "/trade/api/ccxt/cancelorder",
  cancelAll: "/trade/api/ccxt/cancel-all-order",
} as const;

/** `Basic base64(apiKey:secret)` (docs/exchange-rules.md#calls). */
export function bitteamAuthorization(credentials: Pick<Credentials, "api" | "secret">): string {
  return `Basic ${Buffer.from(`${credentials.api}:${credentials.secret}`, "utf8").toString("base64")}`;
}

type Params = Record<string, string | number | undefined>;

/**
 * One request exactly as sent. `authorization` is undefined for the public pairs list. POST bodies
 * are JSON (the documented content type); GET parameters go in the query.
 */
export function bitteamRequest(
  authorization: string | undefined,
  method: HttpMethod,
  path: string,
  params: Params = {},
): HttpRequest {
  const get = method === "GET";
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (authorization) headers.Authorization = authorization;
  return { method, path, query: get ? buildQuery(params) : "", body: get ? "" : JSON.stringify(params), headers };
}

const PairsSchema = z.object({
  pairs: z.array(z.object({ id: num, name: z.string() }).passthrough()),
});

/** The order object of ordercreate, order/{id} and ordersOfUser. */
const BitteamOrderSchema = z.object({
  id,
  pair: z.string(),
  quantity: num.optional(),
  price: num.nullable().optional(),
  executed: num.nullable().optional(),
  status: z.string().optional(),
  side: z.string(),
  type: z.string().nullable().optional(),
  orderCid: z.string().nullable().optional(),
  timestamp: num.nullable().optional(),
  createdAt: z.string().nullable().optional(),
});

const OrdersOfUserSchema = z.object({ count: num.optional(), orders: z.array(z.unknown()).nullable().optional() });

/** btc_usdt → BTC/USDT. */
function pairOfName(name: string): string {
  return name.replace("_", "/").toUpperCase();
}

/**
 * docs/exchange-rules.md#states through exchanges/core/status.ts (created, accepted, executing → open; executed → closed;
 * cancelled, partiallyCancelled → canceled); BIT.TEAM's own word is kept in `rawStatus`.
 * docs/exchange-rules.md#entities: `createdAt` (ISO) when present, else `timestamp` in seconds × 1000.
 */
export function parseBitteamOrder(raw: unknown): Order {
  const o = parseAnswer("bitteam", BitteamOrderSchema, raw);
  const created = o.createdAt ? Date.parse(o.createdAt) : Number.NaN;
  const order: Order = {
    pair: pairOfName(o.pair),
    id: o.id,
    clientOrderId: o.orderCid ?? "",
    price: toDecimalString(o.price),
    amount: toDecimalString(o.quantity),
    filled: toDecimalString(o.executed),
    type: o.type ?? "limit",
    side: parseSide(o.side),
    status: normalizeStatus("bitteam", o.status),
    timestamp: Number.isNaN(created) ? toMillis(o.timestamp) : created,
  };
  if (o.status !== undefined) order.rawStatus = o.status;
  return order;
}

/**
 * result holds the maps free/used/total and one {free, used, total} object per currency; the
 * per-currency objects are read. docs/exchange-rules.md#entities: all-zero currencies dropped, codes upper-cased.
 */
export function parseBitteamBalances(result: unknown): Balances {
  const rows = parseAnswer("bitteam", z.record(z.string(), z.unknown()), result);
  const entry = z.object({ free: num.nullable().optional(), used: num.nullable().optional() });
  const out: { currency: string; free: unknown; locked: unknown }[] = [];
  for (const [currency, value] of Object.entries(rows)) {
    if (currency === "free" || currency === "used" || currency === "total") continue;
    const parsed = entry.safeParse(value);
    if (parsed.success) out.push({ currency, free: parsed.data.free, locked: parsed.data.used });
  }
  return collectBalances(out);
}

export class BitteamAdapter extends RestAdapter {
  private readonly authorization: string;
  /** pair name (btc_usdt) → numeric pair id, fetched once per adapter */
  private pairIds: Promise<Map<string, string>> | undefined;

  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    // clientOrderId: BIT.TEAM documents none (see createOrder); the rule only shapes the unused local id.
    super("bitteam", credentials, options, {
      baseUrl: BITTEAM_BASE_URL,
    });
    this.authorization = bitteamAuthorization(credentials);
  }

  private async call(method: HttpMethod, path: string, params: Params = {}, authorized = true): Promise<unknown> {
    return this.unwrap(
      await this.sendJson(bitteamRequest(authorized ? this.authorization : undefined, method, path, params)),
    );
  }

  /** {ok, result} on success, {ok: false, code, message} on failure. */
  protected unwrap(response: JsonResponse): unknown {
    const json = (response.json ?? {}) as {
      ok?: unknown;
      code?: unknown;
      result?: unknown;
      message?: unknown;
      msg?: unknown;
    };
    const code = typeof json.code === "number" || typeof json.code === "string" ? json.code : undefined;
    if (response.status < 400 && json.ok === true && isSuccessCode(code, BITTEAM_SUCCESS, true)) return json.result;
    const msg =
      typeof json.message === "string" && json.message
        ? json.message
        : typeof json.msg === "string" && json.msg
          ? json.msg
          : `HTTP ${response.status}`;
    // "Service Unavailable" comes with a 403 status: it is the exchange being down, not a refused key.
    if (isCode(code, C.SERVICE_UNAVAILABLE))
      throw new ExchangeError(this.id, `${msg} (code ${code})`, { kind: "network", code: code! });
    throw this.fail(code, msg, response.status, response.headers);
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "_", true);
  }

  /**
   * The numeric pair id of a pair, from the pairs list cached per adapter. A failed fetch is not
   * kept, and neither is a list of another shape: the catch follows the parse, so an answer the
   * schema refuses is fetched again on the next call instead of failing every later create.
   */
  private async pairId(pair: string): Promise<string> {
    this.pairIds ??= this.call("GET", BITTEAM_PATHS.pairs, {}, false)
      .then((result) => new Map(this.parse(PairsSchema, result).pairs.map((p) => [p.name.toLowerCase(), String(p.id)])))
      .catch((error: unknown) => {
        this.pairIds = undefined;
        throw error;
      });
    const ids = await this.pairIds;
    const found = ids.get(this.symbol(pair));
    if (found === undefined)
      throw new ExchangeError(this.id, `Pair ${pair} is not traded on bitteam`, { kind: "invalid-order" });
    return found;
  }

  /**
   * docs/exchange-rules.md#contract "A create is never sent twice blindly". BIT.TEAM documents no client order id on
   * ordercreate (the answer's orderCid is null, and unknown body keys are refused), so a time-out
   * cannot be resolved by id. Instead, after a create that may have reached the exchange, the open
   * orders of ordersOfUser are searched for the one order with the same pair, side, price and
   * amount created after this request began; exactly one match is returned. Anything else — the
   * look-up fails, finds nothing, or finds several — cannot prove the order absent, and a resend
   * without an id the exchange would deduplicate is exactly the blind resend docs/exchange-rules.md#contract forbids: the
   * original network error is thrown and nothing is sent again.
   */
  override async createOrder(request: CreateOrderRequest): Promise<Order> {
    const order = this.orderToPlace(request.pair, request);
    const pairId = await this.pairId(order.pair);
    const startedAt = this.now();
    try {
      return await this.submitOrderTo(pairId, order);
    } catch (error) {
      if (!mayHaveBeenPlaced(error)) throw error;
      let matches: Order[];
      try {
        matches = await this.placedSince(order, startedAt);
      } catch {
        throw error;
      }
      if (matches.length === 1) return matches[0]!;
      throw error;
    }
  }

  /** Open orders matching a create, created at or after the second the create began (BIT.TEAM times are in seconds). */
  private async placedSince(order: OrderToPlace, startedAt: number): Promise<Order[]> {
    const since = startedAt - (startedAt % 1000);
    const price = new Decimal(order.price);
    const amount = new Decimal(order.amount);
    return (await this.fetchOpenOrders(order.pair)).filter(
      (o) =>
        o.pair === order.pair &&
        o.side === order.side &&
        o.status === "open" &&
        o.timestamp >= since &&
        price.isEqualTo(o.price) &&
        amount.isEqualTo(o.amount),
    );
  }

  private async submitOrderTo(pairId: string, order: OrderToPlace): Promise<Order> {
    // A limit order rests until filled or canceled (good-till-cancel is BIT.TEAM's only time in force).
    const placed = parseBitteamOrder(
      await this.call("POST", BITTEAM_PATHS.orderCreate, {
        pairId,
        type: "limit",
        side: order.side === "Buy" ? "buy" : "sell",
        amount: order.amount,
        price: order.price,
      }),
    );
    return { ...placed, timestamp: placed.timestamp || this.now() };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    return this.submitOrderTo(await this.pairId(order.pair), order);
  }

  /** BIT.TEAM documents no client order id: an order cannot be made idempotent there (docs/orders.md "Client order ids"). */
  override checkClientOrderId(): string {
    throw new ExchangeError(this.id, "bitteam takes no client order id: it cannot look an order up by one", {
      kind: "unsupported",
    });
  }

  /** Never used: createOrder resolves time-outs without an id (see there). Throwing keeps any caller from resending. */
  protected async findByClientOrderId(): Promise<Order | undefined> {
    throw new ExchangeError(this.id, "bitteam has no client order id to look an order up by", { kind: "unsupported" });
  }

  // docs/exchange-rules.md#limits: the base refuses batches ("Not supported for bitteam") before these are reached.
  protected async submitBatch(): Promise<Order[]> {
    throw new ExchangeError(this.id, "Not supported for bitteam", { kind: "unsupported" });
  }
  protected async submitCancelBatch(): Promise<string[]> {
    throw new ExchangeError(this.id, "Not supported for bitteam", { kind: "unsupported" });
  }

  /** The answer is only a message ("The request to cancel your order was received"). */
  protected async submitCancel(_pair: string, orderId: string): Promise<string> {
    await this.call("POST", BITTEAM_PATHS.cancelOrder, { id: orderId });
    return orderId;
  }

  /** The answer is only a message: BIT.TEAM does not say which orders it canceled. */
  protected async submitCancelAll(pair: string): Promise<string[]> {
    await this.call("POST", BITTEAM_PATHS.cancelAll, { pairId: await this.pairId(pair) });
    return [];
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    const p = this.pairOf(pair);
    const order = parseBitteamOrder(await this.call("GET", BITTEAM_PATHS.order(this.orderId(orderId))));
    if (order.pair !== p)
      throw new ExchangeError(this.id, `Order ${orderId} is not on ${p}`, { kind: "order-not-found" });
    return order;
  }

  /** docs/decisions.md#d10: pages of the open-orders limit (100), following `offset` until `count` is reached. */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    const limit = BITTEAM_INFO.limits.openOrders ?? 100;
    const out: Order[] = [];
    const seen = new Set<string>();
    for (let offset = 0; ; offset += limit) {
      const page = this.parse(
        OrdersOfUserSchema,
        (await this.call("GET", BITTEAM_PATHS.ordersOfUser, { type: "active", pair: this.symbol(p), limit, offset })) ??
          {},
      );
      const rows = (page.orders ?? []).map(parseBitteamOrder);
      const fresh = rows.filter((o) => !seen.has(o.id));
      for (const o of fresh) seen.add(o.id);
      out.push(...fresh.filter((o) => o.pair === p));
      const total = Number(page.count ?? 0);
      // An exchange that ignored offset would repeat the page: stop when nothing new arrives.
      if (rows.length < limit || fresh.length === 0 || seen.size >= total) return out;
    }
  }

  async fetchBalances(): Promise<Balances> {
    return parseBitteamBalances(await this.call("GET", BITTEAM_PATHS.balance));
  }

  /** docs/exchange-rules.md#pairs: the public pairs list (the one the pair ids come from), without Authorization. */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseBitteamPairs(await this.call("GET", BITTEAM_PATHS.pairs, {}, false));
  }
}

export function createBitteamExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new BitteamAdapter(credentials, options);
}

/**
 * GET /trade/api/ccxt/pairs' result.pairs: `name` base_quote, `active` (false: not trading),
 * `baseStep` the amount's decimal places and `quoteStep` the price's.
 */
const BitteamPairListSchema = z.object({
  pairs: z.array(
    z.object({
      name: z.string(),
      active: z.boolean(),
      baseStep: precisionDigits,
      quoteStep: precisionDigits,
    }),
  ),
});

/** docs/exchange-rules.md#pairs: the active pairs; tick 10^-quoteStep, lot 10^-baseStep. */
export function parseBitteamPairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("bitteam", BitteamPairListSchema, raw, "result")
      .pairs.filter((p) => p.active)
      .map((p) => {
        // a name other than base_quote is no pair we can write: finishPairs leaves it out
        const parts = p.name.split("_");
        // Stryker disable next-line StringLiteral: split gives at least one part, and a quote "Stryker was here!" is no pair finishPairs can write either
        const [base = "", quote = "", ...more] = parts;
        // Stryker disable next-line StringLiteral: a base "Stryker was here!" is no pair finishPairs can write either
        return { base: more.length ? "" : base, quote, tick: digitsToStep(p.quoteStep), lot: digitsToStep(p.baseStep) };
      }),
  );
}
