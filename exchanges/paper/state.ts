import { Decimal } from "../../lib/decimal.js";
import type { Order, Side } from "../../lib/types.js";
import { DEMO_BALANCES, PAPER_CURRENCIES, paperPair as paperPairSpec } from "./pairs.js";

/**
 * One paper account's state: what its snapshot file holds (store.ts), plus the changes its journal
 * adds (journal.ts). docs/paper-store.md describes both files.
 */

export type PaperOrderStatus = "open" | "closed" | "canceled";

export interface PaperOrderRecord {
  id: string;
  clientOrderId: string;
  pair: string;
  side: Side;
  price: string;
  amount: string;
  filled: string;
  /** price × amount of every fill so far, in the quote (absent on orders stored before it was kept) */
  cost?: string;
  /** the fees charged on every fill so far, in the currency the fill paid out (absent before fees were charged) */
  fee?: string;
  status: PaperOrderStatus;
  /** creation time, ms (the adapter's clock) */
  timestamp: number;
  updatedAt: number;
  /** the market bucket the order entered the book; the synthetic flow reaches it from the next bucket */
  bucket: number;
}

export type BalanceRow = { free: string; locked: string };

/** An account's fees in percent of a fill (docs/paper-store.md "Fees"): a resting order is the maker, a new one that takes is the taker. */
export interface PaperFees {
  maker: string;
  taker: string;
}

/** docs/paper-store.md "Fees": what an account charges until `spotdesk accounts set --maker-fee/--taker-fee` changes it. */
export const DEFAULT_PAPER_FEES: PaperFees = { maker: "0.1", taker: "0.1" };
/** The highest fee an account takes, in percent. */
export const MAX_PAPER_FEE_PERCENT = 10;
export type TakenEntry = [lots: number, bucket: number];

export interface PaperState {
  version: 2;
  account: string;
  createdAt: number;
  /** the number of the last journal entry this state includes (0: none) */
  seq: number;
  /** the last market bucket whose fills are applied */
  lastBucket: number;
  nextId: number;
  balances: Record<string, BalanceRow>;
  /** open orders and the most recent closed or canceled ones, in the order they were placed */
  orders: PaperOrderRecord[];
  /** synthetic liquidity taken: `${pair}|${side}|${ticks}|${epoch}` → [lots, bucket taken] */
  taken: Record<string, TakenEntry>;
  /**
   * Armed cancel-all-after countdowns (docs/paper-store.md "Countdown"): pair (or `*` for every
   * pair) → the deadline in ms. Absent on accounts that never armed one.
   */
  countdowns?: Record<string, number>;
  /** the account's fees; DEFAULT_PAPER_FEES when absent */
  fees?: PaperFees;
}

/** The countdowns key that covers every pair of the account. */
export const ALL_PAIRS = "*";

export const STATE_VERSION = 2;
/** The single-file state of spotdesk before the journal: read once, then rewritten as version 2. */
export const LEGACY_STATE_VERSION = 1;

export function newPaperState(
  account: string,
  nowMs: number,
  bucket: number,
  startingBalances?: Record<string, string>,
  fees?: PaperFees,
): PaperState {
  const balances: PaperState["balances"] = {};
  for (const currency of PAPER_CURRENCIES) balances[currency] = { free: "0", locked: "0" };
  for (const [currency, amount] of Object.entries(startingBalances ?? DEMO_BALANCES)) {
    balances[currency.toUpperCase()] = { free: new Decimal(amount).toFixed(), locked: "0" };
  }
  return {
    version: STATE_VERSION,
    account,
    createdAt: nowMs,
    seq: 0,
    lastBucket: bucket,
    nextId: 1,
    balances,
    orders: [],
    taken: {},
    ...(fees ? { fees: { ...fees } } : {}),
  };
}

/**
 * One journal entry: the rows one call changed, as they are after it (not the operation: replaying
 * an entry needs neither the market's seed nor a clock, so every process reads the same state).
 */
export interface JournalEntry {
  seq: number;
  lastBucket: number;
  nextId: number;
  /** balance rows as they are now */
  balances?: Record<string, BalanceRow>;
  /** orders placed or changed, whole */
  orders?: PaperOrderRecord[];
  /** ids of orders dropped from the history */
  dropped?: string[];
  /** taken liquidity as it is now; null: forgotten */
  taken?: Record<string, TakenEntry | null>;
  /** countdowns as they are now; null: disarmed or fired */
  countdowns?: Record<string, number | null>;
  /** the account's fees as they are now */
  fees?: PaperFees;
}

/**
 * What the engine changed during one call, so that only those rows are written (the cost of a call
 * does not grow with the account's history). `checkpoint()` marks the end of the market replay: a
 * call that fails after it without changing anything still keeps the replay.
 */
export class StateChanges {
  private readonly balanceKeys = new Set<string>();
  private readonly orderRecords = new Set<PaperOrderRecord>();
  private readonly droppedIds = new Set<string>();
  private readonly takenKeys = new Set<string>();
  private readonly countdownKeys = new Set<string>();
  private feesChanged = false;
  /** every change counted, also repeated ones */
  count = 0;
  private checkpointCount = 0;

  balance(currency: string): void {
    this.balanceKeys.add(currency);
    this.count++;
  }

  order(record: PaperOrderRecord): void {
    this.orderRecords.add(record);
    this.count++;
  }

  dropped(id: string): void {
    this.droppedIds.add(id);
    this.count++;
  }

  taken(key: string): void {
    this.takenKeys.add(key);
    this.count++;
  }

  countdown(key: string): void {
    this.countdownKeys.add(key);
    this.count++;
  }

  fees(): void {
    this.feesChanged = true;
    this.count++;
  }

  /** the replay moved the account's market clock over resting orders (lastBucket, always written) */
  progress(): void {
    this.count++;
  }

  checkpoint(): void {
    this.checkpointCount = this.count;
  }

  get changedSinceCheckpoint(): boolean {
    return this.count !== this.checkpointCount;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  /** The journal entry that brings the state on disk to `state`. */
  entry(state: PaperState, seq: number): JournalEntry {
    const entry: JournalEntry = { seq, lastBucket: state.lastBucket, nextId: state.nextId };
    if (this.balanceKeys.size > 0) {
      entry.balances = {};
      for (const currency of this.balanceKeys) {
        const row = state.balances[currency];
        if (row) entry.balances[currency] = row;
      }
    }
    if (this.droppedIds.size > 0) entry.dropped = [...this.droppedIds];
    const orders = [...this.orderRecords].filter((o) => !this.droppedIds.has(o.id));
    if (orders.length > 0) entry.orders = orders;
    if (this.takenKeys.size > 0) {
      entry.taken = {};
      for (const key of this.takenKeys) entry.taken[key] = state.taken[key] ?? null;
    }
    if (this.countdownKeys.size > 0) {
      entry.countdowns = {};
      for (const key of this.countdownKeys) entry.countdowns[key] = state.countdowns?.[key] ?? null;
    }
    if (this.feesChanged && state.fees) entry.fees = state.fees;
    return entry;
  }
}

/** Applies journal entries, in order, to a state (the state is changed in place). */
export function applyEntries(state: PaperState, entries: readonly JournalEntry[]): void {
  if (entries.length === 0) return;
  const byId = new Map<string, PaperOrderRecord>();
  for (const order of state.orders) byId.set(order.id, order);
  const dropped = new Set<string>();
  for (const entry of entries) {
    state.seq = entry.seq;
    state.lastBucket = entry.lastBucket;
    state.nextId = entry.nextId;
    if (entry.balances) for (const [currency, row] of Object.entries(entry.balances)) state.balances[currency] = row;
    for (const order of entry.orders ?? []) {
      const known = byId.get(order.id);
      if (known) Object.assign(known, order);
      else {
        byId.set(order.id, order);
        state.orders.push(order);
      }
    }
    for (const id of entry.dropped ?? []) {
      if (byId.delete(id)) dropped.add(id);
    }
    for (const [key, value] of Object.entries(entry.taken ?? {})) {
      if (value === null) delete state.taken[key];
      else state.taken[key] = value;
    }
    for (const [key, value] of Object.entries(entry.countdowns ?? {})) setCountdown(state, key, value);
    if (entry.fees) state.fees = entry.fees;
  }
  if (dropped.size > 0) state.orders = state.orders.filter((o) => !dropped.has(o.id));
}

/** Arms (a deadline in ms) or disarms (null) the countdown of a pair or of `*`. */
export function setCountdown(state: PaperState, key: string, deadline: number | null): void {
  if (deadline !== null) {
    state.countdowns = { ...state.countdowns, [key]: deadline };
    return;
  }
  if (!state.countdowns) return;
  const { [key]: _gone, ...rest } = state.countdowns;
  if (Object.keys(rest).length > 0) state.countdowns = rest;
  else delete state.countdowns;
}

export function toOrder(record: PaperOrderRecord): Order {
  const spec = record.fee !== undefined ? paperPairSpec(record.pair) : undefined;
  return {
    pair: record.pair,
    id: record.id,
    clientOrderId: record.clientOrderId,
    price: record.price,
    amount: record.amount,
    filled: record.filled,
    type: "limit",
    side: record.side,
    status: record.status,
    timestamp: record.timestamp,
    ...(record.cost !== undefined && new Decimal(record.filled).gt(0)
      ? { average: averageOf(record.cost, record.filled), cost: record.cost }
      : {}),
    // docs/paper-store.md "Fees": a buy pays its fee in the base it receives, a sell in the quote
    ...(spec && record.fee !== undefined
      ? { fee: { amount: record.fee, currency: record.side === "Buy" ? spec.base : spec.quote } }
      : {}),
  };
}

/** The average fill price: cost / filled, cut to 12 decimals where it does not end sooner. */
function averageOf(cost: string, filled: string): string {
  return new Decimal(cost).div(filled).decimalPlaces(12, Decimal.ROUND_DOWN).toFixed();
}
