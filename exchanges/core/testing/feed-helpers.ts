import { expect } from "vitest";
import { Decimal } from "../../../lib/decimal.js";
import type { OrderBook } from "../../../lib/orderbook.js";
import type { BookLevel } from "../../../lib/types.js";
import { nodeFeedOptions } from "../../feed-node.js";
import { priceKey } from "../levels.js";
import type { FeedRuntimeOptions } from "../options.js";
import { recordingLogger, type TruthBook } from "./ws-mock.js";

/** Fast timings so reconnects and keep-alives happen within a test. */
export function testOptions(wsUrl: string, extra: Partial<FeedRuntimeOptions> = {}) {
  const logger = recordingLogger();
  const options: FeedRuntimeOptions = {
    ...nodeFeedOptions(),
    wsUrl,
    logger,
    keepAliveMs: 200,
    reconnectBaseMs: 20,
    reconnectMaxMs: 100,
    staleAfterMs: 0,
    ...extra,
  };
  return { options, logger };
}

const canon = (levels: readonly BookLevel[]): BookLevel[] =>
  levels.map(([p, a]) => [priceKey(p), new Decimal(a).toFixed()]);

/** The feed's book equals the exchange's true book, level by level, on both sides. */
export function expectSameBook(book: OrderBook, truth: TruthBook, n = 50): void {
  const got = book.top(n);
  const want = truth.top(n);
  expect(canon(got.bids)).toEqual(canon(want.bids));
  expect(canon(got.asks)).toEqual(canon(want.asks));
}

export function sameBook(book: OrderBook, truth: TruthBook, n = 50): boolean {
  const got = book.top(n);
  const want = truth.top(n);
  return JSON.stringify([canon(got.bids), canon(got.asks)]) === JSON.stringify([canon(want.bids), canon(want.asks)]);
}
