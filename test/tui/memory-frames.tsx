/**
 * Child process of test/tui/memory.test.tsx and bench/soak.bench.ts (issue 24): renders many
 * distinct order-book frames through the real Ink renderer into a fake terminal and prints the
 * heap left after forced collections before and after them, as one JSON line.
 *
 *     node --expose-gc --import tsx test/tui/memory-frames.tsx [frames] [warmup] [rowsPerSide] [width]
 *
 * Every frame changes levels to amounts never drawn before and the mid price wanders, as a busy
 * market does all week: before issue 24, Ink kept every such text for ever (docs/tui-memory.md).
 */
import { render } from "ink";
import { OrderBook as Book } from "../../lib/orderbook.js";
import { buildBookView, EMPTY_BOOK_VIEW } from "../../tui/book-view.js";
import { OrderBook } from "../../tui/components/OrderBook.js";
import { createTheme, ThemeContext } from "../../tui/theme.js";
import { nullTerminal, settledHeap, turn } from "./null-terminal.js";

const [frames = 6000, warmup = 2000, rowsPerSide = 16, width = 60] = process.argv.slice(2).map(Number);

const book = new Book();
const LEVELS = 40;
let mid = 65_000;
const snapshot = () => {
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let i = 0; i < LEVELS; i++) {
    bids.push([(mid - 0.5 - i * 0.5).toFixed(1), (0.5 + i / 7).toFixed(4)]);
    asks.push([(mid + 0.5 + i * 0.5).toFixed(1), (0.5 + i / 11).toFixed(4)]);
  }
  book.applySnapshot(bids, asks);
};
snapshot();

const theme = createTheme(false);
const tree = (view: ReturnType<typeof buildBookView>, frame: number) => (
  <ThemeContext.Provider value={theme}>
    <OrderBook
      view={view}
      pair="BTC/USDT"
      rowsPerSide={rowsPerSide}
      width={width}
      feedState="live"
      selection={frame % 3 === 0 ? { side: frame % 2 ? "ask" : "bid", index: frame % 5 } : undefined}
      focused
    />
  </ThemeContext.Provider>
);

let view = buildBookView(book, rowsPerSide, EMPTY_BOOK_VIEW);
const { stdout, options } = nullTerminal(width, rowsPerSide * 2 + 10);
const instance = render(tree(view, 0), options);

let serial = 0;
const step = (frame: number) => {
  // every 40 frames the market moves a tick and a fresh snapshot comes in
  if (frame % 40 === 0) {
    mid += (frame / 40) % 7 < 4 ? 0.5 : -0.5;
    snapshot();
  }
  // sixteen levels a frame change to an amount no frame has drawn before
  for (let k = 0; k < 16; k++) {
    serial++;
    const side = k % 2 ? "ask" : "bid";
    const depth = (frame * 7 + k * 3) % rowsPerSide;
    const price = side === "ask" ? mid + 0.5 + depth * 0.5 : mid - 0.5 - depth * 0.5;
    book.applyDelta(side, price.toFixed(1), (serial / 1e6 + depth).toFixed(6));
  }
  view = buildBookView(book, rowsPerSide, view);
  instance.rerender(tree(view, frame));
};

for (let f = 0; f < warmup; f++) {
  step(f);
  await turn();
}
// the heap after collections at the start, every tenth of the run and at the end
const samples: [frame: number, heap: number][] = [[0, settledHeap()]];
const every = Math.max(1, Math.floor(frames / 10));
const started = performance.now();
let drawing = 0;
for (let n = 1; n <= frames; n++) {
  const t0 = performance.now();
  step(warmup + n);
  drawing += performance.now() - t0;
  await turn();
  if (n % every === 0 || n === frames) samples.push([n, settledHeap()]);
}
const elapsed = performance.now() - started;
instance.unmount();
instance.cleanup();

/** Least-squares slope of the samples, in bytes a frame: the trend, not one collection's noise. */
function slope(points: readonly [number, number][]): number {
  const mx = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const perFrame = slope(samples);
process.stdout.write(
  `${JSON.stringify({
    frames,
    warmup,
    rowsPerSide,
    width,
    startHeap: samples[0]?.[1],
    endHeap: samples.at(-1)?.[1],
    trendBytes: Math.round(perFrame * frames),
    bytesPerFrame: Number(perFrame.toFixed(1)),
    msPerFrame: Number((drawing / frames).toFixed(3)),
    elapsedMs: Math.round(elapsed),
    bytesWritten: stdout.bytes,
    samples,
  })}\n`,
);
