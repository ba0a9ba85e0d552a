import type BigNumber from "bignumber.js";
import { Decimal as D } from "./decimal.js";
import type { Side } from "./types.js";

/**
 * The far-price guard (docs/orders.md "Far-price guard"): one rule for the CLI, the TUI and the
 * dashboard. A limit order priced through the opposite best price by more than the limit — a Buy
 * above the best ask, a Sell below the best bid — is not sent as typed: the CLI refuses it unless
 * `--allow-far-price`, the TUI and the dashboard ask a second confirmation. Without a live book the
 * guard cannot judge and says so. Pure: no Node modules, decimal arithmetic only.
 */

/** The default limit in percent (docs/orders.md). */
export const DEFAULT_FAR_PRICE_PERCENT = 5;

/** The CLI's way to override; the TUI and the dashboard pass their own words. */
export const CLI_FAR_PRICE_OVERRIDE = "re-run with --allow-far-price to send it anyway";

export interface PriceGuardInput {
  side: Side;
  price: BigNumber.Value;
  /** best bid and ask of a live book; null/undefined when that side is empty or unknown */
  bestBid?: BigNumber.Value | null | undefined;
  bestAsk?: BigNumber.Value | null | undefined;
  /** defaults to (bestBid + bestAsk) / 2 when both are known */
  mid?: BigNumber.Value | null | undefined;
  /** the order's amount in base units, for the cost against the mid */
  amount?: BigNumber.Value | null | undefined;
  /** limit in percent; DEFAULT_FAR_PRICE_PERCENT when omitted */
  limitPercent?: BigNumber.Value | null | undefined;
  /** false when the book is not live (disconnected, stale, resyncing): the guard then refuses as "no-book" */
  live?: boolean;
  /** names the pair and the quote currency in the message, e.g. "BTC/USDT" */
  pair?: string;
  /** how the user overrides, appended to the message; CLI_FAR_PRICE_OVERRIDE when omitted */
  override?: string;
}

export interface PriceGuardPass {
  ok: true;
  price: string;
  /** the opposite best price the order was measured against */
  best: string;
  /** how far through `best` the price is, in percent (0 when it does not cross it), 2 decimals */
  distancePercent: string;
  limitPercent: string;
}

export interface PriceGuardRefusal {
  ok: false;
  reason: "far" | "no-book";
  price: string;
  /** the opposite best price (best ask for a Buy, best bid for a Sell); null without a book */
  best: string | null;
  /** percent through `best`, 2 decimals; null without a book */
  distancePercent: string | null;
  /**
   * What the order costs against the mid in quote currency (amount x |price - mid|, the side that
   * loses); null without a mid or an amount
   */
  costVsMid: string | null;
  /** the mid it was measured against; null without a book */
  mid: string | null;
  limitPercent: string;
  /** one sentence naming the price, the best price, the distance, the limit and the override */
  message: string;
}

export type PriceGuardResult = PriceGuardPass | PriceGuardRefusal;

function positive(value: BigNumber.Value | null | undefined): BigNumber | null {
  if (value === null || value === undefined || value === "") return null;
  const n = new D(value);
  return n.isFinite() && n.isGreaterThan(0) ? n : null;
}

/** Percent to 2 decimals, trailing zeros dropped: "50", "12.5", "0.01". */
function percentText(value: BigNumber): string {
  return value.decimalPlaces(2, D.ROUND_HALF_UP).toFixed();
}

/**
 * Parses a far-price limit typed by a person (flag or stored account field): a non-negative
 * decimal number of percent. Returns null when the text is not one.
 */
export function parseFarPricePercent(text: string): string | null {
  // Digits with at most one decimal mark, nothing around them: always finite and never negative.
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(text)) return null;
  return new D(text).toFixed();
}

/** Checks a limit order's price against the live book (docs/orders.md "Far-price guard"). */
export function checkPrice(input: PriceGuardInput): PriceGuardResult {
  const price = new D(input.price);
  const limit = positiveOrZero(input.limitPercent) ?? new D(DEFAULT_FAR_PRICE_PERCENT);
  const bid = positive(input.bestBid);
  const ask = positive(input.bestAsk);
  const best = input.side === "Buy" ? ask : bid;
  const quote = input.pair?.split("/")[1];
  const unit = quote ? ` ${quote}` : "";
  const override = input.override ?? CLI_FAR_PRICE_OVERRIDE;
  const priceText = price.toFixed();
  const limitText = limit.toFixed();
  const sideWord = input.side === "Buy" ? "Buy" : "Sell";

  if (input.live === false || best === null) {
    const bookWord = input.pair ? `${input.pair} ` : "";
    const why =
      input.live === false
        ? `no live ${bookWord}order book`
        : `no live ${bookWord}order book (no best ${input.side === "Buy" ? "ask" : "bid"})`;
    return {
      ok: false,
      reason: "no-book",
      price: priceText,
      best: null,
      distancePercent: null,
      costVsMid: null,
      mid: null,
      limitPercent: limitText,
      message: `${sideWord} at ${priceText}${unit} not checked: ${why} to measure it against (far-price limit ${limitText}%); ${override}`,
    };
  }

  // Through the opposite best: a Buy above the ask, a Sell below the bid; never negative.
  const through = input.side === "Buy" ? price.minus(best) : best.minus(price);
  const distance = through.isGreaterThan(0) ? through.dividedBy(best).times(100) : new D(0);
  if (distance.isLessThanOrEqualTo(limit)) {
    return {
      ok: true,
      price: priceText,
      best: best.toFixed(),
      distancePercent: percentText(distance),
      limitPercent: limitText,
    };
  }

  const mid = positive(input.mid) ?? (bid !== null && ask !== null ? bid.plus(ask).dividedBy(2) : null);
  const amount = positive(input.amount);
  // The cost against the mid: only with a mid and an amount, and only when the order loses there.
  let costVsMid: string | null = null;
  let cost = "";
  if (mid !== null && amount !== null) {
    const lossPerUnit = input.side === "Buy" ? price.minus(mid) : mid.minus(price);
    if (lossPerUnit.isGreaterThan(0)) {
      costVsMid = lossPerUnit.times(amount).decimalPlaces(8, D.ROUND_HALF_UP).toFixed();
      cost = `, about ${costVsMid}${unit} ${input.side === "Buy" ? "more" : "less"} than at the mid ${mid.toFixed()}`;
    }
  }
  const direction = input.side === "Buy" ? "above the best ask" : "below the best bid";
  return {
    ok: false,
    reason: "far",
    price: priceText,
    best: best.toFixed(),
    distancePercent: percentText(distance),
    costVsMid,
    mid: mid === null ? null : mid.toFixed(),
    limitPercent: limitText,
    message: `${sideWord} price ${priceText}${unit} is ${percentText(distance)}% ${direction} ${best.toFixed()}${unit} (far-price limit ${limitText}%)${cost}; ${override}`,
  };
}

function positiveOrZero(value: BigNumber.Value | null | undefined): BigNumber | null {
  if (value === null || value === undefined || value === "") return null;
  const n = new D(value);
  return n.isFinite() && n.isGreaterThanOrEqualTo(0) ? n : null;
}
