/** Printing orders and balances for humans; loaded only when a command has something to print (bignumber.js comes with it). */
import { addDecimals, Decimal } from "../../lib/decimal.js";
import { formatUtcTimestamp } from "../../lib/format.js";
import type { Balances, Order } from "../../lib/types.js";
import type { Cell, Output } from "../output.js";

const sideCell = (order: Order): Cell => ({ text: order.side, style: order.side === "Buy" ? "green" : "red" });

/** Orders for humans: id, side, price, amount, filled, status, time. */
export function printOrders(out: Output, orders: readonly Order[]): void {
  if (orders.length === 0) {
    out.text("No orders");
    return;
  }
  out.table(
    ["ID", "Side", "Price", "Amount", "Filled", "Status", "Time"],
    orders.map((o) => [
      o.id,
      sideCell(o),
      o.price,
      o.amount,
      o.filled,
      o.rawStatus && o.rawStatus !== o.status ? `${o.status ?? "?"} (${o.rawStatus})` : (o.status ?? "unknown"),
      o.timestamp > 0 ? formatUtcTimestamp(o.timestamp) : "-",
    ]),
    ["left", "left", "right", "right", "right", "left", "left"],
  );
}

/** Drops currencies whose free and locked are both zero (some exchanges already do, docs/exchange-rules.md#entities). */
export function nonZero(balances: Balances): Balances {
  const out: Balances = {};
  for (const [token, b] of Object.entries(balances)) {
    if (!new Decimal(b.f).isZero() || !new Decimal(b.l).isZero()) out[token] = b;
  }
  return out;
}

/** Balances for humans: Token, Total, Free, Locked; total = f + l added exactly. */
export function printBalances(out: Output, balances: Balances): void {
  const tokens = Object.keys(balances).sort();
  if (tokens.length === 0) {
    out.text("No balances");
    return;
  }
  out.table(
    ["Token", "Total", "Free", "Locked"],
    tokens.map((token) => {
      const { f, l } = balances[token]!;
      return [token, addDecimals(f, l), f, l];
    }),
    ["left", "right", "right", "right"],
  );
}
