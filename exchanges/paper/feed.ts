import { Decimal } from "../../lib/decimal.js";
import type { Logger } from "../../lib/log.js";
import { OrderBook } from "../../lib/orderbook.js";
import type { BookLevel } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";
import type { BookFeed, FeedOptions, FeedState } from "../types.js";
import { BOOK_LEVELS, bucketOf, resolveSeed, type SyntheticMarket, syntheticMarket } from "./market.js";
import { paperPair } from "./pairs.js";
import type { PaperState } from "./state.js";
import { defaultDataDir, paperAccountMark, paperStateFile, readPaperAccount } from "./store.js";

export interface PaperFeedOptions extends FeedOptions {
  /** the market's seed; the adapter's default when absent, so the book shown is the one that fills */
  seed?: string;
  /** how often the feed looks at the clock; the book itself moves once per second. 250 ms. */
  intervalMs?: number;
  /**
   * A paper account (in `dataDir`) whose own open orders are shown in the book at their prices,
   * as a trader sees their orders on a real exchange's book.
   */
  account?: string;
}

export const PAPER_FEED_INTERVAL_MS = 250;

/**
 * paper's order-book feed: a full snapshot of the synthetic market whenever its second changes
 * (the "full snapshot in every message" kind of feed of docs/exchange-rules.md#states). There is no socket, so
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
  private shownKey = "";
  private readonly stateFile: string | undefined;
  private readonly logger: Logger | undefined;
  private readonly stateListeners = new Set<(state: FeedState) => void>();
  private readonly changeListeners = new Set<() => void>();

  constructor(pair: string, options: PaperFeedOptions) {
    const spec = paperPair(pair);
    this.pair = spec.pair;
    this.market = syntheticMarket(spec, resolveSeed(options.seed));
    this.depth = Math.max(1, Math.min(options.depth ?? CATALOGUE.paper.depth, BOOK_LEVELS));
    this.now = options.now ?? Date.now;
    this.intervalMs = options.intervalMs ?? PAPER_FEED_INTERVAL_MS;
    this.logger = options.logger;
    if (options.account !== undefined)
      this.stateFile = paperStateFile(options.dataDir ?? defaultDataDir(), options.account);
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
    if (this.changeKey(this.now()) !== this.shownKey) this.snapshot();
  }

  /** The book changes when the market's second does, or when the account's files do. */
  private changeKey(at: number): string {
    let written = "";
    if (this.stateFile) {
      try {
        written = paperAccountMark(this.stateFile);
      } catch {
        // unreadable: shown as no account
      }
    }
    return `${bucketOf(at)}|${written}`;
  }

  private snapshot(): void {
    const at = this.now();
    this.shownKey = this.changeKey(at);
    const bucket = bucketOf(at);
    const bids = new Map(this.market.levels("bid", bucket, this.depth));
    const asks = new Map(this.market.levels("ask", bucket, this.depth));
    if (this.stateFile) this.addOwnOrders(bucket, bids, asks);
    const toLevels = (side: Map<number, number>, descending: boolean): BookLevel[] =>
      [...side.entries()]
        .sort((x, y) => (descending ? y[0] - x[0] : x[0] - y[0]))
        .slice(0, this.depth)
        .map(([ticks, lots]) => [this.market.price(ticks), this.market.amount(lots)]);
    this.book.applySnapshot(toLevels(bids, true), toLevels(asks, false));
    for (const listener of this.changeListeners) listener();
  }

  /**
   * Adds the account's open orders of this pair, read without the lock (store.ts readPaperAccount).
   * An order the synthetic market crosses now is left out: the next operation on the account fills it.
   */
  private addOwnOrders(bucket: number, bids: Map<number, number>, asks: Map<number, number>): void {
    const file = this.stateFile as string;
    let state: PaperState | undefined;
    try {
      state = readPaperAccount(file);
    } catch (error) {
      this.logger?.warn("paper feed: cannot show own orders", { error: String(error) });
      return;
    }
    if (!state) return;
    const bestBid = this.market.bestBidTicks(bucket);
    const bestAsk = this.market.bestAskTicks(bucket);
    for (const order of state.orders) {
      if (order.status !== "open" || order.pair !== this.pair) continue;
      const ticks = this.market.ticksOf(order.price);
      const lots = this.market.lotsOf(new Decimal(order.amount).minus(order.filled));
      if (order.side === "Buy" && ticks < bestAsk) bids.set(ticks, (bids.get(ticks) ?? 0) + lots);
      if (order.side === "Sell" && ticks > bestBid) asks.set(ticks, (asks.get(ticks) ?? 0) + lots);
    }
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
