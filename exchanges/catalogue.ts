/**
 * Every exchange's facts, one line each (docs/exchanges.md "Adding a sixteenth exchange"). Pure
 * data: the web, the CLI's cold-start chunk and the adapters all read it, so it imports nothing
 * that runs (a biome rule in biome.json keeps it so).
 */
import type { ExchangeId } from "../lib/types.js";
import { BINGX_INFO } from "./bingx/info.js";
import { BITGET_INFO } from "./bitget/info.js";
import { BITMART_INFO } from "./bitmart/info.js";
import { BITRUE_INFO } from "./bitrue/info.js";
import { BITTEAM_INFO } from "./bitteam/info.js";
import { BYBIT_INFO } from "./bybit/info.js";
import { COINSTORE_INFO } from "./coinstore/info.js";
import type { ExchangeInfo, Operation } from "./core/info.js";
import { GATE_INFO } from "./gate/info.js";
import { HTX_INFO } from "./htx/info.js";
import { KUCOIN_INFO } from "./kucoin/info.js";
import { LBANK_INFO } from "./lbank/info.js";
import { MEXC_INFO } from "./mexc/info.js";
import { OKX_INFO } from "./okx/info.js";
import { PAPER_INFO } from "./paper/info.js";
import { PROBIT_INFO } from "./probit/info.js";
import { XT_INFO } from "./xt/info.js";

export type {
  BrowserFeed,
  ClientOrderIdRule,
  ExchangeInfo,
  ExchangeLimits,
  FeedSource,
  Operation,
  PostOnlyForm,
} from "./core/info.js";

/** In display order: paper first, then the fifteen exchanges by id. */
export const CATALOGUE: Readonly<Record<ExchangeId, ExchangeInfo>> = {
  paper: PAPER_INFO,
  bingx: BINGX_INFO,
  bitget: BITGET_INFO,
  bitrue: BITRUE_INFO,
  bitmart: BITMART_INFO,
  bitteam: BITTEAM_INFO,
  bybit: BYBIT_INFO,
  coinstore: COINSTORE_INFO,
  gate: GATE_INFO,
  htx: HTX_INFO,
  kucoin: KUCOIN_INFO,
  lbank: LBANK_INFO,
  mexc: MEXC_INFO,
  okx: OKX_INFO,
  probit: PROBIT_INFO,
  xt: XT_INFO,
};

export function exchangeName(id: ExchangeId): string {
  return CATALOGUE[id].name;
}

/** Whether orders on this exchange need an API key; true for an id the catalogue does not know. */
export function needsApiKey(id: string): boolean {
  return !Object.hasOwn(CATALOGUE, id) || CATALOGUE[id as ExchangeId].needsApiKey;
}

export function isSupported(exchange: ExchangeId, operation: Operation): boolean {
  return !CATALOGUE[exchange].limits.unsupported.includes(operation);
}

/** Whether the exchange has a documented maker-only order form (docs/exchange-rules.md "Post-only"). */
export function supportsPostOnly(exchange: ExchangeId): boolean {
  return CATALOGUE[exchange].postOnly !== null;
}
