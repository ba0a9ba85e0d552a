/**
 * Your fills in the trading view (docs/web-trading.md "Fills"), told as the TUI tells them
 * (tui/fills.ts, docs/tui.md "Fills"): the exchange layer gives orders, not trades, so a fill is an
 * order's filled amount growing: at placement (the answer of the create call), between two polls
 * of the open orders, and when an order leaves the list (looked up once, GET /token/trade/order/{id}).
 */
import { useSyncExternalStore } from "react";
import type { AccountPath } from "../../../../../lib/api.js";
import { Decimal } from "../../../../../lib/decimal.js";
import type { Order } from "../../../../../lib/types.js";
import { diffOpenOrders, type Fill, fillSince, type SeenOrder, seenOf } from "../../../../../tui/fills.js";
import { setSuccessFromAnswer } from "../../../app/api";

/** fills kept per account for the panel */
export const MAX_FILLS = 50;

interface AccountFills {
  /** what this tab last saw of each open order, undefined before the first list */
  seen: Map<string, SeenOrder> | undefined;
  fills: Fill[];
}

const accounts = new Map<string, AccountFills>();
const listeners = new Set<() => void>();
const NO_FILLS: Fill[] = [];

const keyOf = (path: AccountPath) => JSON.stringify(path);
function accountOf(path: AccountPath): AccountFills {
  const key = keyOf(path);
  let a = accounts.get(key);
  if (!a) {
    a = { seen: undefined, fills: [] };
    accounts.set(key, a);
  }
  return a;
}

function add(a: AccountFills, fill: Fill): void {
  a.fills = [fill, ...a.fills].slice(0, MAX_FILLS);
  for (const l of listeners) l();
}

/**
 * An open-orders list just read: the fills of orders still open, and the orders that left it, each
 * looked up once with `lookUp` (filled, or cancelled after part of it filled). The first list of a
 * tab only sets what was seen: fills before it are not this tab's to tell.
 */
export function recordOpenOrders(
  path: AccountPath,
  list: readonly Order[],
  time: number,
  lookUp: (id: string) => Promise<Order | undefined>,
): void {
  const a = accountOf(path);
  const before = a.seen;
  a.seen = new Map(list.map((o) => [o.id, seenOf(o)]));
  if (!before) return;
  const { fills, gone } = diffOpenOrders(before, list, time);
  for (const fill of fills) add(a, fill);
  for (const id of gone) {
    const last = before.get(id);
    void lookUp(id).then(
      (order) => {
        const fill = order ? fillSince(last, order, time) : undefined;
        if (fill) add(a, fill);
      },
      () => undefined,
    );
  }
}

/** An order just placed: what filled at once is a fill; the rest is watched like any open order. */
export function recordPlaced(path: AccountPath, order: Order, time: number): Fill | undefined {
  const a = accountOf(path);
  const fill = fillSince(undefined, order, time, true);
  if (fill) add(a, fill);
  if (order.status === "open" && a.seen) a.seen.set(order.id, seenOf(order));
  return fill;
}

/** The account's fills seen in this tab, newest first. */
export function fillsOf(path: AccountPath): readonly Fill[] {
  return accounts.get(keyOf(path))?.fills ?? NO_FILLS;
}

/** fillsOf as React state. */
export function useFills(path: AccountPath): readonly Fill[] {
  const key = keyOf(path);
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => accounts.get(key)?.fills ?? NO_FILLS,
  );
}

/** The words of a placed order's toast: what filled at once is said (docs/web-trading.md "Fills"). */
export function placedToast(order: Order): { title: string; description: string } {
  const [base = ""] = order.pair.split("/");
  const price = order.average ?? order.price;
  const fee = order.fee ? `, fee ${order.fee.amount} ${order.fee.currency}` : "";
  const what = `${order.side} ${order.amount} ${base} @ ${order.price}`;
  const filled = new Decimal(order.filled || "0");
  if (filled.gte(order.amount))
    return { title: "Order filled at once", description: `${what}: filled ${order.filled} @ ${price}${fee}` };
  if (filled.gt(0))
    return {
      title: "Order placed, part filled at once",
      description: `${what}: filled ${order.filled} @ ${price}${fee}, the rest rests`,
    };
  return { title: "Order placed", description: `${what}: resting` };
}

function isOrder(v: unknown): v is Order {
  const o = v as Partial<Order> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    typeof o.id === "string" &&
    typeof o.amount === "string" &&
    typeof o.pair === "string"
  );
}

// the create call's success toast says what filled at once
setSuccessFromAnswer("createOrder", (data) => (isOrder(data) ? placedToast(data) : undefined));
