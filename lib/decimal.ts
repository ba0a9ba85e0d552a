import BigNumber from "bignumber.js";
import { ExchangeError } from "./errors.js";

/**
 * One BigNumber configuration for every price and amount: no exponent notation in strings,
 * enough precision for any exchange's decimals.
 */
export const Decimal = BigNumber.clone({ DECIMAL_PLACES: 30, EXPONENTIAL_AT: [-40, 40] });
export type Decimal = BigNumber;

/** The decimal places of a step: "0.01" → 2, "1" → 0, "0.5" → 1. */
export function stepDecimals(step: string): number {
  return new Decimal(step).decimalPlaces() ?? 0;
}

/** 10^-digits as a decimal string: 2 → "0.01", 0 → "1" (docs/exchange-rules.md#pairs). */
export function digitsToStep(digits: string | number): string {
  const n = Number(String(digits).trim());
  return n === 0 ? "1" : `0.${"0".repeat(n - 1)}1`;
}

export const ZERO_AMOUNT_MESSAGE = "Incorrect amount / It is zero!";

/** docs/dashboard-rules.md#validation: an optional minus sign, digits, and a decimal part with '.' or ','. */
const USER_NUMBER_RE = /^-?(\d+([.,]\d*)?|[.,]\d+)$/;

/**
 * A comma followed by exactly three digits: 70,000 is 70 or 70000 depending on the reader. A
 * whole part of 0 is never grouped in thousands, so 0,500 can only be 0.5.
 */
const AMBIGUOUS_COMMA_RE = /^-?[1-9]\d*,\d{3}$/;

/**
 * The refusal of a number whose comma could be a thousands separator or a decimal mark ('1,000'),
 * in the CLI's words (docs/orders.md "Numbers on the command line"); undefined for any other text.
 */
export function ambiguousNumberMessage(text: string, field = "number"): string | undefined {
  const raw = String(text).trim();
  if (!AMBIGUOUS_COMMA_RE.test(raw)) return undefined;
  const asDecimal = raw.replace(",", ".");
  const asThousands = raw.replace(",", "");
  return `Ambiguous ${field} '${raw}': it reads as ${asDecimal} (comma as decimal mark) or ${asThousands} (comma as thousands separator); write ${asDecimal} or ${asThousands}`;
}

/**
 * Parses a number typed by a person (docs/dashboard-rules.md#validation): a comma becomes a dot; a comma followed by
 * exactly three digits ('1,000') is refused as ambiguous, in the CLI's words; anything else is an
 * error that names the field and the text.
 */
export function parseUserNumber(text: string, field = "number"): Decimal {
  const trimmed = String(text).trim();
  const ambiguous = ambiguousNumberMessage(trimmed, field);
  if (ambiguous) throw new ExchangeError("spotdesk", ambiguous, { kind: "bad-input" });
  if (!USER_NUMBER_RE.test(trimmed)) {
    throw new ExchangeError(
      "spotdesk",
      `Invalid ${field} '${text}': expected digits with an optional '.' or ',' decimal part`,
      {
        kind: "bad-input",
      },
    );
  }
  return new Decimal(trimmed.replace(",", "."));
}

/** True when the text is acceptable to `parseUserNumber` (for inputs that revert on blur). */
export function isUserNumber(text: string): boolean {
  const trimmed = String(text).trim();
  return USER_NUMBER_RE.test(trimmed) && !AMBIGUOUS_COMMA_RE.test(trimmed);
}

/** docs/dashboard-rules.md#validation: amount = quote / price when only a quote is given. */
export function quoteToAmount(quote: BigNumber.Value, price: BigNumber.Value): Decimal {
  const p = new Decimal(price);
  if (p.isZero()) return new Decimal(0);
  return new Decimal(quote).dividedBy(p);
}

/** Truncates toward zero to `decimals` places (docs/decisions.md#d1: token pair decimals). */
export function truncate(value: BigNumber.Value, decimals: number): Decimal {
  return new Decimal(value).decimalPlaces(decimals, Decimal.ROUND_DOWN);
}

/** Rounds down (toward zero) to a multiple of `step` ("0.001", "0.5", "10"); a step of 0 or less leaves the value. */
export function roundDownToStep(value: BigNumber.Value, step: BigNumber.Value): Decimal {
  const v = new Decimal(value);
  const s = new Decimal(step);
  if (!s.isFinite() || s.lte(0)) return v;
  return v.dividedToIntegerBy(s).times(s);
}

/**
 * Resolves the amount of an order from the typed fields (docs/dashboard-rules.md#validation): price is required, and an
 * amount or a quote; a zero result is 'Incorrect amount / It is zero!'.
 */
export function resolveOrderAmount(input: {
  price: string;
  amount?: string | undefined;
  quote?: string | undefined;
  amountDecimals?: number;
  priceDecimals?: number;
}): { price: Decimal; amount: Decimal } {
  let price = parseUserNumber(input.price, "price");
  const hasAmount = input.amount !== undefined && input.amount.trim() !== "";
  const hasQuote = input.quote !== undefined && input.quote.trim() !== "";
  if (!hasAmount && !hasQuote) {
    throw new ExchangeError("spotdesk", "An order needs a price and an amount or a quote", { kind: "bad-input" });
  }
  if (price.isNegative()) {
    throw new ExchangeError("spotdesk", `Invalid price '${input.price}': it must be positive`, { kind: "bad-input" });
  }
  if (input.priceDecimals !== undefined) price = truncate(price, input.priceDecimals);
  if (price.isZero()) {
    throw new ExchangeError("spotdesk", "Invalid price: it is zero", { kind: "bad-input" });
  }
  const field = hasAmount ? "amount" : "quote";
  const typed = parseUserNumber((hasAmount ? input.amount : input.quote) as string, field);
  if (typed.isNegative()) {
    throw new ExchangeError(
      "spotdesk",
      `Invalid ${field} '${hasAmount ? input.amount : input.quote}': it must be positive`,
      {
        kind: "bad-input",
      },
    );
  }
  let amount = hasAmount ? typed : quoteToAmount(typed, price);
  if (input.amountDecimals !== undefined) amount = truncate(amount, input.amountDecimals);
  if (amount.isZero()) throw new ExchangeError("spotdesk", ZERO_AMOUNT_MESSAGE, { kind: "bad-input" });
  return { price, amount };
}

const EXCHANGE_NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Reads a number from an exchange response without losing digits: strings pass through
 * BigNumber (docs/exchange-rules.md#limits: values longer than 15 characters are big numbers); JS numbers are
 * taken by their shortest round-trip text, which is what the JSON carried when it fit.
 */
export function toDecimalString(value: unknown, fallback = "0"): string {
  // Stryker disable next-line all: a shortcut; null and undefined fail the type check below, "" the pattern
  if (value === null || value === undefined || value === "") return fallback;
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "string" && typeof value !== "number") return fallback;
  // bignumber.js would also read "0x10" or "0b1"; an exchange's number is decimal or nothing.
  if (typeof value === "string" && !EXCHANGE_NUMBER_RE.test(value.trim())) return fallback;
  // Stryker disable next-line all: bignumber.js trims surrounding white space itself
  const n = new Decimal(typeof value === "string" ? value.trim() : value);
  return n.isFinite() ? n.toFixed() : fallback;
}

/**
 * An exchange's average fill price as an Order's `average`: undefined when nothing filled or the
 * exchange sent none (an empty string, "0").
 */
export function averagePrice(average: unknown, filled: string): string | undefined {
  const value = toDecimalString(average, "");
  return value !== "" && new Decimal(value).gt(0) && new Decimal(filled).gt(0) ? value : undefined;
}

/** Adds decimal strings exactly (the displayed total of a balance is f + l). */
export function addDecimals(...values: BigNumber.Value[]): string {
  return values.reduce<Decimal>((sum, v) => sum.plus(v), new Decimal(0)).toFixed();
}

/**
 * Parses a number typed on a command line, where a mistake is an order nobody meant
 * (docs/orders.md "Numbers on the command line"): no leading or trailing spaces, no comma followed
 * by exactly three digits (a thousands separator or a decimal mark?), and, when the pair's
 * decimals are known, no more digits than the pair allows. `0,5` and `12,25` stay accepted.
 */
export function parseTypedNumber(
  text: string,
  field: string,
  limits: { decimals?: number | undefined; pair?: string | undefined } = {},
): Decimal {
  const raw = String(text);
  if (raw !== raw.trim()) {
    throw new ExchangeError("spotdesk", `Invalid ${field} '${raw}': remove the leading or trailing spaces`, {
      kind: "bad-input",
    });
  }
  const value = parseUserNumber(raw, field);
  const decimals = limits.decimals;
  if (decimals !== undefined && (value.decimalPlaces() ?? 0) > decimals) {
    const where = limits.pair
      ? `${limits.pair} ${field === "price" ? "prices allow" : "amounts allow"}`
      : `the ${field} allows`;
    throw new ExchangeError(
      "spotdesk",
      `Invalid ${field} '${raw}': ${where} at most ${decimals} decimal${decimals === 1 ? "" : "s"}`,
      { kind: "bad-input" },
    );
  }
  return value;
}

export interface TypedOrder {
  price: Decimal;
  amount: Decimal;
  /** set when the amount was derived from a quote and rounded down to the pair's decimals */
  roundedFrom?: Decimal;
}

/**
 * The order a person typed on the command line (docs/orders.md "Numbers on the command line"):
 * price and amount refused when they have more decimals than the pair allows (docs/decisions.md#d1); an
 * amount derived from --quote is rounded down to the pair's decimals, and `roundedFrom` says so.
 */
export function resolveTypedOrder(input: {
  price: string;
  amount?: string | undefined;
  quote?: string | undefined;
  priceDecimals?: number | undefined;
  amountDecimals?: number | undefined;
  /** the pair's lot: an amount worked out from a quote is rounded down to a multiple of it */
  amountLot?: string | undefined;
  pair?: string | undefined;
}): TypedOrder {
  const price = parseTypedNumber(input.price, "price", { decimals: input.priceDecimals, pair: input.pair });
  const hasAmount = input.amount !== undefined;
  const typed = hasAmount
    ? parseTypedNumber(input.amount as string, "amount", { decimals: input.amountDecimals, pair: input.pair })
    : parseTypedNumber(input.quote ?? "", "quote");
  for (const [field, value] of [
    ["price", price],
    [hasAmount ? "amount" : "quote", typed],
  ] as const) {
    if (value.isNegative()) {
      throw new ExchangeError("spotdesk", `Invalid ${field} '${value.toFixed()}': it must be positive`, {
        kind: "bad-input",
      });
    }
  }
  if (price.isZero()) throw new ExchangeError("spotdesk", "Invalid price: it is zero", { kind: "bad-input" });
  const exact = hasAmount ? typed : quoteToAmount(typed, price);
  const amount =
    !hasAmount && input.amountLot !== undefined
      ? roundDownToStep(exact, input.amountLot)
      : input.amountDecimals === undefined
        ? exact
        : truncate(exact, input.amountDecimals);
  if (amount.isZero()) throw new ExchangeError("spotdesk", ZERO_AMOUNT_MESSAGE, { kind: "bad-input" });
  return { price, amount, ...(amount.isEqualTo(exact) ? {} : { roundedFrom: exact }) };
}
