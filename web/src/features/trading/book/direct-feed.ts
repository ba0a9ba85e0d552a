/**
 * The exchange's own public feed in the browser (PRODUCT D14): the feed modules of exchanges/feeds
 * are free of Node-only imports; each is its own chunk, loaded only for its exchange. bitteam's
 * polling and kucoin's token go through the server's gateway relays (seed 001 §7), same origin.
 */
import type { FeedRuntimeOptions } from "../../../../../exchanges/core/options.js";
import type { BookFeed } from "../../../../../exchanges/types.js";

type Maker = (pair: string, options: FeedRuntimeOptions) => Promise<BookFeed>;

const MAKERS: Record<string, Maker> = {
  bingx: async (p, o) => new (await import("../../../../../exchanges/bingx/feed.js")).BingxFeed(p, o),
  bitget: async (p, o) => new (await import("../../../../../exchanges/bitget/feed.js")).BitgetFeed(p, o),
  bitmart: async (p, o) => new (await import("../../../../../exchanges/bitmart/feed.js")).BitmartFeed(p, o),
  bitrue: async (p, o) => new (await import("../../../../../exchanges/bitrue/feed.js")).BitrueFeed(p, o),
  bitteam: async (p, o) =>
    new (await import("../../../../../exchanges/bitteam/feed.js")).BitteamFeed(p, {
      ...o,
      baseUrl: `${window.location.origin}/api/bitteam`,
    }),
  bybit: async (p, o) => new (await import("../../../../../exchanges/bybit/feed.js")).BybitFeed(p, o),
  coinstore: async (p, o) => new (await import("../../../../../exchanges/coinstore/feed.js")).CoinstoreFeed(p, o),
  gate: async (p, o) => new (await import("../../../../../exchanges/gate/feed.js")).GateFeed(p, o),
  htx: async (p, o) => new (await import("../../../../../exchanges/htx/feed.js")).HtxFeed(p, o),
  kucoin: async (p, o) =>
    new (await import("../../../../../exchanges/kucoin/feed.js")).KucoinFeed(p, {
      ...o,
      baseUrl: `${window.location.origin}/api/kucoin`,
    }),
  lbank: async (p, o) => new (await import("../../../../../exchanges/lbank/feed.js")).LbankFeed(p, o),
  mexc: async (p, o) => new (await import("../../../../../exchanges/mexc/feed.js")).MexcFeed(p, o),
  okx: async (p, o) => new (await import("../../../../../exchanges/okx/feed.js")).OkxFeed(p, o),
  probit: async (p, o) => new (await import("../../../../../exchanges/probit/feed.js")).ProbitFeed(p, o),
  xt: async (p, o) => new (await import("../../../../../exchanges/xt/feed.js")).XtFeed(p, o),
};

/** True when the browser opens this exchange's feed itself (paper's book comes from the server). */
export function hasDirectFeed(exchange: string): boolean {
  return exchange in MAKERS;
}

/** The exchange's feed, not started; throws when it cannot be built here. */
export async function createDirectFeed(exchange: string, pair: string, depth: number): Promise<BookFeed> {
  const make = MAKERS[exchange];
  if (!make) throw new Error(`no browser feed for ${exchange}`);
  // compressed frames (htx, bingx, bitmart) inflate with the browser's DecompressionStream by default
  return make(pair, { depth });
}
