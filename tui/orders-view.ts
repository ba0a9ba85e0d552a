import { Decimal } from "../lib/decimal.js";
import type { Balances, Order } from "../lib/types.js";
import { levelKey } from "./book-view.js";
import { firstFitting } from "./components/layout.js";

/**
 * Text order without ICU: letters case-insensitively, then by code unit. For ids and token
 * symbols ("BTC", "1INCH", "stETH") it orders as localeCompare did (a tie of case aside: upper
 * case first), which put about 2.5 MB of the node binary's collation data into the TUI's resident
 * memory (docs/tui-memory.md).
 */
export function compareText(a: string, b: string): number {
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface OrderRow {
  order: Order;
  /** price times amount (docs/dashboard-rules.md#screens "Open orders panel": the quote total) */
  total: string;
}

/** docs/dashboard-rules.md#screens: the open orders list is sorted by price descending. */
export function openOrderRows(orders: readonly Order[]): OrderRow[] {
  return [...orders]
    .sort((a, b) => new Decimal(b.price).comparedTo(a.price) || compareText(a.id, b.id))
    .map((order) => ({ order, total: new Decimal(order.price).times(order.amount).toFixed() }));
}

export interface BalanceRow {
  token: string;
  /** f + l */
  total: string;
  free: string;
  locked: string;
}

/** docs/dashboard-rules.md#screens "Balances table": Token, Total, Free, Locked; non-zero first, then by token. */
export function balanceRows(balances: Balances): BalanceRow[] {
  return Object.entries(balances)
    .map(([token, { f, l }]) => ({ token, free: f, locked: l, total: new Decimal(f).plus(l).toFixed() }))
    .sort((a, b) => {
      const za = new Decimal(a.total).isZero() ? 1 : 0;
      const zb = new Decimal(b.total).isZero() ? 1 : 0;
      return za - zb || compareText(a.token, b.token);
    });
}

/** The first row of a window of `size` rows that keeps `selected` visible. */
export function windowStart(selected: number, count: number, size: number): number {
  if (count <= size) return 0;
  return Math.max(0, Math.min(selected - Math.floor(size / 2), count - size));
}

/**
 * The selected order's two detail lines (they stand in for the dashboard's tooltips): id,
 * quantity, status, UTC date; then docs/exchange-rules.md#chart's avg. price, amount and volume. Where `width` is
 * too narrow (the right column at 80x24 is 42 wide) each line takes its first shorter form that
 * fits: status and date lead, labels shorten, the amount repeated from the row goes, and the id
 * comes last so a long exchange id is what gets cut.
 */
export function orderDetailLines(
  { order }: OrderRow,
  tooltip: { avgPrice: string | undefined; amount: string; volume: string; lines: readonly string[] },
  date: string,
  width: number,
): [string, string] {
  const status = order.status ?? order.rawStatus ?? "?";
  const [base = "", quote = ""] = order.pair.split("/");
  // "2024-01-02 03:04:05 UTC" without the year
  const shortDate = date.replace(/^\d{4}-/, "");
  const avg = tooltip.avgPrice ?? "-";
  const first = firstFitting(width, [
    ` id ${order.id} · qty ${tooltip.amount} · ${status} · ${date}`,
    ` ${status} · ${shortDate} · qty ${tooltip.amount} · id ${order.id}`,
    ` ${status} · ${shortDate} · id ${order.id}`,
  ]);
  const second = firstFitting(width, [
    ` ${tooltip.lines.join(" · ")}`,
    ` Avg ${avg} · Amt ${tooltip.amount} ${base} · Vol ${tooltip.volume} ${quote}`,
    ` Avg ${avg} · Vol ${tooltip.volume} ${quote}`,
  ]);
  return [first, second];
}

/**
 * The book levels where your open orders rest, as levelKey(side, price) (docs/tui.md "Book
 * selection"): a Buy rests on the bids, a Sell on the asks; the price as the book writes it
 * (plain, no trailing zeros), so "63700.00" marks the level "63700".
 */
export function ownLevelKeys(rows: readonly OrderRow[]): Set<string> {
  const keys = new Set<string>();
  for (const { order } of rows) {
    const price = new Decimal(order.price);
    if (price.isFinite()) keys.add(levelKey(order.side === "Buy" ? "bid" : "ask", price.toFixed()));
  }
  return keys;
}
