import { describe, expect, it } from "vitest";
import { OrderBook } from "../../lib/orderbook.js";
import {
  bookColumnWidths,
  bookSideBlocks,
  buildBookView,
  moveSelection,
  pickFromSelection,
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

describe("book selection (seed 000 §2 Order book hover and click)", () => {
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
    expect(s).toEqual({ side: "ask", index: 0 });
    expect(moveSelection(s, "down", v)).toEqual({ side: "bid", index: 0 });
    expect(moveSelection({ side: "bid", index: 1 }, "down", v)).toEqual({ side: "bid", index: 1 });
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

describe("book panel lines (seed 000 §2 Order book, drawn for Ink's per-character cost)", () => {
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
    expect(price).toEqual({ width: 17, alignRight: false, cells: plain("", " 102", " 101") });
    // no padding in a cell: the layout right-aligns it in its column
    expect(amount).toEqual({ width: 11, alignRight: true, cells: plain("", "4", "3") });
    expect(total).toEqual({ width: 11, alignRight: true, cells: plain("", "408", "303") });
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
    const before = bookSideBlocks("bid", buildBookView(book, 10), 3, widths, undefined)[0];
    book.applyDelta("bid", "98", "5");
    book.applyDelta("bid", "97", "0.5");
    const after = bookSideBlocks("bid", buildBookView(book, 10), 3, widths, undefined)[0];
    // the best bid did not change: its cells are the same strings; only the changed levels differ
    expect(after?.columns.map((c) => c.cells[0]?.text)).toEqual(before?.columns.map((c) => c.cells[0]?.text));
    expect(after?.columns.map((c) => c.cells[1]?.text)).toEqual([" 98", "5", "490"]);
    expect(after?.columns.map((c) => c.cells[2]?.text)).toEqual([" 97", "0.5", "48.5"]);
  });

  it("draws the selection's cumulative rows as one highlighted block of whole lines, the selected row emphasised", () => {
    const v = view();
    const blocks = bookSideBlocks("bid", v, 3, widths, { side: "bid", index: 1 });
    expect(blocks.map((b) => [b.highlighted, b.rows])).toEqual([
      [true, 2],
      [false, 1],
    ]);
    expect(blocks[0]?.columns[0]?.cells).toEqual([
      { text: ` 99${" ".repeat(14)}${" ".repeat(10)}1${" ".repeat(9)}99 `, emphasis: false },
      { text: `▸98${" ".repeat(14)}${" ".repeat(10)}2${" ".repeat(8)}196 `, emphasis: true },
    ]);
    // the ask side has no part in a bid selection
    expect(bookSideBlocks("ask", v, 3, widths, { side: "bid", index: 1 }).map((b) => b.highlighted)).toEqual([false]);
  });

  it("emphasises the levels that changed, with the * marker", () => {
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
      { text: "*98", emphasis: true },
      { text: " 97", emphasis: false },
    ]);
    expect(block?.columns[1]?.cells).toEqual([
      { text: "1", emphasis: false },
      { text: "7", emphasis: true },
      { text: "3", emphasis: false },
    ]);
  });
});
