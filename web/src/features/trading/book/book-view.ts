/**
 * What the web order book shows at one refresh (docs/dashboard-rules.md#screens "Order book"): the best `depth`
 * levels of each side with cumulative amount and total (lib/orderbook.ts cumulativeRows, the same
 * rows as the TUI), the mid and the "~" spread, and the pick a click on a row broadcasts.
 */
import { type CumulativeRow, cumulativeRows, type OrderBook } from "../../../../../lib/orderbook.js";
import type { Side } from "../../../../../lib/types.js";

export interface WebBookView {
  /** best first (lowest ask first) */
  asks: CumulativeRow[];
  /** best first (highest bid first) */
  bids: CumulativeRow[];
  mid: string | undefined;
  /** spread percent, 6 decimals, without "~" and "%" */
  spread: string | undefined;
  version: number;
  /** the server relay's version of this book, when it came through the relay */
  sourceVersion?: number | undefined;
}

export const EMPTY_VIEW: WebBookView = { asks: [], bids: [], mid: undefined, spread: undefined, version: -1 };

export function takeView(book: OrderBook, depth: number, sourceVersion?: number): WebBookView {
  const { bids, asks } = book.top(depth);
  return {
    asks: cumulativeRows(asks),
    bids: cumulativeRows(bids),
    mid: book.midPrice(),
    spread: book.spreadPercent(6),
    version: book.version,
    sourceVersion,
  };
}

/** The app event of a click on a book row (docs/dashboard-rules.md#screens): price, cumulative amount and total, and the side. */
export const BOOK_PICK = "BOOK_PICK";
export interface BookPick {
  price: string;
  amount: string;
  total: string;
  /** Buy from the asks, Sell from the bids */
  type: Side;
}

/** docs/dashboard-rules.md#screens: the click on the `index`-th level from the best fills the panel with the cumulative numbers up to it. */
export function pickOf(
  view: Pick<WebBookView, "asks" | "bids">,
  side: "ask" | "bid",
  index: number,
): BookPick | undefined {
  const row = (side === "ask" ? view.asks : view.bids)[index];
  if (!row) return undefined;
  return { price: row.price, amount: row.cumAmount, total: row.cumTotal, type: side === "ask" ? "Buy" : "Sell" };
}
