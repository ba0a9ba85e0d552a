import {
  type BookStaleness,
  checkFunds,
  type FundsCheck,
  orderWarning as guardWarning,
  type KnownBalances,
  type OrderDraft,
  type OrderWarning,
} from "../lib/order-checks.js";
import type { BookView } from "./book-view.js";

/**
 * The checks a TUI order passes before and after "Send?" (docs/tui.md "Order checks"). The rules
 * live in lib/order-checks.ts, shared with the dashboard's panel; the TUI adds its override words.
 */
export { checkFunds, type FundsCheck, type KnownBalances, type OrderDraft, type OrderWarning };

/** The TUI's override, named in the guard's message. */
export const TUI_FAR_PRICE_OVERRIDE = "a second confirmation sends it anyway";

/** lib/order-checks.ts orderWarning with the TUI's override. */
export function orderWarning(
  draft: OrderDraft,
  view: { asks: readonly { price: string }[]; bids: readonly { price: string }[]; mid: BookView["mid"] },
  staleness: BookStaleness | undefined,
  limitPercent: string | number | undefined,
): OrderWarning | undefined {
  return guardWarning(draft, view, staleness, limitPercent, TUI_FAR_PRICE_OVERRIDE);
}
