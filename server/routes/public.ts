/**
 * Public calls: GET /health (with `firstRun`: no user yet, docs/dashboard.md "First run"), the order-book relay GET /book/{exchange}/{pair} (docs/decisions.md#d14) and
 * paper's candle history GET /candles/paper/{pair} (docs/decisions.md#d13, the trading view's built-in chart).
 */

import { MAX_CANDLE_SECONDS, MAX_CANDLES, paperCandlesInTurns } from "../../exchanges/paper/candles.js";
import { API_ERROR } from "../../lib/api.js";
import { isExchangeError } from "../../lib/errors.js";
import type { App } from "../app.js";
import { ApiError, taskFailed } from "../errors.js";
import { PassThroughJson, type RouteHandlers } from "../http.js";
import { BookRelay } from "../live.js";
import { TurnQueue } from "../turns.js";

/** docs/exchange-rules.md#chart: the chart's 5-minute interval. */
const DEFAULT_CANDLE_SECONDS = 300;
/** Candle answers kept as JSON text: the same call within its second is one look-up (docs/server-limits.md "Bounded work"). */
const CANDLE_ANSWERS = 32;
/** Candle histories waiting for their turn; one more is refused with 604 (docs/server-limits.md "Bounded work"). */
export const CANDLE_QUEUE = 16;

export function publicRoutes(app: App, relay: BookRelay) {
  /** by pair, interval, limit and second, oldest first */
  const candleAnswers = new Map<string, PassThroughJson>();
  /** One history is sampled at a time: between two of its turns /health waits a few ms, not one turn per caller. */
  const candleTurns = new TurnQueue(CANDLE_QUEUE);
  return {
    async health() {
      // the database answers; with no user yet the registration page says the setup code goes in Code
      const firstRun = (await app.storage.countUsers()) === 0;
      return { status: "ok", storage: app.storage.kind, time: app.now(), firstRun };
    },
    async book(ctx) {
      const { exchange, pair } = BookRelay.parse(ctx.params.exchange!, ctx.params.pair!);
      const depth = Math.min(Math.max(Number(ctx.query.get("depth") ?? 20) || 20, 1), 50);
      try {
        return await relay.snapshot(exchange, pair, depth);
      } catch (error) {
        if (isExchangeError(error))
          throw new ApiError(API_ERROR.EXCHANGE_FAILED, { msg: error.message, kind: error.kind });
        throw error;
      }
    },
    async candles(ctx) {
      const { exchange, pair } = BookRelay.parse(ctx.params.exchange!, ctx.params.pair!);
      // Only paper has a history of its own; other exchanges' charts draw the live mids (docs/web-trading.md "Chart").
      if (exchange !== "paper") throw taskFailed(`No candle history for ${exchange}: only paper's market keeps one`);
      const interval = Number(ctx.query.get("interval") ?? DEFAULT_CANDLE_SECONDS);
      const limit = Number(ctx.query.get("limit") ?? 200);
      if (!Number.isInteger(interval) || interval < 1 || interval > MAX_CANDLE_SECONDS)
        throw taskFailed(`Invalid interval '${ctx.query.get("interval")}': seconds from 1 to ${MAX_CANDLE_SECONDS}`);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CANDLES)
        throw taskFailed(`Invalid limit '${ctx.query.get("limit")}': 1 to ${MAX_CANDLES} candles`);
      // bounded work: at most 200,000 mid samples, a few ms per turn of the event loop, and the
      // candles of a call before are cached (docs/server-limits.md "Bounded work")
      const now = app.now();
      const key = `${pair}|${interval}|${limit}|${Math.floor(now / 1000)}`;
      const known = candleAnswers.get(key);
      if (known) return known;
      try {
        const candles = await candleTurns.run(() =>
          paperCandlesInTurns(pair, { intervalSec: interval, limit, now: () => now }),
        );
        const answer = new PassThroughJson(200, JSON.stringify(candles));
        candleAnswers.set(key, answer);
        if (candleAnswers.size > CANDLE_ANSWERS) candleAnswers.delete(candleAnswers.keys().next().value!);
        return answer;
      } catch (error) {
        if (isExchangeError(error)) throw taskFailed(error.detail);
        throw error;
      }
    },
  } satisfies RouteHandlers;
}
