import { describe, expect, it } from "vitest";
import { OrderBook } from "../../lib/orderbook.js";
import {
  bookColumnWidths,
  bookSideBlocks,
  buildBookView,
  clampSelection,
  moveSelection,
  moveSelectionBy,
  pickFromSelection,
  selectionOnBook,
} from "../../tui/book-view.js";

const view = () => {
  const book = new OrderBook();
  book.applySnapshot(
    [
      ["99", "1"],
      ["98", "2"],
    ],
    [
      ["101", "3"],
      ["102", "4"],
    ],
  );
  return buildBookView(book, 10);
};

describe("book selection (docs/dashboard-rules.md#screens Order book hover and click)", () => {
  it("walks the screen rows: up from the bids crosses the middle to the best ask, then outward", () => {
    const v = view();
    const path: string[] = [];
    let s = moveSelection(undefined, "down", v);
    for (let i = 0; i < 5; i++) {
      path.push(`${s?.side}${s?.index}`);
      s = moveSelection(s, "up", v);
    }
    expect(path).toEqual(["bid0", "ask0", "ask1", "ask1", "ask1"]);
    s = moveSelection({ side: "ask", index: 1 }, "down", v);
    expect(s).toEqual({ side: "ask", index: 0, price: "101" });
    expect(moveSelection(s, "down", v)).toEqual({ side: "bid", index: 0, price: "99" });
    expect(moveSelection({ side: "bid", index: 1 }, "down", v)).toEqual({ side: "bid", index: 1, price: "98" });
  });

  it("moves a page or a whole side with PgUp/PgDn and Home/End, stopping at the ends (docs/tui.md Keys)", () => {
    const v = view();
    expect(moveSelectionBy({ side: "bid", index: 1, price: "98" }, 10, v)).toEqual({
      side: "ask",
      index: 1,
      price: "102",
    });
    expect(moveSelectionBy({ side: "ask", index: 1, price: "102" }, -2, v)).toEqual({
      side: "bid",
      index: 0,
      price: "99",
    });
    expect(moveSelectionBy({ side: "ask", index: 0, price: "101" }, -1e6, v)?.price).toBe("98");
    // nothing selected: a page up starts at the best ask
    expect(moveSelectionBy(undefined, 10, v)?.price).toBe("101");
  });

  it("picks price, cumulative amount and total: Buy from asks, Sell from bids", () => {
    const v = view();
    expect(pickFromSelection({ side: "ask", index: 1 }, v)).toEqual({
      price: "102",
      amount: "7",
      total: "711",
      type: "Buy",
    });
    expect(pickFromSelection({ side: "bid", index: 1 }, v)).toEqual({
      price: "98",
      amount: "3",
      total: "295",
      type: "Sell",
    });
    // a selection deeper than the book clamps to the last level
    expect(pickFromSelection({ side: "bid", index: 9 }, v)?.price).toBe("98");
    expect(pickFromSelection(undefined, v)).toBeUndefined();
  });
});

describe("a selection anchored to its price (docs/tui.md Book selection)", () => {
  const book = () => {
    const b = new OrderBook();
    b.applySnapshot(
      [
        ["63630", "1"],
        ["63627", "1"],
        ["63625", "1"],
      ],
      [
        ["63640", "1"],
        ["63645", "2"],
      ],
    );
    return b;
  };

  it("stays on its price while levels appear and vanish above it, and Enter picks exactly that price", () => {
    const b = book();
    let v = buildBookView(b, 10);
    // down three rows from nothing: best bid, then 63627, then 63625
    let s = moveSelection(undefined, "down", v);
    s = moveSelection(s, "down", v);
    s = moveSelection(s, "down", v);
    expect(s?.price).toBe("63625");
    // two better bids arrive: the row moves down the screen, the selection keeps its price
    b.applyDelta("bid", "63635", "1");
    b.applyDelta("bid", "63632", "1");
    v = buildBookView(b, 10, v);
    expect(clampSelection(s, v)).toEqual({ side: "bid", index: 4, price: "63625" });
    expect(pickFromSelection(s, v)).toEqual({ price: "63625", amount: "5", total: "318149", type: "Sell" });
    // the next Down goes on from that price, not from the old position
    expect(moveSelection(s, "down", v)?.price).toBe("63625");
    expect(moveSelection(s, "up", v)?.price).toBe("63627");
  });

  it("moves to the next level away from the middle when its level leaves the book, and says it is gone", () => {
    const b = book();
    let v = buildBookView(b, 10);
    const s = { side: "bid" as const, index: 1, price: "63627" };
    b.applyDelta("bid", "63627", "0");
    v = buildBookView(b, 10, v);
    expect(selectionOnBook(s, v)).toBe(false);
    expect(clampSelection(s, v)).toEqual({ side: "bid", index: 1, price: "63625" });
    expect(selectionOnBook({ side: "ask", index: 0, price: "63640" }, v)).toBe(true);
  });
});

describe("book panel lines (docs/dashboard-rules.md#screens Order book, drawn for Ink's per-character cost)", () => {
  const widths = bookColumnWidths(40);

  it("splits 40 columns 4:3:3 after the marker and before the right margin", () => {
    expect(widths).toEqual({ price: 16, amount: 11, total: 11 });
  });

  it("draws a side as three aligned columns of one text per level row, blank rows past the book's depth", () => {
    const [block, ...rest] = bookSideBlocks("ask", view(), 3, widths, undefined);
    expect(rest).toHaveLength(0);
    expect(block?.highlighted).toBe(false);
    expect(block?.rows).toBe(3);
    const [price, amount, total] = block?.columns ?? [];
    const plain = (...texts: string[]) => texts.map((text) => ({ text, emphasis: false }));
    // asks worst first; the row past the two levels stays blank
    // prices right-aligned too, so the decimal points line up (docs/tui.md Numbers)
    expect(price).toEqual({ width: 17, alignRight: true, cells: plain("", " 102", " 101") });
    // no padding in a cell: the layout right-aligns it in its column
    expect(amount).toEqual({ width: 11, alignRight: true, cells: plain("", "4", "3") });
    // the total column takes the right margin, where your own orders are marked
    expect(total).toEqual({ width: 12, alignRight: true, cells: plain("", "408 ", "303 ") });
  });

  it("draws the same texts for the same levels, whatever the rest of the book does (issue 24)", () => {
    const book = new OrderBook();
    book.applySnapshot(
      [
        ["99", "1"],
        ["98", "2"],
      ],
      [["101", "3"]],
    );
    // the pair's tick and lot give the decimals (paper's pairs; docs/tui.md Numbers)
    const decimals = { priceDecimals: 0, amountDecimals: 1 };
    const before = bookSideBlocks("bid", buildBookView(book, 10), 3, widths, undefined, decimals)[0];
    book.applyDelta("bid", "98", "5");
    book.applyDelta("bid", "97", "0.5");
    const after = bookSideBlocks("bid", buildBookView(book, 10), 3, widths, undefined, decimals)[0];
    // the best bid did not change: its cells are the same strings; only the changed levels differ
    expect(after?.columns.map((c) => c.cells[0]?.text)).toEqual(before?.columns.map((c) => c.cells[0]?.text));
    expect(after?.columns.map((c) => c.cells[1]?.text)).toEqual([" 98", "5.0", "490.0 "]);
    expect(after?.columns.map((c) => c.cells[2]?.text)).toEqual([" 97", "0.5", "48.5 "]);
  });

  it("draws the selection's cumulative rows as one highlighted block of whole lines, the selected row emphasised", () => {
    const v = view();
    const blocks = bookSideBlocks("bid", v, 3, widths, { side: "bid", index: 1 });
    expect(blocks.map((b) => [b.highlighted, b.rows])).toEqual([
      [true, 2],
      [false, 1],
    ]);
    expect(blocks[0]?.columns[0]?.cells).toEqual([
      { text: `${" ".repeat(15)}99${" ".repeat(10)}1${" ".repeat(9)}99 `, emphasis: false },
      { text: `${" ".repeat(14)}▸98${" ".repeat(10)}2${" ".repeat(8)}196 `, emphasis: true },
    ]);
    // the ask side has no part in a bid selection
    expect(bookSideBlocks("ask", v, 3, widths, { side: "bid", index: 1 }).map((b) => b.highlighted)).toEqual([false]);
  });

  it("emphasises the levels that changed without a marker of their own (docs/tui.md Numbers)", () => {
    const book = new OrderBook();
    book.applySnapshot(
      [
        ["99", "1"],
        ["98", "2"],
        ["97", "3"],
      ],
      [["101", "3"]],
    );
    const first = buildBookView(book, 10);
    book.applyDelta("bid", "98", "7");
    const [block] = bookSideBlocks("bid", buildBookView(book, 10, first), 3, widths, undefined);
    expect(block?.columns[0]?.cells).toEqual([
      { text: " 99", emphasis: false },
      { text: " 98", emphasis: true },
      { text: " 97", emphasis: false },
    ]);
    expect(block?.columns[1]?.cells).toEqual([
      { text: "1", emphasis: false },
      { text: "7", emphasis: true },
      { text: "3", emphasis: false },
    ]);
  });

  it("draws every number of a column with the pair's decimals and thousands separators, and marks your orders", () => {
    const book = new OrderBook();
    book.applySnapshot(
      [
        ["63764.5", "0.5"],
        ["999.99", "12.25"],
      ],
      [["63800", "1"]],
    );
    const decimals = { priceDecimals: 2, amountDecimals: 4 };
    const marks = { own: new Set(["bid:999.99"]), selected: ">", ownOrder: "<" };
    const [block] = bookSideBlocks("bid", buildBookView(book, 10), 2, bookColumnWidths(48), undefined, decimals, marks);
    expect(block?.columns.map((c) => c.cells.map((cell) => cell.text))).toEqual([
      [" 63,764.50", " 999.99"],
      ["0.5000", "12.2500"],
      // totals in the quote: the price's decimals (at least 2), cut, never rounded up
      ["31,882.25 ", "12,249.87<"],
    ]);
  });
});
