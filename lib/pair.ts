import { ExchangeError } from "./errors.js";

export interface ParsedPair {
  base: string;
  quote: string;
}

const PAIR_RE = /^([A-Za-z0-9]{1,20})\/([A-Za-z0-9]{1,20})$/;

/** Parses a pair written BTC/USDT (the CLI's and the dashboard's form), upper-casing it. */
export function parsePair(pair: string, exchange = "spotdesk"): ParsedPair {
  const match = PAIR_RE.exec(pair.trim());
  if (!match) {
    throw new ExchangeError(exchange, `Invalid pair '${pair}': write it as BASE/QUOTE, for example BTC/USDT`, {
      kind: "bad-input",
    });
  }
  return { base: match[1]!.toUpperCase(), quote: match[2]!.toUpperCase() };
}

export function normalizePair(pair: string, exchange?: string): string {
  const { base, quote } = parsePair(pair, exchange);
  return `${base}/${quote}`;
}

/** Joins base and quote the way an exchange writes symbols: BTC-USDT, btcusdt, BTC_USDT, … */
export function exchangeSymbol(pair: string, separator: "" | "-" | "_", lowerCase = false): string {
  const { base, quote } = parsePair(pair);
  const symbol = `${base}${separator}${quote}`;
  return lowerCase ? symbol.toLowerCase() : symbol;
}

/** Pair lists are sorted by pair, code unit by code unit (docs/exchange-rules.md#pairs). */
export function byPair(a: { pair: string }, b: { pair: string }): number {
  return a.pair < b.pair ? -1 : a.pair > b.pair ? 1 : 0;
}
