import { isUserNumber, parseUserNumber, quoteToAmount } from "../lib/decimal.js";
import type { BookPick } from "./book-view.js";

/**
 * The trading panel's fields (docs/dashboard-rules.md#screens "Trading panel", docs/dashboard-rules.md#validation "Numbers" and "Orders") as a pure
 * reducer; hooks/useTradeForm wraps it. Inputs stay the text the trader typed; the lib's
 * parseUserNumber/resolveOrderAmount decide what it means when an order is built.
 */
export type TradeField = "price" | "amount" | "quote";
export const TRADE_FIELDS: readonly TradeField[] = ["price", "amount", "quote"];

export interface TradeFormState {
  price: string;
  amount: string;
  quote: string;
  active: TradeField;
  /** the active field's text when it got focus: invalid input reverts to it on blur (docs/dashboard-rules.md#validation) */
  entryValue: string;
  /** the side of the last book pick: Buy from asks, Sell from bids */
  suggestedSide: "Buy" | "Sell" | undefined;
  /** maker only (docs/orders.md "Post-only"): kept until toggled off, across orders and clears */
  postOnly: boolean;
}

export const EMPTY_TRADE_FORM: TradeFormState = {
  price: "",
  amount: "",
  quote: "",
  active: "price",
  entryValue: "",
  suggestedSide: undefined,
  postOnly: false,
};

export type TradeFormAction =
  | { type: "input"; text: string }
  | { type: "backspace" }
  | { type: "focus"; field: TradeField }
  | { type: "move"; direction: 1 | -1 }
  | { type: "fill"; pick: BookPick }
  | { type: "clear" }
  | { type: "postOnly" };

/** Characters a number field takes: digits, one optional minus, '.' or ',' (docs/dashboard-rules.md#validation). */
const NUMBER_CHARS = /^[0-9.,-]+$/;

/** docs/dashboard-rules.md#validation: a comma becomes a dot; invalid input reverts to the previous value on blur. */
export function blurValue(text: string, previous: string): string {
  if (text.trim() === "") return "";
  return isUserNumber(text) ? text.trim().replace(",", ".") : previous;
}

function withBlur(state: TradeFormState, next: TradeField): TradeFormState {
  const blurred = blurValue(state[state.active], state.entryValue);
  const updated = { ...state, [state.active]: blurred };
  return { ...updated, active: next, entryValue: updated[next] };
}

/**
 * A new price: with an amount set, the quote total it was filled with (a book pick) no longer
 * holds, so it gives way to the total that follows the price (derivedQuote; docs/tui.md "Fills").
 */
function withPrice(state: TradeFormState, price: string): TradeFormState {
  return state.amount.trim() !== "" ? { ...state, price, quote: "" } : { ...state, price };
}

/** Text shown beside an empty Quote: price × amount, when both parse. */
export function derivedQuote(state: Pick<TradeFormState, "price" | "amount" | "quote">): string | undefined {
  if (state.quote.trim() !== "" || state.amount.trim() === "" || state.price.trim() === "") return undefined;
  try {
    return parseUserNumber(state.price).times(parseUserNumber(state.amount)).toFixed();
  } catch {
    return undefined;
  }
}

export function tradeFormReducer(state: TradeFormState, action: TradeFormAction): TradeFormState {
  switch (action.type) {
    case "input": {
      if (!NUMBER_CHARS.test(action.text)) return state;
      const text = state[state.active] + action.text;
      // Amount and quote are alternatives (docs/dashboard-rules.md#validation: amount = quote / price when the amount is
      // empty): typing one clears the other, so the order sent is the one the trader just wrote.
      if (state.active === "amount") return { ...state, amount: text, quote: "" };
      if (state.active === "quote") return { ...state, quote: text, amount: "" };
      return withPrice(state, text);
    }
    case "backspace":
      if (state.active === "price") return withPrice(state, state.price.slice(0, -1));
      return { ...state, [state.active]: state[state.active].slice(0, -1) };
    case "focus":
      return action.field === state.active ? state : withBlur(state, action.field);
    case "move": {
      const i = TRADE_FIELDS.indexOf(state.active);
      const next = TRADE_FIELDS[(i + action.direction + TRADE_FIELDS.length) % TRADE_FIELDS.length] as TradeField;
      return withBlur(state, next);
    }
    case "fill": {
      // docs/dashboard-rules.md#screens: a click on a book row fills price, cumulative amount and cumulative total.
      const { pick } = action;
      return {
        ...state,
        price: pick.price,
        amount: pick.amount,
        quote: pick.total,
        suggestedSide: pick.type,
        entryValue: pick[state.active === "quote" ? "total" : state.active],
      };
    }
    case "clear":
      return { ...EMPTY_TRADE_FORM, postOnly: state.postOnly };
    case "postOnly":
      return { ...state, postOnly: !state.postOnly };
  }
}

/** Text shown beside an empty Amount: the amount the quote will buy at the price, when both parse. */
export function derivedAmount(state: Pick<TradeFormState, "price" | "amount" | "quote">): string | undefined {
  if (state.amount.trim() !== "" || state.quote.trim() === "" || state.price.trim() === "") return undefined;
  try {
    return quoteToAmount(parseUserNumber(state.quote), parseUserNumber(state.price)).toFixed();
  } catch {
    return undefined;
  }
}
