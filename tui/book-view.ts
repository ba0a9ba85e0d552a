import { Decimal } from "../lib/decimal.js";
import { type BookSide, type CumulativeRow, cumulativeRows, type OrderBook } from "../lib/orderbook.js";
import { columns, padStart, truncate } from "./components/layout.js";
import { type ColumnDecimals, decimalsOf, formatFixed, MAX_COLUMN_DECIMALS } from "./format.js";

/**
 * What the order-book panel shows at one refresh: the best `depth` levels of each side with their
 * cumulative amount and total (docs/dashboard-rules.md#screens "Order book"), the middle row, and which levels changed
 * since the previous refresh (they flash).
 */
export interface BookView {
  /** best first (lowest ask first) */
  asks: CumulativeRow[];
  /** best first (highest bid first) */
  bids: CumulativeRow[];
  mid: string | undefined;
  /** spread percent without the "~" and "%" (docs/dashboard-rules.md#screens middle row), 6 decimals */
  spread: string | undefined;
  /** book.version this view was taken at */
  version: number;
  /** keys `${side}:${price}` of levels that are new or changed amount since the previous view */
  changed: ReadonlySet<string>;
  /**
   * The decimals the book's own strings need (docs/tui.md "Numbers"), never fewer than the
   * previous view's, so a column does not change width as levels come and go. The pair's tick and
   * lot, when known, win over these.
   */
  decimals: ColumnDecimals;
}

export const EMPTY_BOOK_VIEW: BookView = {
  asks: [],
  bids: [],
  mid: undefined,
  spread: undefined,
  version: -1,
  changed: new Set(),
  decimals: { priceDecimals: 0, amountDecimals: 0 },
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
  const before = previous?.decimals;
  let priceDecimals = before?.priceDecimals ?? 0;
  let amountDecimals = before?.amountDecimals ?? 0;
  for (const rows of [askRows, bidRows])
    for (const r of rows) {
      priceDecimals = Math.max(priceDecimals, decimalsOf(r.price));
      amountDecimals = Math.max(amountDecimals, decimalsOf(r.amount));
    }
  return {
    asks: askRows,
    bids: bidRows,
    mid: book.midPrice(),
    spread: book.spreadPercent(6),
    version: book.version,
    changed,
    decimals: {
      priceDecimals: Math.min(MAX_COLUMN_DECIMALS, priceDecimals),
      amountDecimals: Math.min(MAX_COLUMN_DECIMALS, amountDecimals),
    },
  };
}

/**
 * The hovered row: a side, the level's price and its distance from the best level (0 = best).
 * The price is the anchor (docs/tui.md "Book selection"): on a moving book the selection stays on
 * its price while levels come and go above it; `index` is where that price was last seen, used
 * only when no price is known.
 */
export interface BookSelection {
  side: BookSide;
  index: number;
  price?: string;
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
  const clamped = clampSelection(selection, view);
  if (!clamped) {
    if (direction === "up") return anchored(askCount > 0 ? "ask" : "bid", 0, view);
    return anchored(bidCount > 0 ? "bid" : "ask", 0, view);
  }
  return moveSelectionBy(clamped, direction === "up" ? 1 : -1, view);
}

/**
 * Moves the selection `rows` rows up the screen (negative: down), stopping at the top of the asks
 * and the bottom of the bids: PgUp/PgDn move a page, Home/End a whole side. The result is
 * anchored to its level's price.
 */
export function moveSelectionBy(
  selection: BookSelection | undefined,
  rows: number,
  view: Pick<BookView, "asks" | "bids">,
): BookSelection | undefined {
  const clamped = clampSelection(selection, view);
  if (!clamped) return moveSelection(undefined, rows >= 0 ? "up" : "down", view);
  // screen positions: the best ask is 1 and worse asks count up; the best bid is 0, worse bids count down
  const position = clamped.side === "ask" ? clamped.index + 1 : -clamped.index;
  const top = view.asks.length;
  const bottom = -(view.bids.length - 1);
  const target = Math.max(bottom, Math.min(top, position + rows));
  return target >= 1 ? anchored("ask", target - 1, view) : anchored("bid", Math.abs(target), view);
}

function anchored(side: BookSide, index: number, view: Pick<BookView, "asks" | "bids">): BookSelection | undefined {
  const rows = side === "ask" ? view.asks : view.bids;
  const row = rows[Math.min(index, rows.length - 1)];
  return row ? { side, index: Math.min(index, rows.length - 1), price: row.price } : undefined;
}

/** Keeps a selection on the screen when the book gets shallower; undefined when its side is empty. */
export function clampSelection(
  selection: BookSelection | undefined,
  view: Pick<BookView, "asks" | "bids">,
): BookSelection | undefined {
  if (!selection) return undefined;
  const { side, price } = selection;
  const rows = side === "ask" ? view.asks : view.bids;
  if (rows.length === 0) return undefined;
  let index = Math.min(selection.index, rows.length - 1);
  if (price !== undefined) {
    const found = rows.findIndex((r) => r.price === price);
    if (found >= 0) index = found;
    else {
      // the level left the book: the next level away from the middle, else the deepest shown
      const p = new Decimal(price);
      const beyond = rows.findIndex((r) => (side === "ask" ? p.lt(r.price) : p.gt(r.price)));
      index = beyond >= 0 ? beyond : rows.length - 1;
    }
  }
  const row = rows[index] as CumulativeRow;
  if (row.price === price && index === selection.index) return selection;
  return { side, index, price: row.price };
}

/** Whether the selection's anchored price is still a level of the view. */
export function selectionOnBook(selection: BookSelection | undefined, view: Pick<BookView, "asks" | "bids">): boolean {
  if (!selection || selection.price === undefined) return selection !== undefined;
  return (selection.side === "ask" ? view.asks : view.bids).some((r) => r.price === selection.price);
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
 * What a click on a row broadcasts in the dashboard (docs/dashboard-rules.md#screens "Order book"): price, cumulative
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

/** The panel's column widths in cells: the marker, then price, amount and total. */
export interface BookColumnWidths {
  price: number;
  amount: number;
  total: number;
}

/** Price, Amount, Total share the panel's width 4:3:3, less the marker and the right margin. */
export function bookColumnWidths(width: number): BookColumnWidths {
  const [price = 0, amount = 0, total = 0] = columns(width - 2, [4, 3, 3]);
  return { price, amount, total };
}

/**
 * One level row's piece of a column: a price (with its marker), an amount or a total, or a whole
 * line of the highlighted block. `text` is "" on a row without a level. `emphasis` marks flashing
 * or selected rows.
 */
export interface BookCell {
  text: string;
  emphasis: boolean;
}

/** One column of a block: a cell per row, top to bottom, and how the cells align in the column. */
export interface BookColumn {
  width: number;
  alignRight: boolean;
  cells: BookCell[];
}

/**
 * Rows of one side drawn together. A plain block is three columns whose cells are one text per
 * level row, placed by the layout: the gaps between columns are never written (Ink styles every
 * character it writes on every frame, and the padding was most of a row), and every text is a
 * piece that recurs from frame to frame (a price, an amount), never a whole column that no later
 * frame repeats: Ink measures each distinct text and keeps it (docs/tui-memory.md), and only the
 * cells that changed are measured again. The selection's cumulative rows are a highlighted block of
 * whole lines, since their inverse bar must run across the gaps.
 */
export interface BookBlock {
  highlighted: boolean;
  rows: number;
  columns: BookColumn[];
}

/**
 * A quote total's decimals: the price's, at least 2 (cents), never more than price × amount can
 * have (docs/tui.md "Numbers").
 */
export function totalDecimals(d: ColumnDecimals): number {
  return Math.min(d.priceDecimals + d.amountDecimals, Math.max(d.priceDecimals, 2));
}

/** What the rows mark besides the numbers: your resting orders, and the glyphs to draw. */
export interface BookMarks {
  /** levelKey(side, price) of the levels where one of your orders rests */
  own: ReadonlySet<string>;
  /** the selected row's marker ("▸", or ">" without UTF-8) */
  selected: string;
  /** your order's marker, right of the total ("◂", or "<") */
  ownOrder: string;
}

export const UNICODE_MARKS: BookMarks = { own: new Set(), selected: "▸", ownOrder: "◂" };

/**
 * The blocks of one side at `rowsPerSide` rows, in screen order: asks worst first down to the best,
 * bids best first. Rows without a level stay blank so the layout does not jump. `selection` must
 * already be clamped to the view. Numbers are drawn with the column's decimals and thousands
 * separators and right-aligned, so the decimal points line up (docs/tui.md "Numbers"): prices and
 * totals with the price decimals, amounts with the amount decimals.
 */
export function bookSideBlocks(
  side: BookSide,
  view: BookView,
  rowsPerSide: number,
  widths: BookColumnWidths,
  selection: BookSelection | undefined,
  decimals: ColumnDecimals = view.decimals,
  marks: BookMarks = UNICODE_MARKS,
): BookBlock[] {
  const rows = side === "ask" ? view.asks : view.bids;
  const selectedIndex = selection?.side === side ? selection.index : -1;
  const blocks: BookBlock[] = [];
  let prices: BookCell[] = [];
  let amounts: BookCell[] = [];
  let totals: BookCell[] = [];
  let lines: BookCell[] = [];
  let highlighted = false;
  const flush = () => {
    const count = highlighted ? lines.length : prices.length;
    if (count === 0) return;
    blocks.push(
      highlighted
        ? {
            highlighted,
            rows: count,
            columns: [{ width: widths.price + widths.amount + widths.total + 2, alignRight: false, cells: lines }],
          }
        : {
            highlighted,
            rows: count,
            columns: [
              { width: widths.price + 1, alignRight: true, cells: prices },
              { width: widths.amount, alignRight: true, cells: amounts },
              // the right margin carries the own-order marker
              { width: widths.total + 1, alignRight: true, cells: totals },
            ],
          },
    );
    prices = [];
    amounts = [];
    totals = [];
    lines = [];
  };
  for (let n = 0; n < rowsPerSide; n++) {
    const index = side === "ask" ? rowsPerSide - 1 - n : n;
    const row = rows[index];
    // the cumulative rows run from the best level to the selected one
    const inCumulative = index <= selectedIndex;
    if (inCumulative !== highlighted) {
      flush();
      highlighted = inCumulative;
    }
    if (!row) {
      const blank = { text: "", emphasis: false };
      if (inCumulative) lines.push(blank);
      else {
        prices.push(blank);
        amounts.push(blank);
        totals.push(blank);
      }
      continue;
    }
    const isSelected = index === selectedIndex;
    const key = levelKey(side, row.price);
    const flashing = view.changed.has(key);
    const marker = isSelected ? marks.selected : " ";
    const ownMark = marks.own.has(key) ? marks.ownOrder : " ";
    const price = formatFixed(row.price, decimals.priceDecimals);
    const amount = formatFixed(row.amount, decimals.amountDecimals);
    const total = formatFixed(row.total, totalDecimals(decimals));
    if (inCumulative) {
      lines.push({
        text: `${padStart(marker + price, widths.price + 1)}${padStart(amount, widths.amount)}${padStart(total, widths.total)}${ownMark}`,
        emphasis: isSelected || flashing,
      });
    } else {
      prices.push({ text: marker + truncate(price, widths.price), emphasis: flashing });
      amounts.push({ text: truncate(amount, widths.amount), emphasis: flashing });
      totals.push({ text: truncate(total, widths.total) + ownMark, emphasis: flashing });
    }
  }
  flush();
  return blocks;
}
