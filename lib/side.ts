import type { Side } from "./types.js";

/**
 * The shared side parser of docs/exchange-rules.md#entities: exchanges write buy/BUY/Buy/bid/1 and
 * sell/SELL/Sell/ask/2 (htx: buy-limit, sell-market, …); everything becomes Buy or Sell.
 */
export function parseSide(raw: unknown): Side {
  // htx writes the side into the order type: buy-limit, sell-limit, buy-market, …
  const text = String(raw)
    .trim()
    .toLowerCase()
    .replace(/^(buy|sell)[-_][a-z_-]+$/, "$1");
  if (text === "buy" || text === "bid" || text === "b" || text === "1") return "Buy";
  if (text === "sell" || text === "ask" || text === "s" || text === "2") return "Sell";
  throw new Error(`Unknown order side '${String(raw)}'`);
}
