import type { FeedState } from "../exchanges/types.js";
import { firstFitting } from "./components/layout.js";
import { formatUtcTime } from "./format.js";

/**
 * A book that is not live (docs/tui.md "Stale book"): the feed is connecting, resyncing, stale or
 * closed. The TUI then greys the book, blanks the mid and the sparkline, says since when and why,
 * refuses to fill the panel from it and asks a second confirmation before a send.
 */
export interface BookStaleness {
  state: Exclude<FeedState, "live">;
  /** ms since the epoch: when the feed left live, or when it was opened if it never was live */
  since: number;
  /** true when the feed had been live: what is on screen is the last book received */
  wasLive: boolean;
  reason: string;
}

/** Why the book is not live, in the trader's words (exchanges/feed's states). */
export function staleReason(state: Exclude<FeedState, "live">, wasLive: boolean): string {
  switch (state) {
    case "connecting":
      return wasLive ? "connection lost, reconnecting" : "connecting";
    case "resyncing":
      return "book out of sync, loading a fresh snapshot";
    case "stale":
      return "no book update for too long, reconnecting";
    case "closed":
      return "feed closed";
  }
}

/** Undefined while live; else since when and why, the reason told by `cause`, the state that ended live. */
export function bookStaleness(
  state: FeedState,
  since: number,
  wasLive: boolean,
  cause: FeedState = state,
): BookStaleness | undefined {
  if (state === "live") return undefined;
  return { state, since, wasLive, reason: staleReason(cause === "live" ? state : cause, wasLive) };
}

/** "disconnected since 12:00:03 UTC (connection lost, reconnecting)" */
export function staleText(s: BookStaleness): string {
  return `disconnected since ${formatUtcTime(s.since)} (${s.reason})`;
}

/** The banner line over the book, longest form that fits `width`. */
export function staleBanner(s: BookStaleness, width: number): string {
  const time = formatUtcTime(s.since);
  return firstFitting(width, [
    `⚠ Order book not live: disconnected since ${time} (${s.reason})`,
    `⚠ disconnected since ${time} (${s.reason})`,
    `⚠ disconnected since ${time}: ${s.reason}`,
    `⚠ disconnected ${time.slice(0, 8)}: ${s.reason}`,
  ]);
}
