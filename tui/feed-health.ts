import type { BookStaleness } from "../lib/order-checks.js";
import { firstFitting } from "./components/layout.js";
import { formatUtcTime } from "./format.js";

/**
 * A book that is not live (docs/tui.md "Stale book"). The rules live in lib/order-checks.ts, shared
 * with the dashboard; the TUI adds the banner that fits its width.
 */
export { type BookStaleness, bookStaleness, staleReason, staleText } from "../lib/order-checks.js";

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
