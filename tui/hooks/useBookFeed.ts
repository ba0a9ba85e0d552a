import { useEffect, useRef, useState } from "react";
import type { BookFeed, FeedState } from "../../exchanges/types.js";
import { type BookView, buildBookView, EMPTY_BOOK_VIEW } from "../book-view.js";
import { type BookStaleness, bookStaleness } from "../feed-health.js";

/** docs/dashboard-rules.md#constants "Order book UI refresh": 500 ms. */
export const BOOK_REFRESH_MS = 500;
/** Mid prices kept for the sparkline. */
export const MID_HISTORY = 120;

export interface BookFeedView {
  view: BookView;
  state: FeedState;
  /** recent mid prices, oldest first, one per refresh in which the book changed */
  mids: readonly string[];
  /** set while the feed is not live: since when and why (docs/tui.md "Stale book") */
  staleness: BookStaleness | undefined;
}

/**
 * The feed's state, when it last left live (or was opened), the state it left live for (a silent
 * socket goes stale, then connecting: the reason stays "no update"), and whether it ever was live.
 */
interface Health {
  state: FeedState;
  since: number;
  cause: FeedState;
  wasLive: boolean;
}

/**
 * Reads a feed's book every `refreshMs`, and makes a new view only when `book.version` moved (seed
 * docs/exchange-rules.md#states: "refreshes from the buffer every 500 ms, only when the buffer is non-empty"); levels that
 * changed flash for one refresh.
 */
export function useBookFeed(
  feed: BookFeed | undefined,
  depth: number,
  refreshMs = BOOK_REFRESH_MS,
  now: () => number = Date.now,
): BookFeedView {
  const [view, setView] = useState<BookView>(EMPTY_BOOK_VIEW);
  const [health, setHealth] = useState<Health>(() => ({
    state: feed?.state ?? "connecting",
    since: now(),
    cause: feed?.state ?? "connecting",
    wasLive: feed?.state === "live",
  }));
  const nowRef = useRef(now);
  nowRef.current = now;
  const [mids, setMids] = useState<readonly string[]>([]);
  // which feed the state above was read from: after a switch, nothing of the old book is shown
  const [shownFeed, setShownFeed] = useState<BookFeed | undefined>(feed);
  const depthRef = useRef(depth);
  depthRef.current = depth;

  useEffect(() => {
    setView(EMPTY_BOOK_VIEW);
    setMids([]);
    setShownFeed(feed);
    // a new feed (or none yet) starts its own history: never live, not live since now
    const first = feed?.state ?? "connecting";
    setHealth({ state: first, since: nowRef.current(), cause: first, wasLive: first === "live" });
    if (!feed) return;
    const onState = (state: FeedState) =>
      setHealth((h) => {
        if (state === h.state) return h;
        if (state === "live") return { state, since: h.since, cause: state, wasLive: true };
        // when and why the book stopped being live: kept while it goes on from stale to connecting
        if (h.state === "live") return { state, since: nowRef.current(), cause: state, wasLive: h.wasLive };
        return { ...h, state };
      });
    let previous: BookView = EMPTY_BOOK_VIEW;
    let shownDepth = -1;
    const refresh = () => {
      const depthNow = depthRef.current;
      if (feed.book.version === previous.version && depthNow === shownDepth) {
        // nothing new: end the flash of the last change, once
        if (previous.changed.size > 0) {
          previous = { ...previous, changed: new Set() };
          setView(previous);
        }
        return;
      }
      const versionMoved = feed.book.version !== previous.version;
      previous = buildBookView(feed.book, depthNow, depthNow === shownDepth ? previous : undefined);
      shownDepth = depthNow;
      setView(previous);
      const mid = previous.mid;
      if (versionMoved && mid !== undefined)
        setMids((m) => (m.length >= MID_HISTORY ? [...m.slice(1), mid] : [...m, mid]));
    };
    refresh();
    const timer = setInterval(refresh, refreshMs);
    const offState = feed.onState(onState);
    return () => {
      clearInterval(timer);
      offState();
    };
  }, [feed, refreshMs]);

  if (shownFeed !== feed) {
    const state = feed?.state ?? "connecting";
    return { view: EMPTY_BOOK_VIEW, state, mids: [], staleness: bookStaleness(state, now(), false) };
  }
  return {
    view,
    state: health.state,
    mids,
    staleness: bookStaleness(health.state, health.since, health.wasLive, health.cause),
  };
}
