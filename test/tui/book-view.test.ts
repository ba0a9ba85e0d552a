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

  it("draws a side as three aligned columns without the gaps, blank rows past the book's depth", () => {
    const [block, ...rest] = bookSideBlocks("ask", view(), 3, widths, undefined);
    expect(rest).toHaveLength(0);
    expect(block?.highlighted).toBe(false);
    expect(block?.rows).toBe(3);
    const [price, amount, total] = block?.columns ?? [];
    // asks worst first; the row past the two levels stays blank
    expect(price).toEqual({ width: 17, alignRight: false, runs: [{ text: "\n 102\n 101", emphasis: false }] });
    expect(amount?.runs).toEqual([{ text: "\n4\n3", emphasis: false }]);
    // right-aligned to the widest total (408 and 303): the block sits at the column's right edge
    expect(total).toEqual({ width: 11, alignRight: true, runs: [{ text: "\n408\n303", emphasis: false }] });
  });

  it("draws the selection's cumulative rows as one highlighted block of whole lines, the selected row emphasised", () => {
    const v = view();
    const blocks = bookSideBlocks("bid", v, 3, widths, { side: "bid", index: 1 });
    expect(blocks.map((b) => [b.highlighted, b.rows])).toEqual([
      [true, 2],
      [false, 1],
    ]);
    expect(blocks[0]?.columns[0]?.runs).toEqual([
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
    expect(block?.columns[0]?.runs).toEqual([
      { text: " 99", emphasis: false },
      { text: "*98", emphasis: true },
      { text: " 97", emphasis: false },
    ]);
    expect(block?.columns[1]?.runs.map((r) => r.text)).toEqual(["1", "7", "3"]);
  });
});
