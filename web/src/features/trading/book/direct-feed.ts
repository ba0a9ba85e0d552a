/**
 * The exchange's own public feed in the browser: the feed modules of exchanges/<id>/
 * are free of Node-only imports; each is its own chunk, loaded only for its exchange. Which
 * exchanges the browser opens itself, and the same-origin relay a feed uses as its REST base
 * (bitteam's polling, kucoin's token), are the catalogue's `browserFeed` (docs/exchanges.md
 * "The browser's feed").
 */

import { CATALOGUE } from "../../../../../exchanges/catalogue.js";
import type { FeedRuntimeOptions } from "../../../../../exchanges/core/options.js";
import type { BookFeed } from "../../../../../exchanges/types.js";
import type { ExchangeId, RealExchangeId } from "../../../../../lib/types.js";

type FeedClass = new (pair: string, options: FeedRuntimeOptions) => BookFeed;

/**
 * One lazy import per real exchange (docs/exchanges.md "Hooks that stay"): the bundler makes a
 * chunk only of a literal path. Keyed by every id, so a new exchange does not compile without it.
 */
const FEEDS: Readonly<Record<RealExchangeId, () => Promise<FeedClass>>> = {
  bingx: () => import("../../../../../exchanges/bingx/feed.js").then((m) => m.BingxFeed),
  bitget: () => import("../../../../../exchanges/bitget/feed.js").then((m) => m.BitgetFeed),
  bitmart: () => import("../../../../../exchanges/bitmart/feed.js").then((m) => m.BitmartFeed),
  bitrue: () => import("../../../../../exchanges/bitrue/feed.js").then((m) => m.BitrueFeed),
  bitteam: () => import("../../../../../exchanges/bitteam/feed.js").then((m) => m.BitteamFeed),
  bybit: () => import("../../../../../exchanges/bybit/feed.js").then((m) => m.BybitFeed),
  coinstore: () => import("../../../../../exchanges/coinstore/feed.js").then((m) => m.CoinstoreFeed),
  gate: () => import("../../../../../exchanges/gate/feed.js").then((m) => m.GateFeed),
  htx: () => import("../../../../../exchanges/htx/feed.js").then((m) => m.HtxFeed),
  kucoin: () => import("../../../../../exchanges/kucoin/feed.js").then((m) => m.KucoinFeed),
  lbank: () => import("../../../../../exchanges/lbank/feed.js").then((m) => m.LbankFeed),
  mexc: () => import("../../../../../exchanges/mexc/feed.js").then((m) => m.MexcFeed),
  okx: () => import("../../../../../exchanges/okx/feed.js").then((m) => m.OkxFeed),
  probit: () => import("../../../../../exchanges/probit/feed.js").then((m) => m.ProbitFeed),
  xt: () => import("../../../../../exchanges/xt/feed.js").then((m) => m.XtFeed),
};

function browserFeed(exchange: string) {
  return Object.hasOwn(CATALOGUE, exchange) ? CATALOGUE[exchange as ExchangeId].browserFeed : null;
}

/** True when the browser opens this exchange's feed itself (paper's book comes from the server). */
export function hasDirectFeed(exchange: string): boolean {
  return browserFeed(exchange) !== null && Object.hasOwn(FEEDS, exchange);
}

/**
 * The exchange's feed, not started; throws when it cannot be built here. It is opened at the
 * venue's own default depth and channel, as the CLI, the TUI and the server open it (bitget's
 * `books15`, docs/exchange-rules.md#feeds): the panel's depth only chooses how many levels it shows.
 */
export async function createDirectFeed(exchange: string, pair: string): Promise<BookFeed> {
  const info = browserFeed(exchange);
  if (!info || !hasDirectFeed(exchange)) throw new Error(`no browser feed for ${exchange}`);
  const Feed = await FEEDS[exchange as RealExchangeId]();
  const baseUrl = info.relay ? `${window.location.origin}${info.relay}` : undefined;
  // compressed frames (htx, bingx, bitmart) inflate with the browser's DecompressionStream by default
  return new Feed(pair, baseUrl ? { baseUrl } : {});
}
