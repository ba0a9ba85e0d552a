import { Decimal } from "./decimal.js";
import { formatUtcTime } from "./format.js";
import { checkPrice } from "./price-guard.js";
import type { Side } from "./types.js";

/**
 * The checks an order typed in a UI passes before and after its "Send?" (docs/orders.md "Checks of
 * a UI order"; the TUI's docs/tui.md and the dashboard's docs/web-trading.md): free balance before
 * the question, then the far-price guard of lib/price-guard.ts and the book's staleness, which ask
 * a second, explicit confirmation. Pure and isomorphic: the TUI and the web call the same rules.
 */
export interface OrderDraft {
  side: Side;
  /** the decimal strings that will be sent */
  price: string;
  amount: string;
  pair: string;
}

/** What the UI knows of the balances when the order is prepared. */
export interface KnownBalances {
  rows: readonly { token: string; free: string }[];
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

/** The states of a book feed (exchanges/types.ts FeedState), named here so lib needs no exchange module. */
export type BookFeedState = "connecting" | "live" | "resyncing" | "stale" | "closed";

/**
 * A book that is not live: the feed is connecting, resyncing, stale or closed. The UIs then grey
 * the book, say since when and why, refuse to fill the panel from it and ask a second confirmation
 * before a send.
 */
export interface BookStaleness {
  state: Exclude<BookFeedState, "live">;
  /** ms since the epoch: when the feed left live, or when it was opened if it never was live */
  since: number;
  /** true when the feed had been live: what is on screen is the last book received */
  wasLive: boolean;
  reason: string;
}

/** Why the book is not live, in the trader's words. */
export function staleReason(state: Exclude<BookFeedState, "live">, wasLive: boolean): string {
  switch (state) {
    case "connecting":
      return wasLive ? "connection lost, reconnecting" : "connecting";
    case "resyncing":
      return "book out of sync, loading a fresh snapshot";
    case "stale":
      return "no book update for too long, reconnecting";
    case "closed":
      return "feed closed";
  }
}

/** Undefined while live; else since when and why, the reason told by `cause`, the state that ended live. */
export function bookStaleness(
  state: BookFeedState,
  since: number,
  wasLive: boolean,
  cause: BookFeedState = state,
): BookStaleness | undefined {
  if (state === "live") return undefined;
  return { state, since, wasLive, reason: staleReason(cause === "live" ? state : cause, wasLive) };
}

/** "disconnected since 12:00:03 UTC (connection lost, reconnecting)" */
export function staleText(s: BookStaleness): string {
  return `disconnected since ${formatUtcTime(s.since)} (${s.reason})`;
}

/** A reason to ask a second, explicit confirmation. */
export interface OrderWarning {
  /** "far": priced through the book beyond the limit; "no-book": no live book to check against */
  kind: "far" | "no-book";
  text: string;
}

/**
 * The far-price guard on the book on screen; without a live book the guard's "no-book" answer,
 * led by since when and why the book is not live. `override` names the UI's way to send anyway.
 */
export function orderWarning(
  draft: OrderDraft,
  view: { asks: readonly { price: string }[]; bids: readonly { price: string }[]; mid: string | undefined },
  staleness: BookStaleness | undefined,
  limitPercent: string | number | undefined,
  override: string,
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
    override,
  });
  if (result.ok) return undefined;
  if (result.reason === "far") return { kind: "far", text: `FAR PRICE: ${result.message}` };
  const why = staleness ? `BOOK NOT LIVE, ${staleText(staleness)}: ` : "NO BOOK: ";
  return { kind: "no-book", text: `${why}${result.message}` };
}
