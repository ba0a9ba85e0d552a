import { describe, expect, it } from "vitest";
import { OrderBook } from "../../lib/orderbook.js";
import { buildBookView, moveSelection, pickFromSelection } from "../../tui/book-view.js";

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
