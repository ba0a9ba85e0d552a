import { afterEach, describe, expect, it } from "vitest";
import { OrderBook as Book } from "../../lib/orderbook.js";
import { buildBookView, moveSelection } from "../book-view.js";
import { OrderBook } from "./OrderBook.js";
import { render, type RenderResult } from "../../test/tui/render.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

function sampleBook(): Book {
  const book = new Book();
  book.applySnapshot(
    [
      ["99", "1"],
      ["98", "2"],
      ["97", "3"],
    ],
    [
      ["101", "1.5"],
      ["102", "2.5"],
      ["103", "4"],
    ],
  );
  return book;
}

describe("OrderBook panel (seed 000 §2 Order book)", () => {
  it("draws Price, Amount, Total with asks on top, bids below and the mid/spread middle row", () => {
    const view = buildBookView(sampleBook(), 5);
    screen = render(
      <OrderBook
        view={view}
        pair="BTC/USDT"
        rowsPerSide={3}
        width={40}
        feedState="live"
        selection={undefined}
        focused
      />,
    );
    const lines = screen.lastFrame().split("\n");
    expect(lines[0]).toMatch(/Order book BTC\/USDT\s+live/);
    expect(lines[1]).toMatch(/Price\s+Amount\s+Total/);
    // asks: worst at the top, best right above the middle row
    expect(lines[2]).toMatch(/^\s*103\s+4\s+412\s*$/);
    expect(lines[4]).toMatch(/^\s*101\s+1\.5\s+151\.5\s*$/);
    // mid (99+101)/2 = 100, spread (101-99)/100*100 = 2.00 %
    expect(lines[5]).toMatch(/100\s+~2\.00%/);
    expect(lines[6]).toMatch(/^\s*99\s+1\s+99\s*$/);
    expect(lines[8]).toMatch(/^\s*97\s+3\s+291\s*$/);
  });

  it("shows the cumulative amount and total of the selected row", () => {
    const view = buildBookView(sampleBook(), 5);
    // two rows up from nothing: best ask, then the second ask
    const selection = moveSelection(moveSelection(undefined, "up", view), "up", view);
    screen = render(
      <OrderBook
        view={view}
        pair="BTC/USDT"
        rowsPerSide={3}
        width={40}
        feedState="live"
        selection={selection}
        focused
      />,
    );
    // 1.5 + 2.5 = 4 BTC; 101*1.5 + 102*2.5 = 151.5 + 255 = 406.5 USDT
    expect(screen.lastFrame()).toContain("Σ 2 asks: 4 BTC · 406.5 USDT");
    expect(screen.lastFrame()).toMatch(/▸102/);
  });

  it("marks levels that changed since the previous refresh", () => {
    const book = sampleBook();
    const first = buildBookView(book, 5);
    book.applyDelta("bid", "98", "7");
    const second = buildBookView(book, 5, first);
    screen = render(
      <OrderBook
        view={second}
        pair="BTC/USDT"
        rowsPerSide={3}
        width={40}
        feedState="resyncing"
        selection={undefined}
        focused={false}
      />,
    );
    const frame = screen.lastFrame();
    expect(frame).toMatch(/\*98\s+7\s+686/);
    expect(frame).not.toMatch(/\*99/);
    expect(frame).toMatch(/resyncing/);
  });

  it("keeps blank rows when the book is shallower than the window", () => {
    const view = buildBookView(sampleBook(), 5);
    screen = render(
      <OrderBook
        view={view}
        pair="BTC/USDT"
        rowsPerSide={6}
        width={40}
        feedState="live"
        selection={undefined}
        focused
      />,
    );
    expect(screen.lastFrame().split("\n")).toHaveLength(4 + 12);
  });
});
