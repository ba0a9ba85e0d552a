/**
 * How numbers and times are shown, the same in the TUI, the web and the CLI tables
 * (docs/dashboard-rules.md#constants "Number display", docs/decisions.md#d15; docs/exchange-rules.md#chart "Order tooltip"). Isomorphic.
 * Inputs are decimal strings or BigNumber values; outputs are strings.
 */
import type BigNumber from "bignumber.js";
import { Decimal } from "./decimal.js";

const THOUSAND = new Decimal(1e3);
const MILLION = new Decimal(1e6);
const BILLION = new Decimal(1e9);

function toDecimal(value: BigNumber.Value, what: string): Decimal {
  let n: Decimal;
  try {
    n = new Decimal(value);
  } catch {
    n = new Decimal(Number.NaN);
  }
  if (!n.isFinite()) throw new Error(`Cannot display ${what} '${String(value)}': not a finite number`);
  return n;
}

/**
 * docs/dashboard-rules.md#constants: 1e3 or more is shown with K, 1e6 with M, 1e9 or more with B — B is the value
 * divided by 1e9 (docs/decisions.md#d15 corrects the seed's 1e6). Digits are cut, never rounded up, so
 * 999 999 reads 999.99K and not 1000K. Negative values keep their sign.
 */
export function formatCompact(value: BigNumber.Value, decimals = 2): string {
  const n = toDecimal(value, "number");
  const abs = n.abs();
  let scaled: Decimal;
  let suffix: string;
  if (abs.gte(BILLION)) {
    scaled = n.dividedBy(BILLION);
    suffix = "B";
  } else if (abs.gte(MILLION)) {
    scaled = n.dividedBy(MILLION);
    suffix = "M";
  } else if (abs.gte(THOUSAND)) {
    scaled = n.dividedBy(THOUSAND);
    suffix = "K";
  } else {
    scaled = n;
    suffix = "";
  }
  const cut = scaled.decimalPlaces(decimals, Decimal.ROUND_DOWN);
  return (cut.isZero() ? "0" : cut.toFixed()) + suffix;
}

/**
 * docs/dashboard-rules.md#constants: "Balances are shown to 4 decimals when at least 1, otherwise about 3 significant
 * digits". Cut toward zero: a balance never reads higher than what is held.
 */
export function formatBalance(value: BigNumber.Value): string {
  const n = toDecimal(value, "balance");
  if (n.isZero()) return "0";
  if (n.abs().gte(1)) return n.toFixed(4, Decimal.ROUND_DOWN);
  // 3 significant digits of a number that is not zero are not zero
  return n.precision(3, Decimal.ROUND_DOWN).toFixed();
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/**
 * The "Last update" and "Last seen" times (docs/dashboard-rules.md#screens): UTC, `YYYY-MM-DD HH:MM:SS UTC`.
 * Takes milliseconds since the epoch or a Date; an invalid time reads "-".
 */
export function formatUtcTimestamp(time: number | Date): string {
  const date = time instanceof Date ? time : new Date(time);
  if (Number.isNaN(date.getTime())) return "-";
  return (
    `${date.getUTCFullYear()}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())} ` +
    `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())} UTC`
  );
}

/** "HH:MM:SS UTC": the time part of formatUtcTimestamp, for narrow headers and banners. */
export function formatUtcTime(ms: number): string {
  return formatUtcTimestamp(ms).slice(11);
}

/** The order book's middle row: the spread percent prefixed with ~ (docs/dashboard-rules.md#screens). */
export function formatSpread(percent: BigNumber.Value, decimals = 2): string {
  return `~${toDecimal(percent, "spread").toFixed(decimals)}%`;
}

/** docs/exchange-rules.md#limits "Tooltip width 200px; 6 decimal places". */
export const TOOLTIP_DECIMALS = 6;
export const TOOLTIP_WIDTH_PX = 200;

export interface OrderTooltip {
  /** total divided by amount, 6 decimals; undefined when the amount is zero */
  avgPrice: string | undefined;
  /** in the base currency, as the exchange gave it */
  amount: string;
  /** in the quote currency, 6 decimals */
  volume: string;
  /** the three lines as shown: "Avg. price: …", "Amount: … BASE", "Volume: … QUOTE" */
  lines: [string, string, string];
}

/**
 * docs/exchange-rules.md#chart "Order tooltip": Avg. price = total / amount to 6 decimals; Amount in the base
 * currency; Volume in the quote currency to 6 decimals. `total` defaults to price × amount
 * (docs/dashboard-rules.md#screens "the quote total (price times amount)").
 */
export function orderTooltip(order: {
  amount: BigNumber.Value;
  total?: BigNumber.Value;
  price?: BigNumber.Value;
  pair?: string;
}): OrderTooltip {
  const amount = toDecimal(order.amount, "amount");
  let total: Decimal;
  if (order.total !== undefined) total = toDecimal(order.total, "total");
  else if (order.price !== undefined) total = toDecimal(order.price, "price").times(amount);
  else throw new Error("An order tooltip needs a total or a price");
  const avgPrice = amount.isZero() ? undefined : total.dividedBy(amount).toFixed(TOOLTIP_DECIMALS);
  const volume = total.toFixed(TOOLTIP_DECIMALS);
  const [base, quote] = order.pair ? order.pair.split("/") : [];
  const unit = (code: string | undefined): string => (code ? ` ${code}` : "");
  return {
    avgPrice,
    amount: amount.toFixed(),
    volume,
    lines: [
      `Avg. price: ${avgPrice ?? "-"}`,
      `Amount: ${amount.toFixed()}${unit(base)}`,
      `Volume: ${volume}${unit(quote)}`,
    ],
  };
}
