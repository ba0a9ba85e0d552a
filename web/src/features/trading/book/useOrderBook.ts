import { useCallback, useEffect, useRef, useState } from "react";
import { CATALOGUE } from "../../../../../exchanges/catalogue.js";
import { type BookFeedState, type BookStaleness, bookStaleness } from "../../../../../lib/order-checks.js";
import type { OrderBook } from "../../../../../lib/orderbook.js";
import { isExchangeId } from "../../../../../lib/types.js";
import { useServerStatus } from "../../../app/server-status";
import { EMPTY_VIEW, takeView, type WebBookView } from "./book-view";
import { createDirectFeed, hasDirectFeed } from "./direct-feed";
import { DIRECT_GRACE_MS, RelayBookFeed } from "./feed";

/** Why a live feed's book is not traded on while the server does not answer. */
export const SERVER_SILENT = "the server does not answer";

/** docs/dashboard-rules.md#constants "Order book UI refresh": 500 ms, redrawn only when the book changed. */
export const BOOK_REFRESH_MS = 500;

interface FeedLike {
  readonly book: OrderBook;
  readonly state: BookFeedState;
  readonly sourceVersion?: number | undefined;
  start(): void;
  stop(): void;
  refresh(): Promise<void>;
  onState(listener: (state: BookFeedState) => void): () => void;
}

export interface OrderBookState {
  view: WebBookView;
  state: BookFeedState;
  /** set while the book is not live: since when and why (docs/web-trading.md "Stale book") */
  staleness: BookStaleness | undefined;
  source: "direct" | "relay" | undefined;
  /** docs/exchange-rules.md#states: the manual refresh */
  refresh(): Promise<void>;
}

interface Health {
  state: BookFeedState;
  since: number;
  cause: BookFeedState;
  wasLive: boolean;
}

function depthOf(exchange: string): number {
  return isExchangeId(exchange) ? CATALOGUE[exchange].depth : 20;
}

/**
 * The live book of one pair (docs/dashboard-rules.md#states "Order book"): cleared and resubscribed on a pair or
 * exchange change; the view is taken every 500 ms only when `book.version` moved.
 */
export function useOrderBook(exchange: string, pair: string | undefined, refreshMs = BOOK_REFRESH_MS): OrderBookState {
  const [view, setView] = useState<WebBookView>(EMPTY_VIEW);
  const [health, setHealth] = useState<Health>(() => ({
    state: "connecting",
    since: Date.now(),
    cause: "connecting",
    wasLive: false,
  }));
  const [source, setSource] = useState<"direct" | "relay" | undefined>(undefined);
  const feedRef = useRef<FeedLike | undefined>(undefined);

  useEffect(() => {
    setView(EMPTY_VIEW);
    setSource(undefined);
    setHealth({ state: "connecting", since: Date.now(), cause: "connecting", wasLive: false });
    if (!pair) return;
    const depth = depthOf(exchange);
    let cancelled = false;
    let feed: FeedLike | undefined;
    let unState: (() => void) | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    let shownVersion = -1;

    const onState = (state: BookFeedState) =>
      setHealth((h) => {
        if (state === h.state) return h;
        if (state === "live") return { state, since: h.since, cause: state, wasLive: true };
        if (h.state === "live") return { state, since: Date.now(), cause: state, wasLive: h.wasLive };
        return { ...h, state };
      });
    const attach = (next: FeedLike, kind: "direct" | "relay") => {
      unState?.();
      feed?.stop();
      feed = next;
      feedRef.current = next;
      shownVersion = -1;
      setSource(kind);
      unState = next.onState(onState);
      next.start();
      onState(next.state);
    };
    const toRelay = () => {
      if (cancelled) return;
      attach(new RelayBookFeed(exchange, pair, depth), "relay");
    };
    if (hasDirectFeed(exchange)) {
      createDirectFeed(exchange, pair)
        .then((direct) => {
          if (cancelled) return;
          attach(direct, "direct");
          grace = setTimeout(() => {
            if (!cancelled && feed === direct && direct.state !== "live") toRelay();
          }, DIRECT_GRACE_MS);
        })
        .catch(toRelay);
    } else {
      toRelay();
    }
    const timer = setInterval(() => {
      if (!feed || feed.book.version === shownVersion) return;
      shownVersion = feed.book.version;
      setView(takeView(feed.book, depth, feed.sourceVersion));
    }, refreshMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
      clearTimeout(grace);
      unState?.();
      feed?.stop();
      feedRef.current = undefined;
    };
  }, [exchange, pair, refreshMs]);

  const refresh = useCallback(async () => {
    await feedRef.current?.refresh();
  }, []);

  // docs/decisions.md#d37: a server that does not answer (dead or frozen) makes the book stale, whatever its feed says
  const { downSince } = useServerStatus();
  const serverDown = downSince !== undefined && health.state === "live";
  return {
    view,
    state: serverDown ? "stale" : health.state,
    staleness: serverDown
      ? { state: "stale", since: downSince, wasLive: true, reason: SERVER_SILENT }
      : bookStaleness(health.state, health.since, health.wasLive, health.cause),
    source,
    refresh,
  };
}
