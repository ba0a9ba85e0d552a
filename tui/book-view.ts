import { cumulativeRows, type BookSide, type CumulativeRow, type OrderBook } from "../lib/orderbook.js";

/**
 * What the order-book panel shows at one refresh: the best `depth` levels of each side with their
 * cumulative amount and total (seed 000 §2 "Order book"), the middle row, and which levels changed
 * since the previous refresh (they flash).
 */
export interface BookView {
  /** best first (lowest ask first) */
  asks: CumulativeRow[];
  /** best first (highest bid first) */
  bids: CumulativeRow[];
  mid: string | undefined;
  /** spread percent without the "~" and "%" (seed 000 §2 middle row), 6 decimals */
  spread: string | undefined;
  /** book.version this view was taken at */
  version: number;
  /** keys `${side}:${price}` of levels that are new or changed amount since the previous view */
  changed: ReadonlySet<string>;
}

export const EMPTY_BOOK_VIEW: BookView = {
  asks: [],
  bids: [],
  mid: undefined,
  spread: undefined,
  version: -1,
  changed: new Set(),
};

export function levelKey(side: BookSide, price: string): string {
  return `${side}:${price}`;
}

/** Takes the view of `book` at `depth` levels a side, diffing against `previous` for the flash. */
export function buildBookView(book: OrderBook, depth: number, previous?: BookView): BookView {
  const { bids, asks } = book.top(depth);
  const askRows = cumulativeRows(asks);
  const bidRows = cumulativeRows(bids);
  const changed = new Set<string>();
  // The first view flashes nothing: everything is new, which says nothing to the trader.
  if (previous && previous.version >= 0) {
    const before = new Map<string, string>();
    for (const r of previous.asks) before.set(levelKey("ask", r.price), r.amount);
    for (const r of previous.bids) before.set(levelKey("bid", r.price), r.amount);
    for (const r of askRows)
      if (before.get(levelKey("ask", r.price)) !== r.amount) changed.add(levelKey("ask", r.price));
    for (const r of bidRows)
      if (before.get(levelKey("bid", r.price)) !== r.amount) changed.add(levelKey("bid", r.price));
  }
  return {
    asks: askRows,
    bids: bidRows,
    mid: book.midPrice(),
    spread: book.spreadPercent(6),
    version: book.version,
    changed,
  };
}

/** The hovered row: a side and the distance from the best level (0 = best). */
export interface BookSelection {
  side: BookSide;
  index: number;
}

/**
 * Moves the selection one row up or down the screen. Asks are drawn worst at the top down to the
 * best just above the middle row, bids best first below it; so "up" from the best bid is the best
 * ask, and "up" on the ask side goes away from the middle.
 */
export function moveSelection(
  selection: BookSelection | undefined,
  direction: "up" | "down",
  view: Pick<BookView, "asks" | "bids">,
): BookSelection | undefined {
  const askCount = view.asks.length;
  const bidCount = view.bids.length;
  if (askCount + bidCount === 0) return undefined;
  if (!selection) {
    if (direction === "up") return askCount > 0 ? { side: "ask", index: 0 } : { side: "bid", index: 0 };
    return bidCount > 0 ? { side: "bid", index: 0 } : { side: "ask", index: 0 };
  }
  const clamped = clampSelection(selection, view);
  if (!clamped) return moveSelection(undefined, direction, view);
  const { side, index } = clamped;
  if (direction === "up") {
    if (side === "ask") return { side, index: Math.min(index + 1, askCount - 1) };
    if (index > 0) return { side, index: index - 1 };
    return askCount > 0 ? { side: "ask", index: 0 } : clamped;
  }
  if (side === "bid") return { side, index: Math.min(index + 1, bidCount - 1) };
  if (index > 0) return { side, index: index - 1 };
  return bidCount > 0 ? { side: "bid", index: 0 } : clamped;
}

/** Keeps a selection on the screen when the book gets shallower; undefined when its side is empty. */
export function clampSelection(
  selection: BookSelection | undefined,
  view: Pick<BookView, "asks" | "bids">,
): BookSelection | undefined {
  if (!selection) return undefined;
  const rows = selection.side === "ask" ? view.asks : view.bids;
  if (rows.length === 0) return undefined;
  return { side: selection.side, index: Math.min(selection.index, rows.length - 1) };
}

/** The selected row's cumulative numbers, or undefined. */
export function selectedRow(
  selection: BookSelection | undefined,
  view: Pick<BookView, "asks" | "bids">,
): CumulativeRow | undefined {
  const s = clampSelection(selection, view);
  if (!s) return undefined;
  return (s.side === "ask" ? view.asks : view.bids)[s.index];
}

/**
 * What a click on a row broadcasts in the dashboard (seed 000 §2 "Order book"): price, cumulative
 * amount, cumulative total, and type Buy from asks, Sell from bids.
 */
export interface BookPick {
  price: string;
  amount: string;
  total: string;
  type: "Buy" | "Sell";
}

export function pickFromSelection(
  selection: BookSelection | undefined,
  view: Pick<BookView, "asks" | "bids">,
): BookPick | undefined {
  const s = clampSelection(selection, view);
  const row = selectedRow(s, view);
  if (!s || !row) return undefined;
  return { price: row.price, amount: row.cumAmount, total: row.cumTotal, type: s.side === "ask" ? "Buy" : "Sell" };
}
