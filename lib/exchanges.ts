import type { ExchangeId } from "./types.js";

export type FeedSource = "socket" | "polling" | "simulated";

export interface ExchangeInfo {
  id: ExchangeId;
  /** Display name (seed 000 §3 "Supported exchange names", PRODUCT D13). */
  name: string;
  /** Seed 001 §3: a passphrase is needed on bitmart, bitget, kucoin and okx. */
  needsPassphrase: boolean;
  /** Seed 001 §4 sources; okx, htx and lbank get live books too (PRODUCT D14). */
  feed: FeedSource;
  /** Default order-book depth, "20 or 50 depending on the exchange". */
  depth: 20 | 50;
}

const info = (
  id: ExchangeId,
  name: string,
  needsPassphrase: boolean,
  feed: FeedSource,
  depth: 20 | 50,
): ExchangeInfo => ({ id, name, needsPassphrase, feed, depth });

export const EXCHANGES: Record<ExchangeId, ExchangeInfo> = {
  paper: info("paper", "Paper (simulated)", false, "simulated", 20),
  bingx: info("bingx", "BingX", false, "socket", 20),
  bitget: info("bitget", "Bitget", true, "socket", 20),
  bitrue: info("bitrue", "Bitrue", false, "socket", 20),
  bitmart: info("bitmart", "Bitmart", true, "socket", 20),
  bitteam: info("bitteam", "BIT.TEAM", false, "polling", 50),
  bybit: info("bybit", "Bybit", false, "socket", 50),
  coinstore: info("coinstore", "Coinstore", false, "socket", 20),
  gate: info("gate", "Gate", false, "socket", 20),
  htx: info("htx", "HTX", false, "socket", 20),
  kucoin: info("kucoin", "Kucoin", true, "socket", 50),
  lbank: info("lbank", "LBank", false, "socket", 50),
  mexc: info("mexc", "MEXC", false, "socket", 20),
  okx: info("okx", "OKX", true, "socket", 50),
  probit: info("probit", "Probit", false, "socket", 50),
  xt: info("xt", "XT", false, "socket", 50),
};

export function exchangeName(id: ExchangeId): string {
  return EXCHANGES[id].name;
}
