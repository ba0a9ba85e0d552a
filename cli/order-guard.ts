/**
 * What the CLI checks before an order leaves (docs/orders.md): the far-price guard against the
 * exchange's public book and the look-up of a client order id already used (the pair's decimals:
 * cli/pair-rules.ts).
 */

import { paperBook } from "../exchanges/paper/index.js";
import type { ExchangeAdapter } from "../exchanges/types.js";
import { Decimal } from "../lib/decimal.js";
import { ExchangeError } from "../lib/errors.js";
import {
  CLI_FAR_PRICE_OVERRIDE,
  checkPrice,
  DEFAULT_FAR_PRICE_PERCENT,
  type PriceGuardRefusal,
} from "../lib/price-guard.js";
import type { ExchangeId, Order, Side } from "../lib/types.js";
import type { Context } from "./context.js";
import { openBookFeed } from "./exchange.js";

/** How long buy, sell and batch wait for the public book before refusing as "no live book". */
export const GUARD_BOOK_TIMEOUT_MS = 5_000;

export interface GuardFlags {
  /** --allow-far-price: send without the check (and without fetching the book) */
  allowFarPrice?: boolean;
  /** --far-price-percent N, already checked */
  farPricePercent?: string;
}

export interface GuardedOrder {
  side: Side;
  price: string;
  amount: string;
}

/** The best prices of the pair's public book, or null when none arrived in time. */
export interface BestPrices {
  bestBid: string | undefined;
  bestAsk: string | undefined;
  mid: string | undefined;
}

/** The far-price limit: --far-price-percent, else the account's stored setting, else 5 (docs/orders.md). */
export async function farPriceLimit(ctx: Context, id: ExchangeId, flags: GuardFlags): Promise<string> {
  if (flags.farPricePercent !== undefined) return flags.farPricePercent;
  try {
    const { openStore } = await import("./store.js");
    const stored = (await openStore()).settings(id, ctx.options.account).farPricePercent;
    if (stored !== undefined) return stored;
  } catch {
    // An unreadable store has no setting to offer; the credentials path reports it where it matters.
  }
  return String(DEFAULT_FAR_PRICE_PERCENT);
}

/**
 * The pair's best prices: on paper the synthetic book that fills the order, elsewhere the feed
 * `spotdesk book` reads (websocket or REST snapshot), waited for at most GUARD_BOOK_TIMEOUT_MS.
 */
export async function bestPrices(ctx: Context, id: ExchangeId, pair: string): Promise<BestPrices | null> {
  if (id === "paper") {
    const book = paperBook(pair, { now: ctx.now, depth: 1 });
    // The mid of the best prices, as the book shows it (not the synthetic market's own mid).
    return { bestBid: book.bids[0]?.[0], bestAsk: book.asks[0]?.[0], mid: undefined };
  }
  const feed = await openBookFeed(ctx, id, pair);
  try {
    feed.start();
    ctx.out.progress(`${pair}: reading the book to check the price…`);
    const { firstBook } = await import("./book-view.js");
    await firstBook(feed, GUARD_BOOK_TIMEOUT_MS);
    return { bestBid: feed.book.bestBid()?.[0], bestAsk: feed.book.bestAsk()?.[0], mid: feed.book.midPrice() };
  } catch {
    return null;
  } finally {
    ctx.out.clearProgress();
    feed.stop();
  }
}

/**
 * The far-price guard of the CLI (docs/orders.md "Far-price guard"): every order is measured
 * against the opposite best price; one refusal stops them all, before anything is sent, with
 * exit code 2. --allow-far-price skips the check and the book.
 */
export async function guardPrices(
  ctx: Context,
  id: ExchangeId,
  pair: string,
  orders: readonly GuardedOrder[],
  flags: GuardFlags,
): Promise<void> {
  if (flags.allowFarPrice || orders.length === 0) return;
  const limitPercent = await farPriceLimit(ctx, id, flags);
  const best = await bestPrices(ctx, id, pair);
  const override = `${CLI_FAR_PRICE_OVERRIDE}, or set --far-price-percent`;
  orders.forEach((order, index) => {
    const result = checkPrice({
      side: order.side,
      price: order.price,
      amount: order.amount,
      bestBid: best?.bestBid,
      bestAsk: best?.bestAsk,
      mid: best?.mid,
      limitPercent,
      pair,
      live: best !== null,
      override,
    });
    if (!result.ok) throw guardError(id, result, orders.length > 1 ? index : undefined);
  });
}

function guardError(id: ExchangeId, refusal: PriceGuardRefusal, index: number | undefined): ExchangeError {
  const prefix = index === undefined ? "" : `Batch item ${index + 1}: `;
  const error = new ExchangeError(id, `${prefix}Refused, nothing sent: ${refusal.message}`, { kind: "bad-input" });
  return Object.assign(error, {
    details: {
      guard: {
        reason: refusal.reason,
        price: refusal.price,
        best: refusal.best,
        distancePercent: refusal.distancePercent,
        limitPercent: refusal.limitPercent,
        costVsMid: refusal.costVsMid,
      },
    },
  });
}

/**
 * After a refused create with a client order id: the order the exchange already holds under that
 * id (a concurrent retry won the race), or undefined when the refusal had another cause.
 */
export async function raceWinner(
  adapter: ExchangeAdapter,
  pair: string,
  clientOrderId: string,
  error: unknown,
): Promise<Order | undefined> {
  if (!(error instanceof ExchangeError) || (error.kind !== "bad-input" && error.kind !== "invalid-order")) {
    return undefined;
  }
  try {
    return await adapter.findOrderByClientOrderId(pair, clientOrderId);
  } catch {
    return undefined;
  }
}

/**
 * How an order found by client order id differs from the one the command asked for: a retry is
 * meant to be the same order, so a difference is worth telling (nothing is sent either way).
 */
export function differences(existing: Order, wanted: GuardedOrder): string {
  const diffs: string[] = [];
  if (existing.side !== wanted.side) diffs.push(`side ${existing.side}, not ${wanted.side}`);
  const same = (a: string, b: string) => {
    try {
      return new Decimal(a).isEqualTo(b);
    } catch {
      return a === b;
    }
  };
  if (!same(existing.price, wanted.price)) diffs.push(`price ${existing.price}, not ${wanted.price}`);
  if (!same(existing.amount, wanted.amount)) diffs.push(`amount ${existing.amount}, not ${wanted.amount}`);
  return diffs.length === 0 ? "" : ` (it has ${diffs.join(", ")})`;
}

/** "Buy 0.01 BTC/USDT at 60000": an order's terms as the refusal names them. */
function terms(order: { side: Side; amount: string; pair: string; price: string }): string {
  return `${order.side} ${order.amount} ${order.pair} at ${order.price}`;
}

/**
 * docs/orders.md "Client order ids": an order found under the client order id must be the order
 * asked for. Same terms: it is the answer ("already done", exit 0). Other side, price, amount or
 * pair: refused before anything is sent, both orders' terms named (kind bad-input, exit 2).
 */
export function assertSameTerms(
  id: ExchangeId,
  clientOrderId: string,
  existing: Order,
  wanted: GuardedOrder & { pair: string },
): void {
  const otherPair = existing.pair !== "" && existing.pair !== wanted.pair;
  if (!otherPair && differences(existing, wanted) === "") return;
  throw new ExchangeError(
    id,
    `Client order id '${clientOrderId}' is already used by order ${existing.id}: ${terms(existing)} (${existing.status ?? "unknown"}); this order asks ${terms(wanted)}: nothing sent`,
    { kind: "bad-input" },
  );
}

/** A venue's refusal of a create because its client order id is taken (paper: "Duplicate clientOrderId"). */
const DUPLICATE_RE = /duplicate|already (exists|used)|exists/i;

/**
 * The create was refused as a duplicate and no order of this pair holds the id: another pair's
 * order does (kind bad-input, exit 2, the venue's own words kept).
 */
export function usedElsewhere(
  id: ExchangeId,
  clientOrderId: string,
  wanted: GuardedOrder & { pair: string },
  error: unknown,
): ExchangeError | undefined {
  if (!(error instanceof ExchangeError) || !DUPLICATE_RE.test(error.detail)) return undefined;
  return new ExchangeError(
    id,
    `Client order id '${clientOrderId}' is already used by another order, not on ${wanted.pair} (${error.detail}); this order asks ${terms(wanted)}: nothing sent`,
    { kind: "bad-input", cause: error },
  );
}
