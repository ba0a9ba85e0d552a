import { Decimal } from "../lib/decimal.js";
import type { Order, OrderFee, Side } from "../lib/types.js";

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
  /**
   * the price it filled at: from the order's average where the exchange gives one, else the
   * order's limit (a resting order, a maker, fills at its price)
   */
  price: string;
  /**
   * true when the fill took liquidity at once and the exchange gave no average: the price is
   * then the limit, and the fill was at that price or better
   */
  atLimitOrBetter: boolean;
  amount: string;
  /** the fee of this fill and its currency ("0.0001 BTC"), where the exchange gives it */
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
  average?: string | undefined;
  fee?: OrderFee | undefined;
}

export function seenOf(order: Order): SeenOrder {
  return {
    side: order.side,
    pair: order.pair,
    price: order.price,
    amount: order.amount,
    filled: order.filled,
    average: order.average,
    fee: order.fee,
  };
}

/**
 * The price of the amount filled since the last look, from the two averages: (average now ×
 * filled now − average before × filled before) / the new amount; undefined without both averages.
 */
function priceOfIncrement(was: Decimal, wasAverage: string | undefined, now: Order): string | undefined {
  if (now.average === undefined) return undefined;
  if (was.isZero()) return now.average;
  if (wasAverage === undefined) return undefined;
  const filled = new Decimal(now.filled);
  return filled
    .times(now.average)
    .minus(was.times(wasAverage))
    .div(filled.minus(was))
    .decimalPlaces(12, Decimal.ROUND_DOWN)
    .toFixed();
}

/** The fee of the amount filled since the last look, where the exchange gives it. */
function feeOfIncrement(before: SeenOrder | undefined, now: Order): string | undefined {
  if (!now.fee) return undefined;
  const was = before?.fee;
  if (was && was.currency !== now.fee.currency) return undefined;
  if (!was && new Decimal(before?.filled ?? "0").gt(0)) return undefined;
  return `${new Decimal(now.fee.amount).minus(was?.amount ?? "0").toFixed()} ${now.fee.currency}`;
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
  const average = priceOfIncrement(was, before?.average, now);
  const fee = feeOfIncrement(before, now);
  return {
    time,
    side: now.side,
    pair: now.pair,
    orderId: now.id,
    price: average ?? now.price,
    atLimitOrBetter: atLimitOrBetter && average === undefined,
    amount: filled.minus(was).toFixed(),
    ...(fee === undefined ? {} : { fee }),
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
