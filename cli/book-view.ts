/** The `book` command's work: read a feed, print snapshots (docs/exchange-rules.md#states "Public order-book feeds"). */

import { CATALOGUE } from "../exchanges/catalogue.js";
import type { BookFeed, FeedState } from "../exchanges/types.js";
import { Decimal } from "../lib/decimal.js";
import { ExchangeError } from "../lib/errors.js";
import { formatSpread, formatUtcTimestamp } from "../lib/format.js";
import type { BookLevel, ExchangeId } from "../lib/types.js";
import type { Context } from "./context.js";
import { openBookFeed } from "./exchange.js";
import { type Cell, cursorControl, paint } from "./output.js";

/** docs/exchange-rules.md#states: "The user interface refreshes from the buffer every 500 ms, only when the buffer is non-empty." */
export const REFRESH_MS = 500;
/** How long a snapshot waits for the first book before giving up. */
export const FIRST_BOOK_TIMEOUT_MS = 10_000;

export interface BookSnapshotJson {
  exchange: ExchangeId;
  pair: string;
  ts: number;
  /** best first: bids descending, asks ascending; [price, amount] as decimal strings */
  bids: BookLevel[];
  asks: BookLevel[];
  /** only in the --watch stream */
  state?: FeedState;
}

export function snapshotOf(feed: BookFeed, depth: number, ts: number): BookSnapshotJson {
  const { bids, asks } = feed.book.top(depth);
  return { exchange: feed.exchange, pair: feed.pair, ts, bids, asks };
}

/** Asks on top (best ask nearest the middle), the mid row with the spread, bids below. */
export function renderBook(
  snapshot: BookSnapshotJson,
  state: FeedState | undefined,
  color: boolean,
  mid?: string,
  spread?: string,
): string {
  const rows: { cells: string[]; style?: "red" | "green" | "dim" }[] = [];
  for (const [price, amount] of [...snapshot.asks].reverse()) {
    rows.push({ cells: [price, amount, new Decimal(price).times(amount).toFixed()], style: "red" });
  }
  rows.push({ cells: [mid ?? "-", spread === undefined ? "" : formatSpread(spread, 3), ""], style: "dim" });
  for (const [price, amount] of snapshot.bids) {
    rows.push({ cells: [price, amount, new Decimal(price).times(amount).toFixed()], style: "green" });
  }
  const headers = ["Price", "Amount", "Total"];
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r.cells[i] ?? "").length)));
  const line = (cells: Cell[], style?: "red" | "green" | "dim" | "bold") =>
    paint(cells.map((c, i) => (typeof c === "string" ? c : c.text).padStart(widths[i] ?? 0)).join("  "), style, color);
  const title = `${CATALOGUE[snapshot.exchange].name} ${snapshot.pair}  ${formatUtcTimestamp(snapshot.ts)}${state ? `  [${state}]` : ""}`;
  return [title, line(headers, "bold"), ...rows.map((r) => line(r.cells, r.style))].join("\n");
}

/** Resolves when the feed has something to show on both sides, or fails after the time-out. */
export function firstBook(feed: BookFeed, timeoutMs: number): Promise<void> {
  const ready = () => feed.book.bidCount > 0 || feed.book.askCount > 0;
  if (ready()) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      offChange();
      offState();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () =>
        done(
          new ExchangeError(
            feed.exchange,
            `No order book for ${feed.pair} within ${timeoutMs / 1000} s (feed ${feed.state})`,
            { kind: "network" },
          ),
        ),
      timeoutMs,
    );
    const offChange = feed.onChange(() => {
      if (ready()) done();
    });
    const offState = feed.onState((state) => {
      if (state === "closed")
        done(
          new ExchangeError(feed.exchange, `The feed of ${feed.pair} closed before the first book`, {
            kind: "network",
          }),
        );
    });
  });
}

export interface ShowBookOptions {
  watch: boolean;
  depth?: number;
  /** with watch: stop after this many refreshes */
  updates?: number;
}

export async function showBook(ctx: Context, id: ExchangeId, pair: string, options: ShowBookOptions): Promise<void> {
  const depth = options.depth ?? CATALOGUE[id].depth;
  const feed = await openBookFeed(ctx, id, pair, depth);
  const out = ctx.out;
  const clearScreen = !out.json && options.watch && cursorControl(process.stdout);
  const print = (state: FeedState | undefined) => {
    const snapshot = snapshotOf(feed, depth, ctx.now());
    if (out.json) {
      if (state === undefined) out.document(snapshot);
      else out.line({ ...snapshot, state });
      return;
    }
    const text = renderBook(snapshot, state, out.color, feed.book.midPrice(), feed.book.spreadPercent(3));
    out.text(clearScreen ? `\x1b[H\x1b[2J${text}` : `${text}\n`);
  };
  try {
    feed.start();
    out.progress(`${pair}: connecting…`);
    await firstBook(feed, FIRST_BOOK_TIMEOUT_MS);
    out.clearProgress();
    if (!options.watch) return print(undefined);
    const signal = await watch(feed, options.updates, print, (state) => out.progress(`${pair}: ${state}`));
    if (signal !== undefined) {
      // docs/cli.md "Exit codes": Ctrl-C or SIGTERM ends the stream with a final line and the
      // shell's code for the signal (130, 143), so a script can tell it was stopped.
      feed.stop();
      out.clearProgress();
      if (out.json) out.line({ ...snapshotOf(feed, depth, ctx.now()), state: feed.state });
      else out.text(`Stopped by ${signal} at ${formatUtcTimestamp(ctx.now())}`);
      process.exitCode = SIGNAL_EXIT_CODES[signal];
    }
  } finally {
    out.clearProgress();
    feed.stop();
  }
}

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/**
 * Prints on every 500 ms tick where the book or the feed state moved; ends on Ctrl-C, SIGTERM or
 * after N refreshes. Resolves with the signal that stopped it, if one did.
 */
function watch(
  feed: BookFeed,
  updates: number | undefined,
  print: (state: FeedState) => void,
  onState: (state: FeedState) => void,
): Promise<StopSignal | undefined> {
  return new Promise<StopSignal | undefined>((resolve) => {
    let printed = 0;
    let lastVersion = -1;
    let lastState: FeedState | undefined;
    const stop = (signal?: StopSignal) => {
      clearInterval(timer);
      offState();
      process.off("SIGINT", onInterrupt);
      process.off("SIGTERM", onTerminate);
      resolve(signal);
    };
    const onInterrupt = () => stop("SIGINT");
    const onTerminate = () => stop("SIGTERM");
    const tick = () => {
      if (feed.book.version === lastVersion && feed.state === lastState) return;
      lastVersion = feed.book.version;
      lastState = feed.state;
      print(feed.state);
      printed += 1;
      if (updates !== undefined && printed >= updates) stop();
    };
    const offState = feed.onState((state) => {
      onState(state);
      if (state === "closed") {
        tick();
        stop();
      }
    });
    const timer = setInterval(tick, REFRESH_MS);
    process.once("SIGINT", onInterrupt);
    process.once("SIGTERM", onTerminate);
    tick();
  });
}
