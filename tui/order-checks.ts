import { Decimal } from "../lib/decimal.js";
import { checkPrice } from "../lib/price-guard.js";
import type { Side } from "../lib/types.js";
import type { BookView } from "./book-view.js";
import { type BookStaleness, staleText } from "./feed-health.js";
import type { BalanceRow } from "./orders-view.js";

/**
 * The checks a TUI order passes before and after "Send?" (docs/tui.md "Order checks"): free
 * balance before the question, then the far-price guard of lib/price-guard.ts (docs/orders.md
 * "Far-price guard") and the book's staleness, which ask a second, explicit confirmation.
 */
export interface OrderDraft {
  side: Side;
  /** the decimal strings that will be sent */
  price: string;
  amount: string;
  pair: string;
}

/** What the TUI knows of the balances when the order is prepared (hooks/useBalances). */
export interface KnownBalances {
  rows: readonly BalanceRow[];
  error: string | undefined;
  /** undefined until the first successful fetch */
  lastUpdate: number | undefined;
}

export type FundsCheck =
  | { ok: true; note?: undefined }
  /** the balances are unknown: the question says the funds were not checked */
  | { ok: true; note: string }
  /** short: the order is refused before the question, `message` says what is missing in full */
  | { ok: false; message: string };

/**
 * A Buy spends price × amount of the quote, a Sell the amount of the base; either must be free
 * (paper charges no fees; an exchange's fee on top is for the exchange to refuse).
 */
export function checkFunds(draft: OrderDraft, balances: KnownBalances): FundsCheck {
  const [base = "", quote = ""] = draft.pair.split("/");
  if (balances.error !== undefined)
    return { ok: true, note: `free balance not checked: balances unavailable: ${balances.error}` };
  if (balances.lastUpdate === undefined) return { ok: true, note: "free balance not checked: balances not loaded yet" };
  const token = draft.side === "Buy" ? quote : base;
  const need = draft.side === "Buy" ? new Decimal(draft.price).times(draft.amount) : new Decimal(draft.amount);
  const row = balances.rows.find((r) => r.token === token);
  const free = new Decimal(row?.free ?? "0");
  if (free.gte(need)) return { ok: true };
  const what =
    draft.side === "Buy"
      ? `buy ${draft.amount} ${base} @ ${draft.price} ${quote}`
      : `sell ${draft.amount} ${base} @ ${draft.price} ${quote}`;
  return {
    ok: false,
    message: `Not enough ${token} to ${what}: needs ${need.toFixed()} ${token}, ${free.toFixed()} ${token} free, ${need.minus(free).toFixed()} ${token} missing. Not sent.`,
  };
}

/** A reason to ask a second, explicit confirmation. */
export interface OrderWarning {
  /** "far": priced through the book beyond the limit; "no-book": no live book to check against */
  kind: "far" | "no-book";
  text: string;
}

/** The TUI's override, named in the guard's message. */
export const TUI_FAR_PRICE_OVERRIDE = "a second confirmation sends it anyway";

/**
 * The far-price guard on the book on screen; without a live book (docs/tui.md "Stale book") the
 * guard's "no-book" answer, led by since when and why the book is not live.
 */
export function orderWarning(
  draft: OrderDraft,
  view: { asks: readonly { price: string }[]; bids: readonly { price: string }[]; mid: BookView["mid"] },
  staleness: BookStaleness | undefined,
  limitPercent: string | number | undefined,
): OrderWarning | undefined {
  const result = checkPrice({
    side: draft.side,
    price: draft.price,
    amount: draft.amount,
    bestBid: view.bids[0]?.price,
    bestAsk: view.asks[0]?.price,
    mid: view.mid,
    limitPercent,
    live: staleness === undefined,
    pair: draft.pair,
    override: TUI_FAR_PRICE_OVERRIDE,
  });
  if (result.ok) return undefined;
  if (result.reason === "far") return { kind: "far", text: `FAR PRICE: ${result.message}` };
  const why = staleness ? `BOOK NOT LIVE, ${staleText(staleness)}: ` : "NO BOOK: ";
  return { kind: "no-book", text: `${why}${result.message}` };
}
