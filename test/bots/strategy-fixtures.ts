/**
 * The markets, contexts and bots the strategy tests step through (test/bots/strategies.test.ts,
 * test/bots/strategies-edges.pin.test.ts): a pair with 2 price and 6 amount decimals, a random
 * source fixed at 0.5, and each bot of docs/decisions.md#d21-#d24 with a small valid setup.
 */
import { Decimal } from "../../lib/decimal.js";
import { BOT_SCHEMAS } from "../../lib/schemas.js";
import { floatingStrategy } from "../../server/bots/strategies/floating.js";
import { gridStrategy } from "../../server/bots/strategies/grid.js";
import { liquidityArrangerStrategy } from "../../server/bots/strategies/liquidity-arranger.js";
import { spreadDecompressionStrategy } from "../../server/bots/strategies/spread-decompression.js";
import type { Market, OwnOrder, PairDecimals, StepContext, Wanted } from "../../server/bots/strategies/types.js";

export const decimals = { price: 2, amount: 6 };
export const random = () => 0.5;

/** A book with the best bid and ask given (one unit at each unless the levels are), and its mid. */
export function market(
  bid: string,
  ask: string,
  extra: { bids?: [string, string][]; asks?: [string, string][] } = {},
): Market {
  const bestBid = new Decimal(bid);
  const bestAsk = new Decimal(ask);
  return {
    bids: extra.bids ?? [[bid, "1"]],
    asks: extra.asks ?? [[ask, "1"]],
    bestBid,
    bestAsk,
    mid: bestBid.plus(bestAsk).dividedBy(2),
  };
}

export function ctx(m: Market, open: OwnOrder[] = [], now = 1_000_000, d: PairDecimals = decimals): StepContext {
  return { now, market: m, decimals: d, open, random };
}

/** A wanted order as it rests on the book, unfilled. */
export function resting(w: Wanted, placedAt = 0, id = `id-${w.slot}`): OwnOrder {
  return { ...w, id, clientOrderId: `c-${w.slot}`, filled: "0", placedAt };
}

export const floating = (main: Record<string, unknown> = {}, modules: Record<string, unknown> = {}) =>
  floatingStrategy(
    BOT_SCHEMAS["floating-bot"].parse({
      main: { pair: "BTC/USDT", side: "Buy", quote: 100, percent: 1, marginOfError: 0.1, ...main },
      modules,
    }),
  );

export const grid = (extra: Record<string, unknown> = {}) =>
  gridStrategy(
    BOT_SCHEMAS["grid-bot"].parse({ pair: "BTC/USDT", quote: 400, percent: 2, profit: 1, RF: 0.5, size: 4, ...extra }),
  );

export const sd = (extra: Record<string, unknown> = {}) =>
  spreadDecompressionStrategy(
    BOT_SCHEMAS["spread-decompression-bot"].parse({
      pair: "BTC/USDT",
      delay: 10,
      refillPeriod: 60,
      minQuote: 2,
      ...extra,
    }),
  );

export const la = (extra: Record<string, unknown>) =>
  liquidityArrangerStrategy(
    BOT_SCHEMAS["liquidity-arranger-bot"].parse({
      pair: "BTC/USDT",
      ordersAmount: 5,
      P0: 90,
      P1: 98,
      Q0: 10,
      Q1: 50,
      ...extra,
    }),
  );
