/**
 * The bots' safety net (docs/bots.md#safety-net): what is left open when a stop could not cancel
 * every order, and the countdown's length on a venue. server/bots/runner.ts uses these.
 */
import type { CountdownRule } from "../../exchanges/types.js";
import { type ErrorKind, ExchangeError, isExchangeError } from "../../lib/errors.js";
import type { Side } from "../../lib/types.js";

/** How long a bot may be blind (its book not live) before it cancels its orders (10 s). */
export const DEFAULT_PULL_AFTER_MS = 10_000;
/** The exchange-side countdown a runner arms (60 s), refreshed every quarter of it. */
export const DEFAULT_COUNTDOWN_SECONDS = 60;

/** One order a stop could not cancel: enough to find it on the exchange by hand. */
export interface LeftOpen {
  exchange: string;
  pair: string;
  id: string;
  side: Side;
  price: string;
  /** why the cancel failed */
  reason: string;
}

/** "paper BTC/USDT order 12 Buy @ 45000.5 (network: timed out)" */
export function describeLeftOpen(order: LeftOpen): string {
  return `${order.exchange} ${order.pair} order ${order.id} ${order.side} @ ${order.price} (${order.reason})`;
}

/**
 * A stop that cancelled what it could and left these orders open (or could not list the pair's
 * orders, so some may be left unseen). The caller names them and exits non-zero.
 */
export class OrdersLeftOpenError extends ExchangeError {
  readonly orders: readonly LeftOpen[];

  constructor(exchange: string, pair: string, orders: readonly LeftOpen[], listError?: unknown) {
    const parts: string[] = [];
    if (orders.length > 0)
      parts.push(
        `${orders.length} order${orders.length === 1 ? "" : "s"} could not be cancelled and may still be open: ${orders.map(describeLeftOpen).join("; ")}`,
      );
    if (listError !== undefined)
      parts.push(`the open orders of ${pair} could not be listed (${reasonOf(listError)}): check them by hand`);
    const kind: ErrorKind = isExchangeError(listError) ? listError.kind : "network";
    super(exchange, parts.join("; "), { kind, ...(listError !== undefined ? { cause: listError } : {}) });
    this.name = "OrdersLeftOpenError";
    this.orders = orders;
  }
}

export function reasonOf(error: unknown): string {
  if (isExchangeError(error)) return `${error.kind}: ${error.detail}`;
  return error instanceof Error ? error.message : String(error);
}

/** The countdown to arm on a venue: the wanted length within what the venue accepts. */
export function countdownSeconds(wanted: number, rule: CountdownRule): number {
  return Math.min(rule.maxSeconds, Math.max(rule.minSeconds, Math.round(wanted)));
}
