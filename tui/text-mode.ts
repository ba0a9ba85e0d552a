import type { BookFeed } from "../exchanges/types.js";
import { type BookView, buildBookView, EMPTY_BOOK_VIEW } from "./book-view.js";
import { formatAmount, formatPrice, formatSpreadPercent, formatUtcTimestamp } from "./format.js";
import { BOOK_REFRESH_MS } from "./hooks/useBookFeed.js";

export interface TextModeOptions {
  feed: BookFeed;
  out: NodeJS.WritableStream;
  /** levels per side in each frame */
  depth?: number;
  refreshMs?: number;
  /** stop after this many frames (tests) */
  maxFrames?: number;
  /** stops the loop when it aborts (SIGINT, SIGTERM, stdin end) */
  signal?: AbortSignal;
  now?: () => number;
}

/** One frame of the book as plain lines: a heading, asks (worst first), the middle row, bids. */
export function bookText(view: BookView, heading: string): string {
  const line = (side: string, r: { price: string; amount: string; total: string }) =>
    `${side} ${formatPrice(r.price).padStart(14)} ${formatAmount(r.amount).padStart(12)} ${formatAmount(r.total).padStart(12)}`;
  const lines = [heading, `${"".padEnd(4)}${"Price".padStart(14)} ${"Amount".padStart(12)} ${"Total".padStart(12)}`];
  for (const r of [...view.asks].reverse()) lines.push(line("ask", r));
  lines.push(
    view.mid === undefined
      ? "--- no quotes yet"
      : `--- ${formatPrice(view.mid)} ${view.spread === undefined ? "" : formatSpreadPercent(view.spread)}`,
  );
  for (const r of view.bids) lines.push(line("bid", r));
  return `${lines.join("\n")}\n\n`;
}

/**
 * Without a terminal (CI, a pipe) the TUI prints the live book as text: a frame every refresh in
 * which the book changed, until `signal` aborts or `maxFrames` frames were printed.
 */
export async function runTextMode(options: TextModeOptions): Promise<number> {
  const { feed, out } = options;
  const depth = options.depth ?? 10;
  const now = options.now ?? Date.now;
  let previous: BookView = EMPTY_BOOK_VIEW;
  let frames = 0;
  return new Promise<number>((resolve) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const finish = () => {
      if (timer !== undefined) clearInterval(timer);
      options.signal?.removeEventListener("abort", finish);
      resolve(0);
    };
    const tick = () => {
      if (feed.book.version === previous.version) return;
      previous = buildBookView(feed.book, depth, previous);
      if (previous.asks.length + previous.bids.length === 0) return;
      frames++;
      out.write(bookText(previous, `${feed.exchange} ${feed.pair} ${feed.state} ${formatUtcTimestamp(now())}`));
      if (options.maxFrames !== undefined && frames >= options.maxFrames) finish();
    };
    if (options.signal?.aborted) return finish();
    options.signal?.addEventListener("abort", finish);
    timer = setInterval(tick, options.refreshMs ?? BOOK_REFRESH_MS);
    tick();
  });
}
