/**
 * The USDT value of a pair's quote currency, for limits stated in USDT (docs/decisions.md#d21,
 * docs/bots.md "Floating"): 1 for a USDT pair; on paper the mid of QUOTE/USDT at the moment
 * (ETH/BTC: BTC/USDT's mid); elsewhere unknown unless the host supplies it.
 */
import { PAPER_PAIRS, paperBook } from "../../exchanges/paper/index.js";
import { Decimal } from "../../lib/decimal.js";

export function quoteOf(pair: string): string {
  return pair.split("/")[1]?.toUpperCase() ?? "";
}

/** USDT per unit of `pair`'s quote currency at `now`, or undefined when this process cannot price it. */
export function usdtPerQuote(exchange: string, pair: string, now: number): Decimal | undefined {
  const quote = quoteOf(pair);
  if (quote === "USDT") return new Decimal(1);
  if (exchange !== "paper") return undefined;
  const conversion = `${quote}/USDT`;
  if (!PAPER_PAIRS.some((p) => p.pair === conversion)) return undefined;
  return new Decimal(paperBook(conversion, { now: () => now, depth: 1 }).mid);
}
