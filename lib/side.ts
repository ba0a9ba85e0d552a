import type { Side } from "./types.js";

/**
 * The shared side parser of seed 001 §3: exchanges write buy/BUY/Buy/bid/1 and
 * sell/SELL/Sell/ask/2; everything becomes Buy or Sell.
 */
export function parseSide(raw: unknown): Side {
  const text = String(raw).trim().toLowerCase();
  if (text === "buy" || text === "bid" || text === "b" || text === "1") return "Buy";
  if (text === "sell" || text === "ask" || text === "s" || text === "2") return "Sell";
  throw new Error(`Unknown order side '${String(raw)}'`);
}
