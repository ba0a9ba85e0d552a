import type { ExchangeId, OrderStatus } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";

/**
 * The general status table (docs/exchanges.md "Order status"); each exchange's exceptions are in
 * its info.ts. Exchange spellings are folded to lower-case words
 * (PARTIALLY_FILLED, partial-filled and PartiallyFilled all become "partially filled") before
 * the general table is read.
 */
const GENERAL: Record<string, OrderStatus> = {
  new: "open",
  live: "open",
  accepted: "open",
  created: "open",
  submitted: "open",
  submitting: "open",
  "partially filled": "open",
  "partial filled": "open",
  untriggered: "open",
  executing: "open",
  // Not in the seed's list but unambiguous on the exchanges that send them (gate, probit, bingx).
  open: "open",
  pending: "open",
  // bitget's freshly accepted orders before they rest ("init").
  init: "open",
  filled: "closed",
  executed: "closed",
  closed: "closed",
  cancelled: "canceled",
  canceled: "canceled",
  rejected: "canceled",
  expired: "canceled",
  "pending cancel": "canceled",
  failed: "canceled",
  deactivated: "canceled",
  "not found": "canceled",
  // "On some exchanges partially canceled also counts as canceled" (docs/exchanges.md "Order status").
  "partially canceled": "canceled",
  "partially cancelled": "canceled",
  "partial canceled": "canceled",
  "partially filled canceled": "canceled",
  "partially filled cancelled": "canceled",
  // okx: canceled by market-maker protection is a cancel.
  "mmp canceled": "canceled",
};

/** Folds an exchange's spelling to the words of the general table. */
export function foldStatus(raw: string): string {
  return raw
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[-_\s]+/g, " ")
    .trim();
}

/**
 * Maps an exchange's order status to open, closed or canceled; an unknown status yields
 * undefined (docs/exchanges.md "Order status").
 */
export function normalizeStatus(exchange: ExchangeId, raw: unknown): OrderStatus | undefined {
  // Stryker disable next-line all: a shortcut; "null" and "undefined" are in no table either
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).trim();
  // Own keys only: a status such as "constructor" must not read Object.prototype.
  const { statusExceptions: exceptions, onlyExceptions } = CATALOGUE[exchange];
  if (exceptions && Object.hasOwn(exceptions, text)) return exceptions[text];
  if (onlyExceptions) return undefined;
  const folded = foldStatus(text);
  return Object.hasOwn(GENERAL, folded) ? GENERAL[folded] : undefined;
}

/**
 * docs/decisions.md#d19: kucoin derives the status from `isActive` and `cancelExist` alone.
 * Active is open, whatever has filled (a partly dealt order still rests on the book); inactive is
 * canceled when `cancelExist` is true, else closed (done, whether or not anything dealt).
 */
export function kucoinStatus(order: { isActive: boolean; cancelExist: boolean }): OrderStatus {
  if (order.isActive) return "open";
  return order.cancelExist ? "canceled" : "closed";
}
