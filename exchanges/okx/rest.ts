/**
 * okx v5 (https://www.okx.com/docs-v5/en/): spot orders in cash mode.
 *
 * Signing: OK-ACCESS-SIGN = base64 HMAC-SHA256 of timestamp + METHOD + requestPath (with its query)
 * + body, where timestamp is the ISO time of OK-ACCESS-TIMESTAMP (2020-12-08T09:08:57.715Z), plus
 * OK-ACCESS-KEY and OK-ACCESS-PASSPHRASE. Success is code "0" (docs/exchange-rules.md#errors); items carry sCode/sMsg.
 * Failures read "Transaction failed (code, msg)" (docs/exchange-rules.md#errors). Cancel all is unsupported (docs/exchange-rules.md#limits).
 */
import { z } from "zod";
import { averagePrice, Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, num, partlyPlaced } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { finishPairs, minimum, stepText, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Base64 } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { OKX_CODES, OKX_ERRORS } from "./info.js";

export { OKX_CODES, OKX_ERRORS };

const C = OKX_CODES;

export const OKX_BASE_URL = "https://www.okx.com";

export const OKX_PATHS = {
  order: "/api/v5/trade/order",
  batchOrders: "/api/v5/trade/batch-orders",
  cancelOrder: "/api/v5/trade/cancel-order",
  cancelBatchOrders: "/api/v5/trade/cancel-batch-orders",
  ordersPending: "/api/v5/trade/orders-pending",
  balance: "/api/v5/account/balance",
  instruments: "/api/v5/public/instruments",
} as const;

/** okx order object of GET /api/v5/trade/order and orders-pending (the fields we read). */
const OkxOrderSchema = z.object({
  instId: z.string().optional(),
  ordId: id.optional(),
  clOrdId: id.optional(),
  px: num.optional(),
  sz: num.optional(),
  accFillSz: num.optional(),
  /** average fill price; "" while nothing filled */
  avgPx: num.optional(),
  /** fees so far: negative is a charge, positive a rebate (OKX's sign) */
  fee: num.optional(),
  feeCcy: z.string().optional(),
  side: z.string().optional(),
  ordType: z.string().optional(),
  state: z.string().optional(),
  cTime: num.optional(),
});
type OkxOrder = z.input<typeof OkxOrderSchema>;

/** One item of a trade call's data: its own outcome sCode/sMsg. */
const OkxItemSchema = z.object({
  ordId: id.optional(),
  clOrdId: id.optional(),
  sCode: num.optional(),
  sMsg: z.string().optional(),
  ts: num.optional(),
});
type OkxItemResult = z.output<typeof OkxItemSchema>;

/** One SPOT instrument of GET /api/v5/public/instruments (the fields we read). */
const OkxInstrumentsSchema = z.array(
  z.object({
    instId: z.string(),
    baseCcy: z.string(),
    quoteCcy: z.string(),
    tickSz: stepValue,
    lotSz: stepValue,
    minSz: stepValue.optional(),
    state: z.string(),
  }),
);
const OkxEnvelopeSchema = z.object({ code: num, msg: z.string().optional(), data: z.unknown().optional() });

const OkxBalanceSchema = z.object({
  details: z
    .array(z.object({ ccy: z.string(), availBal: num.optional(), frozenBal: num.optional() }))
    .nullable()
    .optional(),
});

/** Builds the signed request of okx v5: the requestPath signed is the path with its query. */
export function okxSignedRequest(
  credentials: Pick<Credentials, "api" | "secret" | "password">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  params: Record<string, unknown> | unknown[] | undefined,
): HttpRequest {
  const query = method === "GET" && params ? buildQuery(params as Record<string, string | undefined>) : "";
  const body = method === "GET" || params === undefined ? "" : JSON.stringify(params);
  const iso = new Date(timestamp).toISOString();
  const requestPath = query ? `${path}?${query}` : path;
  return {
    method,
    path,
    query,
    body,
    headers: {
      "OK-ACCESS-KEY": credentials.api,
      "OK-ACCESS-SIGN": hmacSha256Base64(credentials.secret, iso + method + requestPath + body),
      "OK-ACCESS-TIMESTAMP": iso,
      "OK-ACCESS-PASSPHRASE": credentials.password ?? "",
      "Content-Type": "application/json",
    },
  };
}

export function parseOkxOrder(raw: OkxOrder, pair: string): Order {
  const order: Order = {
    pair,
    id: String(raw.ordId ?? ""),
    clientOrderId: String(raw.clOrdId ?? ""),
    price: toDecimalString(raw.px),
    amount: toDecimalString(raw.sz),
    filled: toDecimalString(raw.accFillSz),
    type: String(raw.ordType ?? "limit"),
    side: parseSide(raw.side),
    status: normalizeStatus("okx", raw.state),
    timestamp: toMillis(raw.cTime),
  };
  if (raw.state !== undefined) order.rawStatus = String(raw.state);
  const average = averagePrice(raw.avgPx, order.filled);
  if (average !== undefined) order.average = average;
  // Order.fee counts a charge as positive: OKX writes it negative
  const fee = toDecimalString(raw.fee, "");
  if (fee !== "" && raw.feeCcy) order.fee = { amount: new Decimal(fee).negated().toFixed(), currency: raw.feeCcy };
  return order;
}

export class OkxAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    // okx clOrdId: up to 32 case-sensitive alphanumerics (docs/decisions.md#d11).
    super("okx", credentials, options, {
      baseUrl: OKX_BASE_URL,
    });
  }

  /** docs/exchange-rules.md#errors: okx failures read "Transaction failed (code, msg)". */
  private failure(
    code: string,
    msg: string,
    status?: number,
    headers?: Record<string, string | string[] | undefined>,
    unclear?: boolean,
  ): ExchangeError {
    return this.fail(code, msg, status, headers, { detail: `Transaction failed (${code}, ${msg})`, unclear });
  }

  /**
   * One signed call; its data, or the failure. With `perItem`, a batch whose items carry their own
   * sCode answers its items even when some or all failed (envelope code "2" or "1"), so the caller
   * reads which ones did.
   */
  private async call(
    method: HttpMethod,
    path: string,
    params?: Record<string, unknown> | unknown[],
    perItem = false,
  ): Promise<unknown[]> {
    return this.unwrap(
      await this.sendJson(okxSignedRequest(this.credentials, this.now(), method, path, params)),
      perItem,
    );
  }

  /** The data list of {code: "0", data}; a failure names its cause per item (sCode/sMsg) or on the envelope. */
  protected unwrap(response: JsonResponse, perItem = false): unknown[] {
    const parsed = OkxEnvelopeSchema.safeParse(response.json);
    if (!parsed.success) {
      // no envelope: its status stands in for the code, and says nothing of the order's fate
      // unless it is a 4xx (ExchangeErrorOptions.unclear)
      throw this.failure(
        String(response.status),
        `Unexpected answer (HTTP ${response.status})`,
        response.status,
        response.headers,
        response.status < 400 || response.status >= 500,
      );
    }
    const envelope = parsed.data;
    const data = Array.isArray(envelope.data) ? envelope.data : [];
    if (perItem && data.length > 0 && data.every((d) => OkxItemSchema.safeParse(d).data?.sCode !== undefined)) {
      return data;
    }
    if (!isCode(envelope.code, "0")) {
      // A failed trade call names the cause per item (sCode/sMsg); the envelope says only "1".
      const item = data
        .map((d) => OkxItemSchema.safeParse(d).data)
        .find((d) => d?.sCode !== undefined && !isCode(d.sCode, "0"));
      if (item) throw this.failure(String(item.sCode), item.sMsg ?? "", response.status, response.headers);
      throw this.failure(String(envelope.code), envelope.msg ?? "", response.status, response.headers);
    }
    return data;
  }

  /** The items of a trade call's data. */
  private items(data: unknown[]): OkxItemResult[] {
    return this.parse(z.array(OkxItemSchema), data, "data");
  }

  /** The orders of a query's data. */
  private orders(data: unknown[]): z.output<typeof OkxOrderSchema>[] {
    return this.parse(z.array(OkxOrderSchema), data, "data");
  }

  private orderRequest(order: OrderToPlace): Record<string, string> {
    return {
      instId: exchangeSymbol(order.pair, "-"),
      tdMode: "cash",
      clOrdId: order.clientOrderId,
      side: order.side === "Buy" ? "buy" : "sell",
      // docs/exchange-rules.md "Post-only": maker only is an order type
      ordType: order.postOnly ? "post_only" : "limit",
      px: order.price,
      sz: order.amount,
    };
  }

  private placedItem(order: OrderToPlace, item: OkxItemResult): Order {
    return this.placed(order, item.ordId ?? "", item.ts);
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const [item] = this.items(await this.call("POST", OKX_PATHS.order, this.orderRequest(order)));
    return this.placedItem(order, item ?? {});
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    // Only 51603 says the order does not exist; the other order-not-found codes answer cancels.
    return this.unlessNotFound(
      async () => {
        const [raw] = this.orders(
          await this.call("GET", OKX_PATHS.order, { instId: exchangeSymbol(pair, "-"), clOrdId: clientOrderId }),
        );
        return raw ? parseOkxOrder(raw, pair) : undefined;
      },
      (error) => error.code === C.ORDER_NOT_EXIST,
    );
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const items = this.items(
      await this.call(
        "POST",
        OKX_PATHS.batchOrders,
        orders.map((o) => this.orderRequest(o)),
        true,
      ),
    );
    const itemOf = (order: OrderToPlace, i: number) => items.find((r) => r.clOrdId === order.clientOrderId) ?? items[i];
    const failed = items.find((r) => r.sCode !== undefined && !isCode(r.sCode, "0"));
    if (failed) {
      // A partly failed batch (code "2") names each item's sCode: those with "0" were placed, and
      // the failure carries them (docs/orders.md "Partly placed batches").
      const placed = orders.flatMap((order, i) => {
        const item = itemOf(order, i);
        return item && isCode(item.sCode ?? "0", "0") && item.ordId ? [this.placedItem(order, item)] : [];
      });
      throw partlyPlaced(this.failure(String(failed.sCode), failed.sMsg ?? ""), placed);
    }
    return orders.map((order, i) => this.placedItem(order, itemOf(order, i) ?? {}));
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    const [item] = this.items(
      await this.call("POST", OKX_PATHS.cancelOrder, { instId: exchangeSymbol(pair, "-"), ordId: id }),
    );
    return item?.ordId ?? id;
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const instId = exchangeSymbol(pair, "-");
    const items = this.items(
      await this.call(
        "POST",
        OKX_PATHS.cancelBatchOrders,
        ids.map((ordId) => ({ instId, ordId })),
        true,
      ),
    );
    // A partly failed batch (code "2") names each item's sCode: an item that is not "0" was not
    // cancelled, so its id is left out and the caller names it (docs/orders.md "Cancels").
    return items.filter((r) => r.sCode === undefined || isCode(r.sCode, "0")).map((r) => r.ordId ?? "");
  }

  protected async submitCancelAll(): Promise<string[]> {
    // Never reached: LIMITS mark okx cancel all unsupported and the base checks it first (docs/exchange-rules.md#limits).
    throw new ExchangeError(this.id, `Not supported for ${this.id}`, { kind: "unsupported" });
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const p = this.pairOf(pair);
    const [raw] = this.orders(
      await this.call("GET", OKX_PATHS.order, { instId: exchangeSymbol(p, "-"), ordId: this.orderId(id) }),
    );
    if (!raw) throw new ExchangeError(this.id, `Order ${id} not found`, { kind: "order-not-found" });
    return parseOkxOrder(raw, p);
  }

  /**
   * docs/exchange-rules.md#paging: pages of 100 (the documented maximum), newest first, each next
   * one `after` the last ordId, until a page comes short.
   */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    return collectPages(
      "okx",
      "open orders",
      (o) => o.id,
      async (_index, last) => {
        const page = this.orders(
          await this.call("GET", OKX_PATHS.ordersPending, {
            instType: "SPOT",
            instId: exchangeSymbol(p, "-"),
            ...(last ? { after: last.id } : {}),
            limit: "100",
          }),
        );
        return { items: page.map((raw) => parseOkxOrder(raw, p)), more: page.length === 100 };
      },
    );
  }

  /**
   * docs/exchange-rules.md#pairs: "Get instruments" (instType SPOT), public. Only state live is
   * kept (not suspend, preopen or test); tick is tickSz, lot lotSz, minSz the smallest amount.
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const data = this.unwrap(await this.publicGet(OKX_PATHS.instruments, { instType: "SPOT" }));
    return finishPairs(
      this.parse(OkxInstrumentsSchema, data, "data")
        .filter((i) => i.state === "live")
        .map((i) => ({
          base: i.baseCcy,
          quote: i.quoteCcy,
          tick: stepText(i.tickSz),
          lot: stepText(i.lotSz),
          minAmount: minimum(i.minSz),
        })),
    );
  }

  async fetchBalances(): Promise<Balances> {
    const [account] = this.parse(z.array(OkxBalanceSchema), await this.call("GET", OKX_PATHS.balance), "data");
    return collectBalances(
      (account?.details ?? []).map((d) => ({ currency: d.ccy, free: d.availBal, locked: d.frozenBal })),
    );
  }
}

export function createOkxExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new OkxAdapter(credentials, options);
}
