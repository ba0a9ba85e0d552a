import { Decimal } from "../lib/decimal.js";
import type { Balances, Order } from "../lib/types.js";

export interface OrderRow {
  order: Order;
  /** price times amount (seed 000 §2 "Open orders panel": the quote total) */
  total: string;
}

/** Seed 000 §2: the open orders list is sorted by price descending. */
export function openOrderRows(orders: readonly Order[]): OrderRow[] {
  return [...orders]
    .sort((a, b) => new Decimal(b.price).comparedTo(a.price) || a.id.localeCompare(b.id))
    .map((order) => ({ order, total: new Decimal(order.price).times(order.amount).toFixed() }));
}

export interface BalanceRow {
  token: string;
  /** f + l */
  total: string;
  free: string;
  locked: string;
}

/** Seed 000 §2 "Balances table": Token, Total, Free, Locked; non-zero first, then by token. */
export function balanceRows(balances: Balances): BalanceRow[] {
  return Object.entries(balances)
    .map(([token, { f, l }]) => ({ token, free: f, locked: l, total: new Decimal(f).plus(l).toFixed() }))
    .sort((a, b) => {
      const za = new Decimal(a.total).isZero() ? 1 : 0;
      const zb = new Decimal(b.total).isZero() ? 1 : 0;
      return za - zb || a.token.localeCompare(b.token);
    });
}

/** The first row of a window of `size` rows that keeps `selected` visible. */
export function windowStart(selected: number, count: number, size: number): number {
  if (count <= size) return 0;
  return Math.max(0, Math.min(selected - Math.floor(size / 2), count - size));
}
