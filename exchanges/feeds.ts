import { ExchangeError } from "../lib/errors.js";
import { normalizePair } from "../lib/pair.js";
import { isExchangeId } from "../lib/types.js";
import { BingxFeed } from "./bingx/feed.js";
import { BitgetFeed } from "./bitget/feed.js";
import { BitmartFeed } from "./bitmart/feed.js";
import { BitrueFeed } from "./bitrue/feed.js";
import { BitteamFeed } from "./bitteam/feed.js";
import { BybitFeed } from "./bybit/feed.js";
import { CATALOGUE } from "./catalogue.js";
import { CoinstoreFeed } from "./coinstore/feed.js";
import type { FeedRuntimeOptions } from "./core/options.js";
import { GateFeed } from "./gate/feed.js";
import { HtxFeed } from "./htx/feed.js";
import { KucoinFeed } from "./kucoin/feed.js";
import { LbankFeed } from "./lbank/feed.js";
import { MexcFeed } from "./mexc/feed.js";
import { OkxFeed } from "./okx/feed.js";
import { createPaperFeed } from "./paper/index.js";
import { ProbitFeed } from "./probit/feed.js";
import type { BookFeed, FeedOptions } from "./types.js";
import { XtFeed } from "./xt/feed.js";

type FeedMaker = (pair: string, options: FeedRuntimeOptions) => BookFeed;

/**
 * One constructor per exchange; seed 001 §4 sources, plus okx, htx and lbank (PRODUCT D14). The
 * feed index runs in Node (CLI, TUI, server), so paper's feed, which reads its accounts on disk,
 * is one of them; browser code imports exchanges/<id>/feed.ts directly.
 */
const MAKERS: Partial<Record<string, FeedMaker>> = {
  paper: (pair, options) => createPaperFeed(pair, options),
  bingx: (pair, options) => new BingxFeed(pair, options),
  bitget: (pair, options) => new BitgetFeed(pair, options),
  bitmart: (pair, options) => new BitmartFeed(pair, options),
  bitrue: (pair, options) => new BitrueFeed(pair, options),
  bitteam: (pair, options) => new BitteamFeed(pair, options),
  bybit: (pair, options) => new BybitFeed(pair, options),
  coinstore: (pair, options) => new CoinstoreFeed(pair, options),
  gate: (pair, options) => new GateFeed(pair, options),
  htx: (pair, options) => new HtxFeed(pair, options),
  kucoin: (pair, options) => new KucoinFeed(pair, options),
  lbank: (pair, options) => new LbankFeed(pair, options),
  mexc: (pair, options) => new MexcFeed(pair, options),
  okx: (pair, options) => new OkxFeed(pair, options),
  probit: (pair, options) => new ProbitFeed(pair, options),
  xt: (pair, options) => new XtFeed(pair, options),
};

/**
 * The live public order book of one pair on one exchange. Options beyond FeedOptions
 * (FeedRuntimeOptions: inflate, intervals) ride along in the same object; in Node spread
 * nodeFeedOptions() from exchanges/feed-node.ts in. Nothing starts until `start()`.
 */
export function createFeed(id: string, pair: string, options: FeedOptions): BookFeed {
  if (!isExchangeId(id)) throw new ExchangeError("spotdesk", `Unknown exchange '${id}'`, { kind: "bad-input" });
  const normalized = normalizePair(pair, id);
  const make = MAKERS[id];
  if (!make) throw new ExchangeError(id, `No live order book for ${CATALOGUE[id].name} yet`, { kind: "unsupported" });
  return make(normalized, options as FeedRuntimeOptions);
}

/** Exchanges whose feed is built. */
export function feedExchanges(): string[] {
  return Object.keys(MAKERS);
}
