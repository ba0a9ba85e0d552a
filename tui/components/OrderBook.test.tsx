import chalk from "chalk";
import { afterEach, describe, expect, it } from "vitest";
import { OrderBook as Book } from "../../lib/orderbook.js";
import { type RenderResult, render } from "../../test/tui/render.js";
import { buildBookView, moveSelection } from "../book-view.js";
import { OrderBook } from "./OrderBook.js";

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

describe("OrderBook panel (docs/dashboard-rules.md#screens Order book)", () => {
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
    // one rule per column (docs/tui.md Numbers): amounts with the book's 1 decimal, totals with 1
    expect(lines[2]).toMatch(/^\s*103\s+4\.0\s+412\.0\s*$/);
    expect(lines[4]).toMatch(/^\s*101\s+1\.5\s+151\.5\s*$/);
    // mid (99+101)/2 = 100, spread (101-99)/100*100 = 2.00 %
    expect(lines[5]).toMatch(/100\s+~2\.00%/);
    expect(lines[6]).toMatch(/^\s*99\s+1\.0\s+99\.0\s*$/);
    expect(lines[8]).toMatch(/^\s*97\s+3\.0\s+291\.0\s*$/);
    // right-aligned: the last digits of every row share a column
    const ends = [2, 3, 4, 6, 7, 8].map((i) => (lines[i] ?? "").trimEnd().length);
    expect(new Set(ends).size).toBe(1);
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
    expect(screen.lastFrame()).toContain("Σ 2 asks: 4.0 BTC · 406.5 USDT");
    expect(screen.lastFrame()).toMatch(/▸102/);
  });

  it("flashes levels that changed since the previous refresh in their side's colour, without a marker", () => {
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
    expect(frame).toMatch(/ 98\s+7\.0\s+686\.0/);
    expect(frame).not.toContain("*");
    expect(frame).toMatch(/resyncing/);
    // the changed bid is bold and green like every bid (docs/tui.md Numbers), not another colour
    screen.unmount();
    const level = chalk.level;
    chalk.level = 1; // as on a colour terminal
    try {
      screen = render(
        <OrderBook
          view={second}
          pair="BTC/USDT"
          rowsPerSide={3}
          width={40}
          feedState="live"
          selection={undefined}
          focused={false}
        />,
        { noColor: false },
      );
    } finally {
      chalk.level = level;
    }
    const raw = screen.lastRawFrame();
    const bold = "\u001b[1m";
    const flashed = raw.split("\n").find((l) => l.includes(" 98"));
    expect(flashed).toContain(bold);
    expect(flashed).toContain("\u001b[32m"); // green, as every bid
    expect(raw.split("\n").find((l) => l.includes(" 99"))).not.toContain(bold);
  });

  it("marks the levels where your own orders rest, in ASCII where the locale is not UTF-8", () => {
    const view = buildBookView(sampleBook(), 5);
    screen = render(
      <OrderBook
        view={view}
        pair="BTC/USDT"
        rowsPerSide={3}
        width={40}
        feedState="live"
        selection={moveSelection(undefined, "up", view)}
        focused
        decimals={{ priceDecimals: 2, amountDecimals: 2 }}
        ownLevels={new Set(["ask:102", "bid:98"])}
        ascii
      />,
    );
    const lines = screen.lastFrame().split("\n");
    expect(lines[3]).toMatch(/102\.00\s+2\.50\s+255\.00<$/);
    expect(lines[4]).toMatch(/>101\.00\s+1\.50\s+151\.50\s*$/);
    expect(lines[7]).toMatch(/98\.00\s+2\.00\s+196\.00<$/);
    expect(screen.lastFrame()).toContain("Sum 1 asks: 1.50 BTC - 151.50 USDT");
    expect(screen.lastFrame()).not.toMatch(/[▸◂Σ·]/);
  });

  it("never cuts a level's price or amount to fewer decimals than the book sent", () => {
    const book = sampleBook();
    book.applyDelta("ask", "101.25", "0.125");
    screen = render(
      <OrderBook
        view={buildBookView(book, 5)}
        pair="BTC/USDT"
        rowsPerSide={4}
        width={40}
        feedState="live"
        selection={undefined}
        focused
        decimals={{ priceDecimals: 0, amountDecimals: 0 }}
      />,
    );
    const frame = screen.lastFrame();
    expect(frame).toMatch(/101\.25\s+0\.125\s+12\.65/);
    expect(frame).toMatch(/103\.00\s+4\.000\s+412\.00/);
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
