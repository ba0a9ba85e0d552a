import { EXCHANGES } from "../../lib/exchanges.js";
import { OrderBook } from "../../lib/orderbook.js";
import type { BookFeed, FeedOptions, FeedState } from "../types.js";
import { BOOK_LEVELS, bucketOf, resolveSeed, type SyntheticMarket, syntheticMarket } from "./market.js";
import { paperPair } from "./pairs.js";

export interface PaperFeedOptions extends FeedOptions {
  /** the market's seed; the adapter's default when absent, so the book shown is the one that fills */
  seed?: string;
  /** how often the feed looks at the clock; the book itself moves once per second. 250 ms. */
  intervalMs?: number;
}

export const PAPER_FEED_INTERVAL_MS = 250;

/**
 * paper's order-book feed: a full snapshot of the synthetic market whenever its second changes
 * (the "full snapshot in every message" kind of feed of seed 001 §4). There is no socket, so
 * `connecting` lasts until the first snapshot, taken at start.
 */
class PaperFeed implements BookFeed {
  readonly exchange = "paper" as const;
  readonly pair: string;
  readonly book = new OrderBook();
  private currentState: FeedState = "connecting";
  private readonly market: SyntheticMarket;
  private readonly depth: number;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private shownBucket = Number.NaN;
  private readonly stateListeners = new Set<(state: FeedState) => void>();
  private readonly changeListeners = new Set<() => void>();

  constructor(pair: string, options: PaperFeedOptions) {
    const spec = paperPair(pair);
    this.pair = spec.pair;
    this.market = syntheticMarket(spec, resolveSeed(options.seed));
    this.depth = Math.max(1, Math.min(options.depth ?? EXCHANGES.paper.depth, BOOK_LEVELS));
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? PAPER_FEED_INTERVAL_MS;
  }

  get state(): FeedState {
    return this.currentState;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.setState("connecting");
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.snapshot();
    this.setState("live");
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.setState("closed");
  }

  async refresh(): Promise<void> {
    this.snapshot();
  }

  onState(listener: (state: FeedState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private tick(): void {
    if (bucketOf(this.now()) !== this.shownBucket) this.snapshot();
  }

  private snapshot(): void {
    const at = this.now();
    const { bids, asks } = this.market.book(at, this.depth);
    this.shownBucket = bucketOf(at);
    this.book.applySnapshot(bids, asks);
    for (const listener of this.changeListeners) listener();
  }

  private setState(state: FeedState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    for (const listener of this.stateListeners) listener(state);
  }
}

/** The live book of a paper pair (an unknown pair is a bad-input error naming the known ones). */
export function createPaperFeed(pair: string, options: PaperFeedOptions = {}): BookFeed {
  return new PaperFeed(pair, options);
}
