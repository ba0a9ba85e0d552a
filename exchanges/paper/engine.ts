import { Decimal } from "../../lib/decimal.js";
import { ExchangeError, POST_ONLY_REFUSED } from "../../lib/errors.js";
import type { Balances, Side } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";
import {
  BOOK_LEVELS,
  BUCKET_MS,
  bucketOf,
  LEVEL_REFRESH_BUCKETS,
  type MarketSide,
  type SyntheticMarket,
  syntheticMarket,
} from "./market.js";
import { type PaperPair, paperPair } from "./pairs.js";
import {
  ALL_PAIRS,
  DEFAULT_PAPER_FEES,
  type PaperFees,
  type PaperOrderRecord,
  type PaperState,
  StateChanges,
  setCountdown,
} from "./state.js";

/** Which side of a fill the account's order was. */
export type Liquidity = "maker" | "taker";

/**
 * paper's matching engine over one account's state. It works on the plain JSON state that
 * store.ts keeps, and does no I/O itself: one call of the adapter takes the account's state,
 * replays the market up to now (fills of resting orders), applies the operation, and the store
 * writes the rows it changed (every change goes through `changes`).
 *
 * Rules:
 * - A new limit order first takes the synthetic liquidity it crosses, at the book's prices (it is
 *   the taker); the rest rests, good till cancelled.
 * - A resting order fills when the synthetic market later crosses it, at the order's own price
 *   (it is the maker), from the liquidity on the crossing levels.
 * - Resting orders share that liquidity by price-time priority: the best price first, and at the
 *   same price the earlier order first.
 * - Liquidity an order took stays taken until its level's amount is redrawn (LEVEL_REFRESH_BUCKETS),
 *   so the same synthetic lots never fill twice.
 * - Self-trade prevention: an account's orders never match each other (an exchange's STP;
 *   docs/product.md#bots: self-matching is wash trading).
 * - Fees (docs/paper-store.md "Fees"): the account's maker fee on a resting order's fill, its taker
 *   fee on what a new order takes (0.1% each unless set), charged in the currency the fill pays out
 *   (a buy's base, a sell's quote), so nothing more is locked than the order's price × amount.
 */

/** Closed and canceled orders kept for fetchOrder; older ones are dropped. */
export const HISTORY_LIMIT = 1000;
/**
 * At most this many market steps are replayed per call: a gap longer than that is replayed in
 * coarser strides (a CLI call after a week off stays a few milliseconds).
 */
export const MAX_REPLAY_STEPS = 2000;

/** An order that passed validation: a known pair, price and amount truncated to its decimals and > 0. */
export interface ValidOrder {
  pair: PaperPair;
  side: Side;
  price: string;
  amount: string;
  clientOrderId: string;
  /** maker only: refused when it would cross the book (docs/orders.md "Post-only") */
  postOnly?: boolean;
}

export class PaperEngine {
  readonly state: PaperState;
  /** true once the state holds something worth saving */
  dirty = false;
  private readonly seed: string;
  /** every row this engine changed, for the store's journal */
  readonly changes: StateChanges;

  constructor(state: PaperState, seed: string, changes: StateChanges = new StateChanges()) {
    this.state = state;
    this.seed = seed;
    this.changes = changes;
  }

  private market(pair: string): SyntheticMarket {
    return syntheticMarket(paperPair(pair), this.seed);
  }

  // ---- balances ----

  private balance(currency: string): { free: Decimal; locked: Decimal } {
    const row = this.state.balances[currency] ?? { free: "0", locked: "0" };
    return { free: new Decimal(row.free), locked: new Decimal(row.locked) };
  }

  private setBalance(currency: string, free: Decimal, locked: Decimal): void {
    this.state.balances[currency] = { free: free.toFixed(), locked: locked.toFixed() };
    this.changes.balance(currency);
    this.dirty = true;
  }

  balances(): Balances {
    const out: Balances = {};
    for (const currency of Object.keys(this.state.balances).sort()) {
      const row = this.state.balances[currency]!;
      out[currency] = { f: row.free, l: row.locked };
    }
    return out;
  }

  // ---- market replay ----

  /**
   * Applies every fill the synthetic market caused since the last call, bucket by bucket up to
   * `target` (in strides when the gap is longer than MAX_REPLAY_STEPS).
   */
  replayTo(target: number): void {
    const from = this.state.lastBucket;
    if (target <= from) return;
    const open = this.state.orders.filter((o) => o.status === "open");
    this.state.lastBucket = target;
    if (open.length === 0) {
      this.pruneTaken();
      return;
    }
    // Progress is worth saving: it keeps the next replay short.
    this.dirty = true;
    this.changes.progress();
    const books = this.restingBooks(open);
    const gap = target - from;
    const stride = gap <= MAX_REPLAY_STEPS ? 1 : Math.ceil(gap / MAX_REPLAY_STEPS);
    const steps = Math.ceil(gap / stride);
    for (let i = 1; i <= steps; i++) {
      const bucket = i === steps ? target : from + i * stride;
      for (const book of books) this.matchResting(book, bucket);
    }
    this.pruneTaken();
  }

  // ---- cancel-all-after countdowns (docs/paper-store.md "Countdown") ----

  /** Arms the countdown of a pair (or of every pair, `*`) to fire at `deadline` ms; null disarms it. */
  armCountdown(key: string, deadline: number | null): void {
    if (deadline === null && this.state.countdowns?.[key] === undefined) return;
    setCountdown(this.state, key, deadline);
    this.changes.countdown(key);
    this.dirty = true;
  }

  /**
   * Fires every countdown whose deadline has passed, earliest first: the market is replayed up to
   * the deadline (fills before it count), then the pair's open orders (every pair's for `*`) are
   * cancelled as of the deadline and the countdown is disarmed. Whichever process next calls on
   * the account does this, so a dead arming process still empties the book.
   */
  fireCountdowns(nowMs: number): void {
    const due = Object.entries(this.state.countdowns ?? {})
      .filter(([, deadline]) => deadline <= nowMs)
      .sort((a, b) => a[1] - b[1]);
    for (const [key, deadline] of due) {
      this.replayTo(bucketOf(deadline));
      for (const order of this.state.orders) {
        if (order.status === "open" && (key === ALL_PAIRS || order.pair === key)) this.cancel(order, deadline);
      }
      this.armCountdown(key, null);
    }
  }

  /** Open orders per pair, buys best (highest) first and sells best (lowest) first, then by time. */
  private restingBooks(open: PaperOrderRecord[]): RestingBook[] {
    const byPair = new Map<string, RestingBook>();
    for (const order of open) {
      let book = byPair.get(order.pair);
      if (!book) {
        book = { market: this.market(order.pair), buys: [], sells: [] };
        byPair.set(order.pair, book);
      }
      const entry = { order, ticks: book.market.ticksOf(order.price) };
      (order.side === "Buy" ? book.buys : book.sells).push(entry);
    }
    for (const book of byPair.values()) {
      // Array order is placement order, and sort is stable: equal prices keep time priority.
      book.buys.sort((a, b) => b.ticks - a.ticks);
      book.sells.sort((a, b) => a.ticks - b.ticks);
    }
    return [...byPair.values()];
  }

  /** The synthetic flow of one bucket against the account's resting orders of one pair. */
  private matchResting(book: RestingBook, bucket: number): void {
    const { market } = book;
    const bestAsk = market.bestAskTicks(bucket);
    for (const entry of book.buys) {
      if (entry.ticks < bestAsk) break;
      if (entry.order.status !== "open" || entry.order.bucket >= bucket) continue;
      // The market fell through the bid: sellers hit it at the bid's price.
      this.takeLiquidity(
        market,
        entry.order,
        "ask",
        bucket,
        (ticks) => ticks <= entry.ticks,
        () => entry.ticks,
        "maker",
      );
    }
    const bestBid = market.bestBidTicks(bucket);
    for (const entry of book.sells) {
      if (entry.ticks > bestBid) break;
      if (entry.order.status !== "open" || entry.order.bucket >= bucket) continue;
      this.takeLiquidity(
        market,
        entry.order,
        "bid",
        bucket,
        (ticks) => ticks >= entry.ticks,
        () => entry.ticks,
        "maker",
      );
    }
  }

  /**
   * Walks the synthetic levels of `side` from the best while `crosses(levelTicks)`, filling the
   * order from what is left on each level, at `fillTicks(levelTicks)`.
   */
  private takeLiquidity(
    market: SyntheticMarket,
    order: PaperOrderRecord,
    side: MarketSide,
    bucket: number,
    crosses: (ticks: number) => boolean,
    fillTicks: (levelTicks: number) => number,
    liquidity: Liquidity,
  ): void {
    let remaining = market.lotsOf(new Decimal(order.amount).minus(order.filled));
    for (let k = 0; k < BOOK_LEVELS && remaining > 0; k++) {
      const ticks = market.levelPriceTicks(side, k, bucket);
      if (ticks <= 0 || !crosses(ticks)) break;
      const lots = market.levelLots(side, ticks, bucket);
      if (lots === 0) continue;
      const key = `${order.pair}|${side}|${ticks}|${market.levelEpoch(side, ticks, bucket)}`;
      const taken = this.state.taken[key]?.[0] ?? 0;
      const take = Math.min(lots - taken, remaining);
      if (take <= 0) continue;
      this.state.taken[key] = [taken + take, bucket];
      this.changes.taken(key);
      remaining -= take;
      this.fill(order, market, take, fillTicks(ticks), bucket * BUCKET_MS, liquidity);
    }
  }

  /** The account's fees (docs/paper-store.md "Fees"). */
  get fees(): PaperFees {
    return this.state.fees ?? DEFAULT_PAPER_FEES;
  }

  /** Sets the account's fees in percent (checked by the caller). */
  setFees(fees: PaperFees): void {
    this.state.fees = { maker: new Decimal(fees.maker).toFixed(), taker: new Decimal(fees.taker).toFixed() };
    this.changes.fees();
    this.dirty = true;
  }

  /** Moves balances for a fill of `lots` at `ticks` and advances the order; the fee comes off what it pays out. */
  private fill(
    order: PaperOrderRecord,
    market: SyntheticMarket,
    lots: number,
    ticks: number,
    atMs: number,
    liquidity: Liquidity,
  ): void {
    const { base, quote } = market.spec;
    const qty = new Decimal(market.amount(lots));
    const at = new Decimal(market.price(ticks));
    const limit = new Decimal(order.price);
    const rate = new Decimal(liquidity === "maker" ? this.fees.maker : this.fees.taker).div(100);
    let fee: Decimal;
    if (order.side === "Buy") {
      // The lock was price × amount at the order's limit; a fill below it gives the difference back.
      const q = this.balance(quote);
      this.setBalance(quote, q.free.plus(limit.minus(at).times(qty)), q.locked.minus(limit.times(qty)));
      fee = qty.times(rate);
      const b = this.balance(base);
      this.setBalance(base, b.free.plus(qty).minus(fee), b.locked);
    } else {
      const b = this.balance(base);
      this.setBalance(base, b.free, b.locked.minus(qty));
      fee = at.times(qty).times(rate);
      const q = this.balance(quote);
      this.setBalance(quote, q.free.plus(at.times(qty)).minus(fee), q.locked);
    }
    order.fee = fee.plus(order.fee ?? 0).toFixed();
    const filled = new Decimal(order.filled).plus(qty);
    order.filled = filled.toFixed();
    // the average fill price is cost / filled (Order.average); an order stored before the cost was
    // kept, and part-filled then, has no average
    if (order.cost !== undefined || filled.eq(qty))
      order.cost = at
        .times(qty)
        .plus(order.cost ?? 0)
        .toFixed();
    if (filled.isGreaterThanOrEqualTo(order.amount)) order.status = "closed";
    order.updatedAt = Math.max(order.updatedAt, atMs);
    this.changes.order(order);
  }

  /** Taken liquidity of levels that have been redrawn since is forgotten. */
  private pruneTaken(): void {
    const horizon = this.state.lastBucket - LEVEL_REFRESH_BUCKETS;
    for (const [key, [, bucket]] of Object.entries(this.state.taken)) {
      if (bucket < horizon) {
        delete this.state.taken[key];
        this.changes.taken(key);
        this.dirty = true;
      }
    }
  }

  // ---- orders ----

  /** Locks the funds, takes the crossing synthetic liquidity at `nowMs`, rests the rest. */
  place(order: ValidOrder, nowMs: number): PaperOrderRecord {
    const { pair, side, price, amount, clientOrderId } = order;
    const max = CATALOGUE.paper.limits.openOrders;
    if (max !== null && this.state.orders.filter((o) => o.status === "open" && o.pair === pair.pair).length >= max) {
      throw new ExchangeError("paper", `Too many open orders on ${pair.pair}: paper allows ${max} per pair`, {
        kind: "invalid-order",
      });
    }
    if (this.state.orders.some((o) => o.clientOrderId === clientOrderId)) {
      throw new ExchangeError("paper", `Duplicate clientOrderId '${clientOrderId}': an order with this id exists`, {
        kind: "invalid-order",
      });
    }
    const bucket = Math.max(this.state.lastBucket, bucketOf(nowMs));
    const market = this.market(pair.pair);
    const limit = market.ticksOf(price);
    if (order.postOnly) this.assertMakerOnly(market, side, limit, bucket);
    const currency = side === "Buy" ? pair.quote : pair.base;
    const need = side === "Buy" ? new Decimal(price).times(amount) : new Decimal(amount);
    const held = this.balance(currency);
    if (held.free.isLessThan(need)) {
      throw new ExchangeError(
        "paper",
        `Insufficient balance: a ${side === "Buy" ? "buy" : "sell"} of ${amount} ${pair.base} at ${price} needs ${need.toFixed()} ${currency}, ${held.free.toFixed()} ${currency} is free`,
        { kind: "insufficient-funds" },
      );
    }
    this.setBalance(currency, held.free.minus(need), held.locked.plus(need));

    const record: PaperOrderRecord = {
      id: String(this.state.nextId++),
      clientOrderId,
      pair: pair.pair,
      side,
      price,
      amount,
      filled: "0",
      status: "open",
      timestamp: nowMs,
      updatedAt: nowMs,
      bucket,
    };
    this.state.orders.push(record);
    this.changes.order(record);
    // The new order is the taker: it fills at the levels' own prices, up to its limit.
    if (side === "Buy")
      this.takeLiquidity(
        market,
        record,
        "ask",
        bucket,
        (t) => t <= limit,
        (t) => t,
        "taker",
      );
    else
      this.takeLiquidity(
        market,
        record,
        "bid",
        bucket,
        (t) => t >= limit,
        (t) => t,
        "taker",
      );
    this.dirty = true;
    return record;
  }

  /**
   * A post-only order that would take is refused, as the exchanges with a maker-only form refuse or
   * cancel it (docs/orders.md "Post-only"): a buy at or above the best ask, a sell at or below the
   * best bid. Nothing is locked or stored.
   */
  private assertMakerOnly(market: SyntheticMarket, side: Side, limit: number, bucket: number): void {
    const best = side === "Buy" ? market.bestAskTicks(bucket) : market.bestBidTicks(bucket);
    const crosses = side === "Buy" ? limit >= best : limit <= best;
    if (!crosses) return;
    const at = market.price(limit);
    const edge = side === "Buy" ? `the best ask ${market.price(best)}` : `the best bid ${market.price(best)}`;
    throw new ExchangeError(
      "paper",
      `Post-only order refused: a ${side === "Buy" ? "buy" : "sell"} at ${at} would take (${side === "Buy" ? "at or above" : "at or below"} ${edge}); nothing was placed`,
      { kind: "invalid-order", code: POST_ONLY_REFUSED },
    );
  }

  /** An order of this pair by id, else by client order id. */
  find(pair: string, id: string): PaperOrderRecord {
    const found =
      this.state.orders.find((o) => o.pair === pair && o.id === id) ??
      this.state.orders.find((o) => o.pair === pair && o.clientOrderId === id);
    if (!found) throw new ExchangeError("paper", `Order '${id}' not found on ${pair}`, { kind: "order-not-found" });
    return found;
  }

  openOrders(pair: string): PaperOrderRecord[] {
    return this.state.orders.filter((o) => o.pair === pair && o.status === "open");
  }

  /** Cancels an open order and unlocks what it still held. */
  cancel(record: PaperOrderRecord, nowMs: number): void {
    if (record.status !== "open") {
      throw new ExchangeError("paper", `Order '${record.id}' cannot be canceled: it is ${record.status}`, {
        kind: "invalid-order",
      });
    }
    const spec = paperPair(record.pair);
    const rest = new Decimal(record.amount).minus(record.filled);
    const currency = record.side === "Buy" ? spec.quote : spec.base;
    const unlock = record.side === "Buy" ? rest.times(record.price) : rest;
    const held = this.balance(currency);
    this.setBalance(currency, held.free.plus(unlock), held.locked.minus(unlock));
    record.status = "canceled";
    record.updatedAt = Math.max(record.updatedAt, nowMs);
    this.changes.order(record);
    this.dirty = true;
  }

  /**
   * Drops the oldest closed and canceled orders beyond HISTORY_LIMIT (the least recently updated;
   * at equal times the earlier placed).
   */
  trimHistory(): void {
    const orders = this.state.orders;
    // One pass counts the history and finds its oldest order: a full history loses one order per
    // call or so, and this runs on every call.
    let done = 0;
    let oldestAt = -1;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i]!;
      if (o.status === "open") continue;
      done++;
      if (oldestAt < 0 || o.updatedAt < orders[oldestAt]!.updatedAt) oldestAt = i;
    }
    const excess = done - HISTORY_LIMIT;
    if (excess <= 0) return;
    if (excess === 1) {
      this.changes.dropped(orders[oldestAt]!.id);
      orders.splice(oldestAt, 1);
      this.dirty = true;
      return;
    }
    const drop = new Set<PaperOrderRecord>();
    const sorted = orders.filter((o) => o.status !== "open").sort((a, b) => a.updatedAt - b.updatedAt);
    for (const o of sorted.slice(0, excess)) drop.add(o);
    for (const o of drop) this.changes.dropped(o.id);
    this.state.orders = orders.filter((o) => !drop.has(o));
    this.dirty = true;
  }
}

interface RestingEntry {
  order: PaperOrderRecord;
  ticks: number;
}

interface RestingBook {
  market: SyntheticMarket;
  buys: RestingEntry[];
  sells: RestingEntry[];
}
