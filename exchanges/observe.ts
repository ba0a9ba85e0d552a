/**
 * What a long-running process watches of the exchange layer (docs/operations.md#metrics): every
 * call of an adapter opened with `openAccount` (venue, operation, seconds, its result or error)
 * and every feed built by `createFeed` (venue, pair, state, when its book last changed).
 *
 * Nothing is watched until a process asks (`watchExchangeCalls`, `watchFeeds`): the CLI and the
 * TUI never do, and their adapters and feeds stay as they were. The watchers are per process, so
 * several servers in one process (tests) each see every call of that process.
 */
import type { ExchangeId } from "../lib/types.js";
import type { BookFeed, ExchangeAdapter, FeedState } from "./types.js";

export interface ExchangeCall {
  exchange: ExchangeId;
  /** the adapter's method: createOrder, cancelOrder, fetchBalances … */
  operation: string;
  seconds: number;
  /** the call's answer when it succeeded */
  result?: unknown;
  /** the call's error when it failed */
  error?: unknown;
}

type CallWatcher = (call: ExchangeCall) => void;
const callWatchers = new Set<CallWatcher>();

/** The adapter's operations that go to the exchange (close and the countdown's rule do not). */
const OPERATIONS = new Set([
  "createOrder",
  "createBatch",
  "cancelOrder",
  "cancelBatch",
  "cancelAll",
  "cancelAllAfter",
  "fetchOrder",
  "fetchOpenOrders",
  "fetchBalances",
  "fetchPairs",
  "findOrderByClientOrderId",
]);

/** Calls `watcher` after every exchange call of an adapter opened from now on; returns the way to stop. */
export function watchExchangeCalls(watcher: CallWatcher): () => void {
  callWatchers.add(watcher);
  return () => callWatchers.delete(watcher);
}

function report(call: ExchangeCall): void {
  for (const watcher of callWatchers) {
    try {
      watcher(call);
    } catch {
      // a watcher's failure is its own; the call's answer is the caller's
    }
  }
}

/** The adapter itself when nobody watches; else the same adapter whose calls are timed and reported. */
export function observedAdapter(adapter: ExchangeAdapter): ExchangeAdapter {
  if (callWatchers.size === 0) return adapter;
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      if (typeof name !== "string" || !OPERATIONS.has(name)) return value.bind(target);
      return async (...args: unknown[]) => {
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        try {
          const result: unknown = await value.apply(target, args);
          report({ exchange: target.id, operation: name, seconds: seconds(), result });
          return result;
        } catch (error) {
          report({ exchange: target.id, operation: name, seconds: seconds(), error });
          throw error;
        }
      };
    },
  });
}

export interface WatchedFeed {
  readonly exchange: ExchangeId;
  readonly pair: string;
  readonly state: FeedState;
  /** ms since the epoch: the book's last change, or when the feed was built before any */
  readonly updatedAt: number;
}

interface Tracked {
  feed: BookFeed;
  updatedAt: number;
  stop: () => void;
}

let feedWatchers = 0;
const feeds = new Set<Tracked>();

/** Keeps the feeds built from now on, until they close, for `watchedFeeds`; returns the way to stop. */
export function watchFeeds(): () => void {
  feedWatchers++;
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--feedWatchers > 0) return;
    for (const tracked of feeds) tracked.stop();
    feeds.clear();
  };
}

/** The open feeds built while someone watches. */
export function watchedFeeds(): WatchedFeed[] {
  return [...feeds].map(({ feed, updatedAt }) => ({
    exchange: feed.exchange,
    pair: feed.pair,
    state: feed.state,
    updatedAt,
  }));
}

/** createFeed's hook: the feed itself, tracked while someone watches and until it closes. */
export function trackFeed<F extends BookFeed>(feed: F): F {
  if (feedWatchers === 0) return feed;
  const tracked: Tracked = { feed, updatedAt: Date.now(), stop: () => {} };
  const offChange = feed.onChange(() => {
    tracked.updatedAt = Date.now();
  });
  const offState = feed.onState((state) => {
    if (state === "closed") tracked.stop();
  });
  tracked.stop = () => {
    offChange();
    offState();
    feeds.delete(tracked);
  };
  feeds.add(tracked);
  return feed;
}
