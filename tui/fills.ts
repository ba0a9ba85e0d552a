import { Decimal } from "../lib/decimal.js";
import type { Order, Side } from "../lib/types.js";

/**
 * Your fills as the TUI sees them (docs/tui.md "Fills"): the exchange layer gives orders, not
 * trades, so a fill is an order's filled amount growing between two looks at it: at placement,
 * between two polls of the open orders, or when an order leaves the list and is fetched once.
 */
export interface Fill {
  /** ms since the epoch, when the TUI saw it */
  time: number;
  side: Side;
  pair: string;
  orderId: string;
  /** the price it filled at: the order's limit for a resting order (a maker fills at its price) */
  price: string;
  /**
   * true when the fill took liquidity at once and the exchange gave no average: the price is
   * then the limit, and the fill was at that price or better
   */
  atLimitOrBetter: boolean;
  amount: string;
  /** the fee, where the exchange gives it */
  fee?: string | undefined;
  /** the order is now completely filled */
  complete: boolean;
}

/** What the TUI last saw of an open order: enough to tell a new fill from an old one. */
export interface SeenOrder {
  side: Side;
  pair: string;
  price: string;
  amount: string;
  filled: string;
}

export function seenOf(order: Order): SeenOrder {
  return { side: order.side, pair: order.pair, price: order.price, amount: order.amount, filled: order.filled };
}

/** The fill of `now` since `before` (undefined when nothing more filled). */
export function fillSince(
  before: SeenOrder | undefined,
  now: Order,
  time: number,
  atLimitOrBetter = false,
): Fill | undefined {
  const was = new Decimal(before?.filled ?? "0");
  const filled = new Decimal(now.filled || "0");
  if (!filled.isFinite() || !filled.gt(was)) return undefined;
  return {
    time,
    side: now.side,
    pair: now.pair,
    orderId: now.id,
    price: now.price,
    atLimitOrBetter,
    amount: filled.minus(was).toFixed(),
    complete: filled.gte(now.amount),
  };
}

/**
 * Compares the open orders just fetched with those seen before: the fills of orders still open,
 * and the orders that left the list (filled, cancelled elsewhere: fetched once to tell).
 */
export function diffOpenOrders(
  seen: ReadonlyMap<string, SeenOrder>,
  list: readonly Order[],
  time: number,
): { fills: Fill[]; gone: string[] } {
  const fills: Fill[] = [];
  const present = new Set<string>();
  for (const order of list) {
    present.add(order.id);
    const fill = fillSince(seen.get(order.id), order, time);
    // an order first seen already part-filled: its earlier fills were before this session's look
    if (fill && seen.has(order.id)) fills.push(fill);
  }
  const gone = [...seen.keys()].filter((id) => !present.has(id));
  return { fills, gone };
}

/** The notice of a fill: "Filled Buy 0.002 BTC @ 50,000.00 (order 17, complete)". */
export function fillNotice(fill: Fill, price: string, amount: string): string {
  const [base = ""] = fill.pair.split("/");
  const at = fill.atLimitOrBetter ? `${fill.side === "Buy" ? "≤" : "≥"} ${price}` : price;
  return `Filled ${fill.side} ${amount} ${base} @ ${at} (order ${fill.orderId}, ${fill.complete ? "complete" : "part"})`;
}
