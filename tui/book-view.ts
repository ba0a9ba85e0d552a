import { cumulativeRows, type BookSide, type CumulativeRow, type OrderBook } from "../lib/orderbook.js";
import { columns, padEnd, padStart, truncate } from "./components/layout.js";
import { formatAmount, formatPrice } from "./format.js";

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
 * The blocks of one side at `rowsPerSide` rows, in screen order: asks worst first down to the best,
 * bids best first. Rows without a level stay blank so the layout does not jump. `selection` must
 * already be clamped to the view.
 */
export function bookSideBlocks(
  side: BookSide,
  view: BookView,
  rowsPerSide: number,
  widths: BookColumnWidths,
  selection: BookSelection | undefined,
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
              { width: widths.price + 1, alignRight: false, cells: prices },
              { width: widths.amount, alignRight: true, cells: amounts },
              { width: widths.total, alignRight: true, cells: totals },
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
    const flashing = view.changed.has(levelKey(side, row.price));
    const marker = isSelected ? "▸" : flashing ? "*" : " ";
    const price = formatPrice(row.price);
    const amount = formatAmount(row.amount);
    const total = formatAmount(row.total);
    if (inCumulative) {
      lines.push({
        text: `${marker}${padEnd(price, widths.price)}${padStart(amount, widths.amount)}${padStart(total, widths.total)} `,
        emphasis: isSelected || flashing,
      });
    } else {
      prices.push({ text: marker + truncate(price, widths.price), emphasis: flashing });
      amounts.push({ text: truncate(amount, widths.amount), emphasis: flashing });
      totals.push({ text: truncate(total, widths.total), emphasis: flashing });
    }
  }
  flush();
  return blocks;
}
