import type { Logger } from "../../lib/log.js";
import { silentLogger } from "../../lib/log.js";
import { OrderBook } from "../../lib/orderbook.js";
import type { BookLevel, ExchangeId } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";
import type { BookFeed, FeedState } from "../types.js";
import { FEED_DEFAULTS, type FeedRuntimeOptions, type FetchJson, feedFetchJson } from "./options.js";

/**
 * A feed that polls a public REST order book (docs/exchange-rules.md#states: "Polling is used only for bitteam, or
 * when a manual refresh is pressed"). A failed poll is logged only (docs/exchange-rules.md#states); the book keeps
 * its last good copy and is marked stale once it is older than staleAfterMs.
 */
export abstract class PollingFeed implements BookFeed {
  readonly exchange: ExchangeId;
  readonly pair: string;
  readonly book = new OrderBook();
  readonly depth: number;
  readonly stats = { polls: 0, failures: 0 };

  protected readonly options: FeedRuntimeOptions;
  protected readonly log: Logger;
  protected readonly fetchJson: FetchJson;

  private currentState: FeedState = "closed";
  private readonly stateListeners = new Set<(state: FeedState) => void>();
  private readonly changeListeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private inFlight: Promise<void> | undefined;
  private lastGoodAt = 0;

  constructor(exchange: ExchangeId, pair: string, options: FeedRuntimeOptions) {
    this.exchange = exchange;
    this.pair = pair;
    this.options = options;
    this.depth = options.depth && options.depth > 0 ? Math.floor(options.depth) : CATALOGUE[exchange].depth;
    this.log = options.logger ?? silentLogger;
    this.fetchJson = feedFetchJson(exchange, options);
  }

  /** Fetches and parses one full book; throws on any failure. */
  protected abstract fetchBook(): Promise<{ bids: BookLevel[]; asks: BookLevel[] }>;

  get state(): FeedState {
    return this.currentState;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.setState("connecting");
    this.loop();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.setState("closed");
  }

  /** One poll now; concurrent calls share the request in flight. */
  refresh(): Promise<void> {
    this.inFlight ??= this.poll().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  onState(listener: (state: FeedState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private loop(): void {
    if (!this.running) return;
    void this.refresh().then(() => {
      if (!this.running) return;
      this.timer = setTimeout(() => this.loop(), this.options.pollIntervalMs ?? FEED_DEFAULTS.pollIntervalMs);
    });
  }

  private async poll(): Promise<void> {
    this.stats.polls++;
    try {
      const { bids, asks } = await this.fetchBook();
      if (!this.running) return;
      this.book.applySnapshot(bids, asks);
      this.lastGoodAt = Date.now();
      this.setState("live");
      for (const listener of this.changeListeners) this.safely(listener);
    } catch (error) {
      this.stats.failures++;
      this.log.warn("feed poll failed", {
        exchange: this.exchange,
        pair: this.pair,
        error: (error as Error).message ?? String(error),
      });
      const staleAfter = this.options.staleAfterMs ?? FEED_DEFAULTS.staleAfterMs;
      if (this.running && this.currentState === "live" && Date.now() - this.lastGoodAt >= staleAfter)
        this.setState("stale");
    }
  }

  private setState(state: FeedState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    for (const listener of this.stateListeners) this.safely(() => listener(state));
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log.error("feed listener threw", { exchange: this.exchange, error: (error as Error).message });
    }
  }
}
