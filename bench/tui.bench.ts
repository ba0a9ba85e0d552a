/**
 * TUI frame cost (issue 5): one order-book refresh with 50 levels a side — build the view
 * (top 50, cumulative rows, flash diff) and let Ink re-render and write the panel. Target: under
 * 5 ms a frame, so the 500 ms refresh of docs/dashboard-rules.md#constants leaves the CPU idle.
 *
 * Colours are on, as in the trader's terminal: Ink styles every character it writes, so a frame
 * without them (a pipe, NO_COLOR) costs about half. Set FORCE_COLOR=0 to measure that case.
 */
import { EventEmitter } from "node:events";
import { OrderBook } from "../lib/orderbook.js";
import { TerminalStdin } from "../test/tui/null-terminal.js";
import { type BookView, buildBookView, EMPTY_BOOK_VIEW } from "../tui/book-view.js";
import { type BenchResult, median } from "./index.js";

const LEVELS = 50;

class NullStdout extends EventEmitter {
  columns = 60;
  rows = 120;
  isTTY = true;
  writes = 0;
  bytes = 0;
  coloured = false;
  write = (chunk: string): boolean => {
    this.writes++;
    this.bytes += chunk.length;
    if (!this.coloured && chunk.includes("\u001b[3")) this.coloured = true;
    return true;
  };
}

function seededBook(): OrderBook {
  const book = new OrderBook();
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let i = 0; i < LEVELS; i++) {
    bids.push([(65000 - i * 0.5).toFixed(2), (0.001 + ((i * 7919) % 1000) / 1000).toFixed(6)]);
    asks.push([(65000.5 + i * 0.5).toFixed(2), (0.001 + ((i * 104729) % 1000) / 1000).toFixed(6)]);
  }
  book.applySnapshot(bids, asks);
  return book;
}

/** whether the frames measured last carried colour codes (chalk decides once, from the environment) */
let colours = false;

interface FrameCost {
  median: number;
  p95: number;
}

type Modules = [
  typeof import("ink"),
  typeof import("react"),
  typeof import("../tui/components/OrderBook.js"),
  typeof import("../tui/theme.js"),
];

/** Times `frames` refreshes of the book panel: a change to the 50-level book, the view, Ink's render and write. */
function measure(
  [{ render }, { createElement }, { OrderBook: OrderBookPanel }, { createTheme, ThemeContext }]: Modules,
  frames: number,
  rowsPerSide: number,
  width: number,
): FrameCost {
  const book = seededBook();
  const stdout = new NullStdout();
  stdout.columns = width;
  stdout.rows = rowsPerSide * 2 + 10;
  const panel = (view: BookView) =>
    createElement(
      ThemeContext.Provider,
      { value: createTheme(false) },
      createElement(OrderBookPanel, {
        view,
        pair: "BTC/USDT",
        rowsPerSide,
        width,
        feedState: "live",
        selection: { side: "ask", index: Math.min(10, rowsPerSide - 1) },
        focused: true,
      }),
    );
  let view = buildBookView(book, rowsPerSide, EMPTY_BOOK_VIEW);
  // debug mode writes every commit synchronously: the timing covers React, Yoga layout and output
  const instance = render(panel(view), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: new TerminalStdin() as unknown as NodeJS.ReadStream,
    debug: true,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  const update = (i: number) => {
    // a refresh's worth of change: levels move near the touch and one deep level changes
    book.applyDelta(
      i % 2 ? "bid" : "ask",
      (i % 2 ? 65000 - (i % 5) * 0.5 : 65000.5 + (i % 5) * 0.5).toFixed(2),
      ((i % 97) / 100 + 0.01).toFixed(6),
    );
    book.applyDelta("bid", (65000 - 40 * 0.5).toFixed(2), ((i % 13) / 10 + 0.1).toFixed(6));
    view = buildBookView(book, rowsPerSide, view);
    instance.rerender(panel(view));
  };
  for (let i = 0; i < 100; i++) update(i); // warm-up
  const writesBefore = stdout.writes;
  const times: number[] = [];
  for (let i = 0; i < frames; i++) {
    const t0 = performance.now();
    update(i);
    times.push(performance.now() - t0);
  }
  const written = stdout.writes - writesBefore;
  colours = stdout.coloured;
  instance.unmount();
  instance.cleanup();
  if (written < frames) throw new Error(`tui bench: only ${written} of ${frames} frames were written`);
  times.sort((a, b) => a - b);
  return { median: median(times), p95: times[Math.floor(times.length * 0.95)] ?? median(times) };
}

export async function run(): Promise<BenchResult[]> {
  const frames = Number(process.env.BENCH_TUI_FRAMES ?? 300);
  // React's development build is several times slower; the TUI runs with the production one
  // (tui/index.ts sets it the same way before loading React)
  process.env.NODE_ENV ??= "production";
  // chalk reads this when Ink first loads it: a piped `npm run bench` measures the terminal's case
  process.env.FORCE_COLOR ??= "1";
  const modules: Modules = await Promise.all([
    import("ink"),
    import("react"),
    import("../tui/components/OrderBook.js"),
    import("../tui/theme.js"),
  ]);
  const { bookRowsPerSide } = await import("../tui/app.js");
  // a 120x40 terminal shows 16 levels a side in a 55-column book (tui/app.tsx layout)
  const shown = measure(modules, frames, bookRowsPerSide(40, false), 55);
  // every one of the 50 levels a side drawn (a terminal over 100 lines tall)
  const all = measure(modules, frames, LEVELS, 60);
  return [
    {
      name: "tui: 50-level book update, frame at 120x40",
      unit: "ms/frame",
      better: "lower",
      value: Number(shown.median.toFixed(3)),
      target: 5,
      detail: `${frames} frames (delta, view, Ink render and write), median, 16 rows a side drawn, colours ${colours ? "on" : "off"}, p95 ${shown.p95.toFixed(3)} ms`,
    },
    {
      name: "tui: 50-level book update, all 50 levels a side drawn",
      unit: "ms/frame",
      better: "lower",
      value: Number(all.median.toFixed(3)),
      target: 5,
      detail: `${frames} frames, median, 104 lines x 60 columns, colours ${colours ? "on" : "off"}; Ink re-tokenizes and re-styles every written character each frame, p95 ${all.p95.toFixed(3)} ms`,
    },
  ];
}

// `tsx bench/tui.bench.ts` runs it alone
if (import.meta.url === `file://${process.argv[1]}`) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
