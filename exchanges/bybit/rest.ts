/**
 * bybit v5 (https://bybit-exchange.github.io/docs/v5/guide): spot orders on the unified account.
 *
 * Signing: X-BAPI-SIGN = hex HMAC-SHA256 of timestamp + apiKey + recvWindow + (queryString | jsonBody),
 * with X-BAPI-API-KEY, X-BAPI-TIMESTAMP (ms) and X-BAPI-RECV-WINDOW (5000, docs/exchange-rules.md#limits) headers.
 * Success is retCode 0 (docs/exchange-rules.md#errors); batch results carry per-item codes in retExtInfo.list.
 */
import { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { batchFailureMessage, id, notPlacedMessage, num, partlyPlaced } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { finishPairs, minimum, stepText, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { BYBIT_CODES, BYBIT_ERRORS } from "./info.js";

export { BYBIT_CODES, BYBIT_ERRORS };

export const BYBIT_BASE_URL = "https://api.bybit.com";
export const BYBIT_RECV_WINDOW = 5000;

export const BYBIT_PATHS = {
  create: "/v5/order/create",
  createBatch: "/v5/order/create-batch",
  cancel: "/v5/order/cancel",
  cancelBatch: "/v5/order/cancel-batch",
  cancelAll: "/v5/order/cancel-all",
  orders: "/v5/order/realtime",
  balance: "/v5/account/wallet-balance",
  instruments: "/v5/market/instruments-info",
} as const;

/** The v5 order object of /v5/order/realtime (the fields we read). */
const BybitOrderSchema = z.object({
  orderId: id.optional(),
  orderLinkId: id.optional(),
  symbol: z.string().optional(),
  price: num.optional(),
  qty: num.optional(),
  cumExecQty: num.optional(),
  side: z.string().optional(),
  orderType: z.string().optional(),
  orderStatus: z.string().optional(),
  createdTime: num.optional(),
});
type BybitOrder = z.input<typeof BybitOrderSchema>;

/** Per-item outcome of a batch (retExtInfo.list): code 0 is done. */
const ItemCodeSchema = z.object({ code: num.optional(), msg: z.string().optional() });

const BybitEnvelopeSchema = z.object({
  retCode: num,
  retMsg: z.string().optional(),
  result: z.unknown().optional(),
  retExtInfo: z
    .object({ list: z.array(ItemCodeSchema).nullable().optional() })
    .nullable()
    .optional(),
  time: num.optional(),
});
type BybitEnvelope = z.output<typeof BybitEnvelopeSchema>;

/** `result` of the list endpoints: {list, nextPageCursor}; absent or empty reads as no rows. */
function listOf<T extends z.ZodType>(item: T) {
  return z
    .object({ list: z.array(item).nullable().optional(), nextPageCursor: z.string().optional() })
    .nullable()
    .optional();
}
const OrderListSchema = listOf(BybitOrderSchema);
const IdListSchema = listOf(z.object({ orderId: id.optional() }));
const BatchCreateSchema = listOf(
  z.object({ orderId: id.optional(), orderLinkId: id.optional(), createAt: num.optional() }),
);
const WalletSchema = listOf(
  z.object({
    coin: z
      .array(z.object({ coin: z.string(), walletBalance: num.optional(), locked: num.optional() }))
      .nullable()
      .optional(),
  }),
);
const OrderIdSchema = z.object({ orderId: id.optional() }).nullable().optional();
/** One spot instrument of "Get Instruments Info" (the fields we read). */
const InstrumentListSchema = listOf(
  z.object({
    symbol: z.string(),
    baseCoin: z.string(),
    quoteCoin: z.string(),
    status: z.string(),
    lotSizeFilter: z.object({
      basePrecision: stepValue,
      minOrderQty: stepValue.optional(),
      minOrderAmt: stepValue.optional(),
    }),
    priceFilter: z.object({ tickSize: stepValue }),
  }),
);
/** The most open orders one page of /v5/order/realtime holds (docs: limit [1, 50]). */
export const BYBIT_OPEN_PAGE = 50;

/**
 * bybit's nextPageCursor arrives already percent-encoded ("page_args%3D...%26symbol%3D6%26") and its
 * SDKs put it back on the query as it came; encoding it again would send a different cursor.
 */
function encodeUnlessEncoded(value: string): string {
  return /^[A-Za-z0-9%._~-]*$/.test(value) ? value : encodeURIComponent(value);
}

/** Builds the signed request of bybit v5: the same query or body string is signed and sent. */
export function bybitSignedRequest(
  credentials: Pick<Credentials, "api" | "secret">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  params: Record<string, unknown>,
): HttpRequest {
  const query =
    method === "GET"
      ? buildQuery(params as Record<string, string | number | undefined>, { encode: encodeUnlessEncoded })
      : "";
  const body = method === "GET" ? "" : JSON.stringify(params);
  const ts = String(timestamp);
  const signature = hmacSha256Hex(
    credentials.secret,
    ts + credentials.api + BYBIT_RECV_WINDOW + (method === "GET" ? query : body),
  );
  return {
    method,
    path,
    query,
    body,
    headers: {
      "X-BAPI-API-KEY": credentials.api,
      "X-BAPI-TIMESTAMP": ts,
      "X-BAPI-RECV-WINDOW": String(BYBIT_RECV_WINDOW),
      "X-BAPI-SIGN": signature,
      ...(method === "GET" ? {} : { "Content-Type": "application/json" }),
    },
  };
}

/** One order of /v5/order/realtime, read through BybitOrderSchema. */
export function parseBybitOrder(raw: BybitOrder, pair: string): Order {
  const order: Order = {
    pair,
    id: String(raw.orderId ?? ""),
    clientOrderId: String(raw.orderLinkId ?? ""),
    price: toDecimalString(raw.price),
    amount: toDecimalString(raw.qty),
    filled: toDecimalString(raw.cumExecQty),
    type: String(raw.orderType ?? "Limit").toLowerCase(),
    side: parseSide(raw.side),
    status: normalizeStatus("bybit", raw.orderStatus),
    timestamp: toMillis(raw.createdTime),
  };
  if (raw.orderStatus !== undefined) order.rawStatus = String(raw.orderStatus);
  return order;
}

export class BybitAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    super("bybit", credentials, options, {
      baseUrl: BYBIT_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, params: Record<string, unknown>): Promise<BybitEnvelope> {
    return this.unwrap(await this.sendJson(bybitSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** {retCode, retMsg, result, retExtInfo, time}: retCode 0 is success; the whole envelope is kept (time, per-item codes). */
  protected unwrap(response: JsonResponse): BybitEnvelope {
    const parsed = BybitEnvelopeSchema.safeParse(response.json);
    if (!parsed.success) {
      throw this.fail(undefined, `Unexpected answer (HTTP ${response.status})`, response.status, response.headers);
    }
    const envelope = parsed.data;
    if (!isCode(envelope.retCode, 0)) {
      // bybit announces when the rate-limit window reopens (ms since the epoch).
      const reset = Number(response.headers["x-bapi-limit-reset-timestamp"]);
      throw this.fail(envelope.retCode, envelope.retMsg ?? "Unknown error", response.status, response.headers, {
        retryAfterMs: Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - this.now()) : undefined,
      });
    }
    return envelope;
  }

  /** The rows of a list answer (none when bybit sends no result). */
  private rows<T extends z.ZodType>(schema: ReturnType<typeof listOf<T>>, envelope: BybitEnvelope): z.output<T>[] {
    return this.parse(schema, envelope.result, "result")?.list ?? [];
  }

  /** The rows of a failed batch's answer, or none when they do not read: the failure is what gets reported. */
  private rowsOrNone<T extends z.ZodType>(
    schema: ReturnType<typeof listOf<T>>,
    envelope: BybitEnvelope,
  ): z.output<T>[] {
    try {
      return this.rows(schema, envelope);
    } catch {
      return [];
    }
  }

  private orderRequest(order: OrderToPlace): Record<string, string> {
    return {
      symbol: exchangeSymbol(order.pair, ""),
      side: order.side,
      orderType: "Limit",
      qty: order.amount,
      price: order.price,
      // docs/exchange-rules.md "Post-only": maker only is a time in force
      timeInForce: order.postOnly ? "PostOnly" : "GTC",
      orderLinkId: order.clientOrderId,
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const envelope = await this.call("POST", BYBIT_PATHS.create, { category: "spot", ...this.orderRequest(order) });
    const result = this.parse(OrderIdSchema, envelope.result, "result");
    return this.placed(order, result?.orderId ?? "", envelope.time);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    const envelope = await this.call("GET", BYBIT_PATHS.orders, {
      category: "spot",
      symbol: exchangeSymbol(pair, ""),
      orderLinkId: clientOrderId,
    });
    const raw = this.rows(OrderListSchema, envelope)[0];
    return raw ? parseBybitOrder(raw, pair) : undefined;
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const envelope = await this.call("POST", BYBIT_PATHS.createBatch, {
      category: "spot",
      request: orders.map((o) => this.orderRequest(o)),
    });
    // docs/exchange-rules.md#validation: any extra-info error entry fails the batch; so does an order without id and time.
    // result.list and retExtInfo.list are parallel: the items without an error code and with an id
    // were placed, and a failure carries them (docs/orders.md "Partly placed batches").
    const codes = envelope.retExtInfo?.list ?? [];
    const failed = codes.find((e) => e.code !== undefined && !isCode(e.code, 0));
    const list = failed ? this.rowsOrNone(BatchCreateSchema, envelope) : this.rows(BatchCreateSchema, envelope);
    const results = orders.map((order, i) => {
      const at = list.findIndex((r) => r.orderLinkId === order.clientOrderId);
      const item = at === -1 ? list[i] : list[at];
      const code = codes[at === -1 ? i : at]?.code;
      const ok = item && (item.orderId || item.createAt) && (code === undefined || isCode(code, 0));
      return ok ? this.placed(order, item.orderId ?? "", item.createAt) : undefined;
    });
    const placed = results.filter((o): o is Order => o !== undefined);
    if (failed) {
      throw partlyPlaced(
        new ExchangeError(this.id, batchFailureMessage([failed.code, failed.msg ?? ""]), {
          kind: this.fail(failed.code, failed.msg ?? "").kind,
          code: failed.code ?? "",
        }),
        placed,
      );
    }
    if (placed.length < orders.length) {
      throw partlyPlaced(
        new ExchangeError(this.id, notPlacedMessage(), {
          kind: "invalid-order",
        }),
        placed,
      );
    }
    return placed;
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    const envelope = await this.call("POST", BYBIT_PATHS.cancel, {
      category: "spot",
      symbol: exchangeSymbol(pair, ""),
      orderId: id,
    });
    return this.parse(OrderIdSchema, envelope.result, "result")?.orderId ?? id;
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const symbol = exchangeSymbol(pair, "");
    const envelope = await this.call("POST", BYBIT_PATHS.cancelBatch, {
      category: "spot",
      request: ids.map((orderId) => ({ symbol, orderId })),
    });
    // result.list and retExtInfo.list are parallel (bybit "Batch Cancel Order"): an item whose
    // entry carries an error code was not cancelled, so its id is left out and the caller names it
    // (ExchangeAdapter.cancelBatch resolves to the ids cancelled; docs/orders.md "Cancels").
    const codes = envelope.retExtInfo?.list ?? [];
    return this.rows(IdListSchema, envelope)
      .filter((_, i) => codes[i]?.code === undefined || isCode(codes[i]?.code, 0))
      .map((r) => r.orderId ?? "");
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    const envelope = await this.call("POST", BYBIT_PATHS.cancelAll, {
      category: "spot",
      symbol: exchangeSymbol(pair, ""),
    });
    return this.rows(IdListSchema, envelope).map((r) => r.orderId ?? "");
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const p = this.pairOf(pair);
    const envelope = await this.call("GET", BYBIT_PATHS.orders, {
      category: "spot",
      symbol: exchangeSymbol(p, ""),
      orderId: this.orderId(id),
    });
    const raw = this.rows(OrderListSchema, envelope)[0];
    if (!raw) throw new ExchangeError(this.id, `Order ${id} not found`, { kind: "order-not-found" });
    return parseBybitOrder(raw, p);
  }

  /**
   * docs/exchange-rules.md#paging: pages of 50 (the documented maximum) chained by nextPageCursor,
   * sent back as it came. bybit sends a cursor with its last page too, so a page shorter than 50 is
   * the last one.
   */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    let cursor: string | undefined;
    return collectPages(
      "bybit",
      "open orders",
      (o) => o.id,
      async () => {
        const envelope = await this.call("GET", BYBIT_PATHS.orders, {
          category: "spot",
          symbol: exchangeSymbol(p, ""),
          openOnly: 0,
          limit: BYBIT_OPEN_PAGE,
          ...(cursor ? { cursor } : {}),
        });
        const result = this.parse(OrderListSchema, envelope.result, "result");
        const page = result?.list ?? [];
        cursor = result?.nextPageCursor || undefined;
        return { items: page.map((raw) => parseBybitOrder(raw, p)), more: page.length === BYBIT_OPEN_PAGE && !!cursor };
      },
    );
  }

  /**
   * docs/exchange-rules.md#pairs: "Get Instruments Info" (category spot), public. Only status
   * Trading is kept; tick is priceFilter.tickSize, lot lotSizeFilter.basePrecision, with
   * minOrderQty and minOrderAmt as the minimums. docs/exchange-rules.md#paging: every
   * nextPageCursor is followed until a page comes without one.
   */
  async fetchPairs(): Promise<PairSpec[]> {
    let cursor: string | undefined;
    const instruments = await collectPages(
      "bybit",
      "pairs",
      (item) => item.symbol,
      async () => {
        const envelope = this.unwrap(
          await this.publicGet(
            BYBIT_PATHS.instruments,
            { category: "spot", ...(cursor ? { cursor } : {}) },
            encodeUnlessEncoded,
          ),
        );
        const result = this.parse(InstrumentListSchema, envelope.result, "result");
        cursor = result?.nextPageCursor || undefined;
        return { items: result?.list ?? [], more: !!cursor };
      },
    );
    return finishPairs(
      instruments
        .filter((item) => item.status === "Trading")
        .map((item) => ({
          base: item.baseCoin,
          quote: item.quoteCoin,
          tick: stepText(item.priceFilter.tickSize),
          lot: stepText(item.lotSizeFilter.basePrecision),
          minAmount: minimum(item.lotSizeFilter.minOrderQty),
          minNotional: minimum(item.lotSizeFilter.minOrderAmt),
        })),
    );
  }

  async fetchBalances(): Promise<Balances> {
    const envelope = await this.call("GET", BYBIT_PATHS.balance, { accountType: "UNIFIED" });
    const rows = this.rows(WalletSchema, envelope).flatMap((a) => a.coin ?? []);
    // walletBalance includes what open orders lock; free is the rest.
    return collectBalances(
      rows.map((c) => {
        const total = toDecimalString(c.walletBalance);
        const locked = toDecimalString(c.locked);
        return { currency: c.coin, free: new Decimal(total).minus(locked).toFixed(), locked };
      }),
    );
  }
}

export function createBybitExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new BybitAdapter(credentials, options);
}
