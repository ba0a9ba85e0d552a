import { useEffect, useRef, useState } from "react";
import type { BookFeed, FeedState } from "../../exchanges/types.js";
import { buildBookView, type BookView, EMPTY_BOOK_VIEW } from "../book-view.js";

/** Seed 000 §9 "Order book UI refresh": 500 ms. */
export const BOOK_REFRESH_MS = 500;
/** Mid prices kept for the sparkline. */
export const MID_HISTORY = 120;

export interface BookFeedView {
  view: BookView;
  state: FeedState;
  /** recent mid prices, oldest first, one per refresh in which the book changed */
  mids: readonly string[];
}

/**
 * Reads a feed's book every `refreshMs`, and makes a new view only when `book.version` moved (seed
 * 001 §4: "refreshes from the buffer every 500 ms, only when the buffer is non-empty"); levels that
 * changed flash for one refresh.
 */
export function useBookFeed(feed: BookFeed | undefined, depth: number, refreshMs = BOOK_REFRESH_MS): BookFeedView {
  const [view, setView] = useState<BookView>(EMPTY_BOOK_VIEW);
  const [state, setState] = useState<FeedState>(feed?.state ?? "connecting");
  const [mids, setMids] = useState<readonly string[]>([]);
  // which feed the state above was read from: after a switch, nothing of the old book is shown
  const [shownFeed, setShownFeed] = useState<BookFeed | undefined>(feed);
  const depthRef = useRef(depth);
  depthRef.current = depth;

  useEffect(() => {
    setView(EMPTY_BOOK_VIEW);
    setMids([]);
    setShownFeed(feed);
    if (!feed) {
      setState("connecting");
      return;
    }
    setState(feed.state);
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
    const offState = feed.onState(setState);
    return () => {
      clearInterval(timer);
      offState();
    };
  }, [feed, refreshMs]);

  if (shownFeed !== feed) return { view: EMPTY_BOOK_VIEW, state: feed?.state ?? "connecting", mids: [] };
  return { view, state, mids };
}
