/**
 * The dashboard's order checks before its "Send?" (docs/web-trading.md "Trading panel"): the
 * amount from amount or quote / price, truncated to the pair's decimals (docs/dashboard-rules.md#validation, docs/decisions.md#d1),
 * the seed's zero toast, then the free balance (lib/order-checks.ts, shared with the TUI).
 */
import type { PairSpec } from "../../../../../exchanges/types.js";
import { Decimal, resolveOrderAmount, ZERO_AMOUNT_MESSAGE } from "../../../../../lib/decimal.js";
import { checkFunds, type KnownBalances, type OrderDraft } from "../../../../../lib/order-checks.js";
import type { Side } from "../../../../../lib/types.js";

/** docs/api.md#errors 'Incorrect amount / It is zero!' as the toast shows it: title and description. */
export const ZERO_TOAST = (() => {
  const [title = ZERO_AMOUNT_MESSAGE, description = ""] = ZERO_AMOUNT_MESSAGE.split(" / ");
  return { title, description };
})();

/** The dashboard's override, named in the guard's message. */
export const WEB_FAR_PRICE_OVERRIDE = "press 'Send anyway' to send it as typed";

export type PreparedOrder =
  | { ok: true; draft: OrderDraft; note: string | undefined }
  | { ok: false; title: string; description: string };

/**
 * The venue's minimums (docs/web-trading.md "Trading panel"): an amount below the pair's minimum
 * amount, or a value (price × amount) below its minimum notional, is dust the venue refuses.
 */
export function dustMessage(
  draft: { price: string; amount: string; pair: string },
  rules: Pick<PairSpec, "minAmount" | "minNotional"> | undefined,
): string | undefined {
  const [base = "", quote = ""] = draft.pair.split("/");
  if (rules?.minAmount && new Decimal(draft.amount).lt(rules.minAmount))
    return `${draft.amount} ${base} is below the ${draft.pair} minimum amount of ${rules.minAmount} ${base}`;
  const value = new Decimal(draft.price).times(draft.amount);
  if (rules?.minNotional && value.lt(rules.minNotional))
    return `${value.toFixed()} ${quote} (price × amount) is below the ${draft.pair} minimum order value of ${rules.minNotional} ${quote}`;
  return undefined;
}

export function prepareOrder(input: {
  side: Side;
  price: string;
  amount: string;
  quote: string;
  pair: string;
  decimals: { price: number; amount: number } | undefined;
  rules?: Pick<PairSpec, "minAmount" | "minNotional"> | undefined;
  balances: KnownBalances;
}): PreparedOrder {
  let resolved: ReturnType<typeof resolveOrderAmount>;
  try {
    resolved = resolveOrderAmount({
      price: input.price,
      amount: input.amount,
      quote: input.quote,
      ...(input.decimals ? { priceDecimals: input.decimals.price, amountDecimals: input.decimals.amount } : {}),
    });
  } catch (error) {
    const message = (error as { detail?: string }).detail ?? (error as Error).message;
    if (message === ZERO_AMOUNT_MESSAGE) return { ok: false, ...ZERO_TOAST };
    return { ok: false, title: "Order not sent", description: message };
  }
  const draft: OrderDraft = {
    side: input.side,
    price: resolved.price.toFixed(),
    amount: resolved.amount.toFixed(),
    pair: input.pair,
  };
  const dust = dustMessage(draft, input.rules);
  if (dust) return { ok: false, title: "Order not sent", description: dust };
  const funds = checkFunds(draft, input.balances);
  if (!funds.ok) return { ok: false, title: "Not enough funds", description: funds.message };
  return { ok: true, draft, note: funds.note };
}
