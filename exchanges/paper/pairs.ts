import { ExchangeError } from "../../lib/errors.js";
import { parsePair } from "../../lib/pair.js";

/**
 * The pairs paper trades. Prices and amounts are integer multiples of a tick (10^-priceDecimals)
 * and a lot (10^-amountDecimals), so the synthetic market works on exact integers.
 */
export interface PaperPair {
  /** BTC/USDT */
  pair: string;
  base: string;
  quote: string;
  priceDecimals: number;
  amountDecimals: number;
  /** where the synthetic mid price starts and around which it wanders */
  startMid: string;
  /** price distance between two synthetic levels, in ticks */
  levelTicks: number;
  /** the smallest and largest amount of one synthetic level, in lots */
  levelLots: readonly [min: number, max: number];
}

export const PAPER_PAIRS: readonly PaperPair[] = [
  {
    pair: "BTC/USDT",
    base: "BTC",
    quote: "USDT",
    priceDecimals: 2,
    amountDecimals: 6,
    startMid: "65000",
    levelTicks: 100,
    levelLots: [1_000, 250_000],
  },
  {
    pair: "ETH/USDT",
    base: "ETH",
    quote: "USDT",
    priceDecimals: 2,
    amountDecimals: 4,
    startMid: "3200",
    levelTicks: 10,
    levelLots: [500, 40_000],
  },
  {
    pair: "SOL/USDT",
    base: "SOL",
    quote: "USDT",
    priceDecimals: 3,
    amountDecimals: 2,
    startMid: "150",
    levelTicks: 10,
    levelLots: [100, 30_000],
  },
  {
    pair: "ETH/BTC",
    base: "ETH",
    quote: "BTC",
    priceDecimals: 6,
    amountDecimals: 4,
    startMid: "0.049",
    levelTicks: 2,
    levelLots: [500, 40_000],
  },
];

/**
 * What a fresh paper account holds (documented in the README): 10 000 USDT, 1 BTC, 10 ETH and
 * 100 SOL. Every currency of PAPER_PAIRS appears in the balances, at 0 when not listed here.
 */
export const DEMO_BALANCES: Readonly<Record<string, string>> = { USDT: "10000", BTC: "1", ETH: "10", SOL: "100" };

const BY_NAME = new Map(PAPER_PAIRS.map((p) => [p.pair, p]));

/** The currencies paper knows, in a stable order. */
export const PAPER_CURRENCIES: readonly string[] = [...new Set(PAPER_PAIRS.flatMap((p) => [p.base, p.quote]))].sort();

/** The pairs paper trades, as BTC/USDT strings. */
export function listPaperPairs(): string[] {
  return PAPER_PAIRS.map((p) => p.pair);
}

/** Finds a pair written BTC/USDT (any case); an unknown pair is bad input that names the known ones. */
export function paperPair(pair: string): PaperPair {
  const { base, quote } = parsePair(String(pair ?? ""), "paper");
  const found = BY_NAME.get(`${base}/${quote}`);
  if (!found) {
    throw new ExchangeError("paper", `Unknown pair '${pair}'. Known pairs on paper: ${listPaperPairs().join(", ")}`, {
      kind: "bad-input",
    });
  }
  return found;
}
