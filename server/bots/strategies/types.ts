/**
 * The contract of a runnable strategy (docs/bots.md). A strategy is pure: from its state, the
 * book and the bot's own open orders it says which orders it wants, slot by slot; the runner
 * (server/bots/runner.ts) compares that with what rests on the exchange, cancels what no longer
 * fits (and waits for the cancel), then places what is missing. Prices and amounts are decimal
 * strings; state is plain JSON so it survives a restart.
 */
import type { Decimal } from "../../../lib/decimal.js";
import type { BookLevel, Side } from "../../../lib/types.js";

/** The live book as a strategy sees it (best first; the bot's own orders may be in it). */
export interface Market {
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
  bestBid: Decimal;
  bestAsk: Decimal;
  mid: Decimal;
}

/** The token pair's decimals (docs/decisions.md#d1): bot targets are truncated toward zero to them. */
export interface PairDecimals {
  price: number;
  amount: number;
}

/** One of the bot's own resting orders, known by its slot (docs/decisions.md#d25 client order ids). */
export interface OwnOrder {
  slot: number;
  id: string;
  clientOrderId: string;
  side: Side;
  price: string;
  amount: string;
  filled: string;
  /** when it was placed (ms); adopted orders keep the exchange's timestamp */
  placedAt: number;
}

/** An order the strategy wants resting in `slot`. */
export interface Wanted {
  slot: number;
  side: Side;
  price: string;
  amount: string;
}

export interface StepContext {
  now: number;
  market: Market;
  decimals: PairDecimals;
  /** the bot's open orders, one per slot */
  open: readonly OwnOrder[];
  /** uniform in [0, 1): seeded in tests */
  random: () => number;
  /**
   * USDT per unit of the pair's quote currency, at the mid now (1 for a USDT pair); undefined when
   * unknown. A spending limit is in USDT (docs/decisions.md#d21).
   */
  usdtPerQuote?: Decimal;
}

export interface StepResult<S> {
  state: S;
  want: Wanted[];
  /** the runner looks again at this time at the latest (ms) */
  wakeAt?: number;
  /** why something the setup asks for is not placed now (shown in the state as `note`) */
  note?: string;
}

/** An order of the bot that left the book: filled, or cancelled by the runner or by someone else. */
export interface ClosedOrder {
  order: OwnOrder;
  /** the amount filled, decimal string */
  filled: string;
  /** true when it filled completely */
  complete: boolean;
}

export interface ClosedContext {
  now: number;
  random: () => number;
  decimals: PairDecimals;
  /** as StepContext.usdtPerQuote, at the moment the order left the book */
  usdtPerQuote?: Decimal;
}

export interface Strategy<S> {
  /**
   * true when `closed` uses the filled amount of an order the runner cancelled (budgets, limits):
   * the runner then looks the order up after the cancel; otherwise a confirmed cancel is enough.
   */
  readonly tracksFills: boolean;
  /** the first state (no market needed: what depends on the book is done in the first step) */
  init(ctx: { now: number; random: () => number }): S;
  step(state: S, ctx: StepContext): StepResult<S>;
  /** whether a resting order still serves `want` (else it is cancelled and replaced) */
  keep(order: OwnOrder, want: Wanted, state: S, ctx: StepContext): boolean;
  closed(state: S, closed: ClosedOrder, ctx: ClosedContext): S;
  /** the seed's state records of this type (docs/dashboard-rules.md#entities "Bot state records") */
  view(state: S, open: readonly OwnOrder[]): Record<string, unknown>;
}
