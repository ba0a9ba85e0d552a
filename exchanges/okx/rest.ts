/**
 * okx v5 (https://www.okx.com/docs-v5/en/): spot orders in cash mode.
 *
 * Signing: OK-ACCESS-SIGN = base64 HMAC-SHA256 of timestamp + METHOD + requestPath (with its query)
 * + body, where timestamp is the ISO time of OK-ACCESS-TIMESTAMP (2020-12-08T09:08:57.715Z), plus
 * OK-ACCESS-KEY and OK-ACCESS-PASSPHRASE. Success is code "0" (seed 001 §8); items carry sCode/sMsg.
 * Failures read "Transaction failed (code, msg)" (seed 001 §8). Cancel all is unsupported (seed 001 §9).
 */

import { averagePrice, Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Base64 } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions } from "../types.js";
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
} as const;

/** okx order object of GET /api/v5/trade/order and orders-pending (the fields we read). */
interface OkxOrder {
  instId?: string;
  ordId?: string;
  clOrdId?: string;
  px?: string;
  sz?: string;
  accFillSz?: string;
  /** average fill price; "" while nothing filled */
  avgPx?: string;
  /** fees so far: negative is a charge, positive a rebate (OKX's sign) */
  fee?: string;
  feeCcy?: string;
  side?: string;
  ordType?: string;
  state?: string;
  cTime?: string;
}

interface OkxItemResult {
  ordId?: string;
  clOrdId?: string;
  sCode?: string;
  sMsg?: string;
  ts?: string;
}

interface OkxEnvelope {
  code: string;
  msg?: string;
  data?: unknown[];
  outTime?: string;
}

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
    // okx clOrdId: up to 32 case-sensitive alphanumerics (PRODUCT D11).
    super("okx", credentials, options, {
      baseUrl: OKX_BASE_URL,
    });
  }

  /** Seed 001 §8: okx failures read "Transaction failed (code, msg)". */
  private failure(
    code: string,
    msg: string,
    status?: number,
    headers?: Record<string, string | string[] | undefined>,
  ): ExchangeError {
    return this.fail(code, msg, status, headers, { detail: `Transaction failed (${code}, ${msg})` });
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
    const response = await this.sendJson(okxSignedRequest(this.credentials, this.now(), method, path, params));
    const envelope = response.json as OkxEnvelope | undefined;
    if (!envelope || typeof envelope !== "object" || envelope.code === undefined) {
      throw this.failure(
        String(response.status),
        `Unexpected answer (HTTP ${response.status})`,
        response.status,
        response.headers,
      );
    }
    const data = Array.isArray(envelope.data) ? envelope.data : [];
    const items = data as OkxItemResult[];
    if (perItem && data.length > 0 && items.every((d) => d && d.sCode !== undefined)) return data;
    if (!isCode(envelope.code, "0")) {
      // A failed trade call names the cause per item (sCode/sMsg); the envelope says only "1".
      const item = (data as OkxItemResult[]).find((d) => d && d.sCode !== undefined && !isCode(d.sCode, "0"));
      if (item) throw this.failure(String(item.sCode), item.sMsg ?? "", response.status, response.headers);
      throw this.failure(String(envelope.code), envelope.msg ?? "", response.status, response.headers);
    }
    return data;
  }

  private orderRequest(order: OrderToPlace): Record<string, string> {
    return {
      instId: exchangeSymbol(order.pair, "-"),
      tdMode: "cash",
      clOrdId: order.clientOrderId,
      side: order.side === "Buy" ? "buy" : "sell",
      ordType: "limit",
      px: order.price,
      sz: order.amount,
    };
  }

  private placed(order: OrderToPlace, item: OkxItemResult): Order {
    return {
      pair: order.pair,
      id: String(item.ordId ?? ""),
      clientOrderId: order.clientOrderId,
      price: order.price,
      amount: order.amount,
      filled: "0",
      type: "limit",
      side: order.side,
      status: "open",
      timestamp: toMillis(item.ts) || this.now(),
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const [item] = (await this.call("POST", OKX_PATHS.order, this.orderRequest(order))) as OkxItemResult[];
    return this.placed(order, item ?? {});
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    try {
      const [raw] = (await this.call("GET", OKX_PATHS.order, {
        instId: exchangeSymbol(pair, "-"),
        clOrdId: clientOrderId,
      })) as OkxOrder[];
      return raw ? parseOkxOrder(raw, pair) : undefined;
    } catch (error) {
      if (error instanceof ExchangeError && error.code === C.ORDER_NOT_EXIST) return undefined;
      throw error;
    }
  }

  protected async submitBatch(_pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const items = (await this.call(
      "POST",
      OKX_PATHS.batchOrders,
      orders.map((o) => this.orderRequest(o)),
    )) as OkxItemResult[];
    return orders.map((order, i) =>
      this.placed(order, items.find((r) => r.clOrdId === order.clientOrderId) ?? items[i] ?? {}),
    );
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    const [item] = (await this.call("POST", OKX_PATHS.cancelOrder, {
      instId: exchangeSymbol(pair, "-"),
      ordId: id,
    })) as OkxItemResult[];
    return String(item?.ordId ?? id);
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const instId = exchangeSymbol(pair, "-");
    const items = (await this.call(
      "POST",
      OKX_PATHS.cancelBatchOrders,
      ids.map((ordId) => ({ instId, ordId })),
      true,
    )) as OkxItemResult[];
    // A partly failed batch (code "2") names each item's sCode: an item that is not "0" was not
    // cancelled, so its id is left out and the caller names it (docs/orders.md "Cancels").
    return items.filter((r) => r.sCode === undefined || isCode(r.sCode, "0")).map((r) => String(r.ordId ?? ""));
  }

  protected async submitCancelAll(): Promise<string[]> {
    // Never reached: LIMITS mark okx cancel all unsupported and the base checks it first (seed 001 §9).
    throw new ExchangeError(this.id, `Not supported for ${this.id}`, { kind: "unsupported" });
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const p = this.pairOf(pair);
    const [raw] = (await this.call("GET", OKX_PATHS.order, {
      instId: exchangeSymbol(p, "-"),
      ordId: this.orderId(id),
    })) as OkxOrder[];
    if (!raw) throw new ExchangeError(this.id, `Order ${id} not found`, { kind: "order-not-found" });
    return parseOkxOrder(raw, p);
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    const orders: Order[] = [];
    let after: string | undefined;
    // Pages of 100 (the documented maximum), older ones after the last ordId, up to 500 (seed 001 §9).
    for (;;) {
      const page = (await this.call("GET", OKX_PATHS.ordersPending, {
        instType: "SPOT",
        instId: exchangeSymbol(p, "-"),
        ...(after ? { after } : {}),
        limit: "100",
      })) as OkxOrder[];
      orders.push(...page.map((raw) => parseOkxOrder(raw, p)));
      if (page.length < 100 || orders.length >= 500) return orders;
      after = page[page.length - 1]?.ordId;
    }
  }

  async fetchBalances(): Promise<Balances> {
    const [account] = (await this.call("GET", OKX_PATHS.balance)) as {
      details?: { ccy: string; availBal?: string; frozenBal?: string }[];
    }[];
    return collectBalances(
      (account?.details ?? []).map((d) => ({ currency: d.ccy, free: d.availBal, locked: d.frozenBal })),
    );
  }
}

export function createOkxExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new OkxAdapter(credentials, options);
}
