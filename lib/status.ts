import { Decimal } from "./decimal.js";
import type { ExchangeId, OrderStatus } from "./types.js";

/**
 * Seed 001 §4 "Normalized order status". Exchange spellings are folded to lower-case words
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
  // "On some exchanges partially canceled also counts as canceled" (seed 001 §4).
  "partially canceled": "canceled",
  "partially cancelled": "canceled",
  "partial canceled": "canceled",
  "partially filled canceled": "canceled",
  "partially filled cancelled": "canceled",
  // okx: canceled by market-maker protection is a cancel.
  "mmp canceled": "canceled",
};

/** Per-exchange exceptions of seed 001 §4, as data: checked on the exchange's exact string first. */
const EXCEPTIONS: Partial<Record<ExchangeId, Record<string, OrderStatus>>> = {
  // htx: partial-canceled counts as open; canceling counts as canceled.
  htx: { "partial-canceled": "open", canceling: "canceled" },
  // "On the exchange that uses the 'PARTIALLY_CANCELED' variant, that status maps to open" —
  // mexc's documented status list is NEW, FILLED, PARTIALLY_FILLED, CANCELED, PARTIALLY_CANCELED.
  mexc: { PARTIALLY_CANCELED: "open" },
  // bitteam reports withdrawn orders as "delete" and refused ones as "inactive" (both read as rejected).
  bitteam: { delete: "canceled", inactive: "canceled" },
  // bybit: triggered counts as canceled.
  bybit: { Triggered: "canceled" },
  // lbank numeric codes: -1, 3 and 4 are canceled; 0 and 1 are open; 2 is closed.
  lbank: { "-1": "canceled", "0": "open", "1": "open", "2": "closed", "3": "canceled", "4": "canceled" },
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
 * undefined (seed 001 §4).
 */
export function normalizeStatus(exchange: ExchangeId, raw: unknown): OrderStatus | undefined {
  // Stryker disable next-line all: a shortcut; "null" and "undefined" are in no table either
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).trim();
  // Own keys only: a status such as "constructor" must not read Object.prototype.
  const exceptions = EXCEPTIONS[exchange];
  if (exceptions && Object.hasOwn(exceptions, text)) return exceptions[text];
  if (exchange === "lbank") return undefined;
  const folded = foldStatus(text);
  return Object.hasOwn(GENERAL, folded) ? GENERAL[folded] : undefined;
}

/**
 * kucoin derives the status (seed 001 §4): closed if dealSize is above 0 and there is no cancel
 * flag; canceled if the order is inactive and has a cancel flag; otherwise open.
 * An order kucoin still reports active is open even when partly dealt: the seed's "partially
 * filled" is open, and an active order is still resting on the book.
 */
export function kucoinStatus(order: { isActive: boolean; cancelExist: boolean; dealSize: string }): OrderStatus {
  if (order.isActive) return "open";
  const dealt = new Decimal(order.dealSize || "0").isGreaterThan(0);
  if (dealt && !order.cancelExist) return "closed";
  if (!order.isActive && order.cancelExist) return "canceled";
  return "open";
}
