/**
 * The bot runner's state and helpers (docs/bots.md "The runner"): what is published and what is
 * remembered across restarts, the open-orders ledger of an account, the backoff, and reading the
 * book. server/bots/runner.ts is the loop that uses them.
 */
import type { BookFeed } from "../../exchanges/types.js";
import { Decimal } from "../../lib/decimal.js";
import type { Side } from "../../lib/types.js";
import type { Market, OwnOrder, PairDecimals } from "./strategies/types.js";

export type BotStatus = "running" | "paused" | "backing-off" | "stopped";

/** What the runner keeps between restarts (inside the bot record's state, never published). */
export interface RunnerMemory {
  strategy: unknown;
  open: OwnOrder[];
  generation: number;
  pausedSides: Partial<Record<Side, number>>;
  /** fills booked and the ledger (server/bots/money.ts), read by the runner itself */
  money?: unknown;
}

/** The bot's state: the published fields (docs/dashboard-rules.md#entities records, status, lastError, updatedAt) and the memory. */
export interface BotStateFields {
  status: BotStatus;
  reason?: string;
  note?: string;
  lastError?: string;
  lastErrorAt?: number;
  updatedAt: number;
  pausedSides?: Side[];
  /** docs/bots.md#safety-net: when its quotes were pulled because the book was not live (cleared once it is) */
  pulledAt?: number;
  runner?: RunnerMemory;
}
export type BotState = BotStateFields & Record<string, unknown>;

/** Counts the bots' resting orders per account, so all bots of an account keep the open-orders limit (docs/decisions.md#d25). */
export class AccountLedger {
  private readonly accounts = new Map<string, Map<string, number>>();

  set(account: string, botId: string, count: number): void {
    let bots = this.accounts.get(account);
    if (!bots) {
      bots = new Map();
      this.accounts.set(account, bots);
    }
    if (count > 0) bots.set(botId, count);
    else bots.delete(botId);
  }

  total(account: string): number {
    let sum = 0;
    for (const n of this.accounts.get(account)?.values() ?? []) sum += n;
    return sum;
  }
}

export const BACKOFF_START_MS = 1000;
export const BACKOFF_MAX_MS = 60_000;

/** docs/decisions.md#d25: 1 s doubling to 60 s. */
export function backoffDelay(failures: number): number {
  return Math.min(BACKOFF_START_MS * 2 ** Math.max(0, failures - 1), BACKOFF_MAX_MS);
}

/** The most decimals among the book's prices and amounts (when no token pair says). */
export function inferDecimals(feed: BookFeed): PairDecimals {
  const { bids, asks } = feed.book.top(20);
  const places = (text: string) => {
    const dot = text.indexOf(".");
    return dot === -1 ? 0 : text.replace(/0+$/, "").length - dot - 1;
  };
  let price = 0;
  let amount = 0;
  for (const [p, a] of [...bids, ...asks]) {
    price = Math.max(price, places(p));
    amount = Math.max(amount, places(a));
  }
  return { price, amount };
}

export function marketOf(feed: BookFeed): Market | undefined {
  const { bids, asks } = feed.book.top(20);
  if (bids.length === 0 || asks.length === 0) return undefined;
  const bestBid = new Decimal(bids[0]![0]);
  const bestAsk = new Decimal(asks[0]![0]);
  return { bids, asks, bestBid, bestAsk, mid: bestBid.plus(bestAsk).dividedBy(2) };
}

const isText = (v: unknown): v is string => typeof v === "string" && v !== "";
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The memory stored by a previous run, or undefined when it is not usable. An own order that
 * does not look like one is dropped: the first sync adopts it again from the exchange by its tag.
 */
export function restoreMemory(value: unknown): RunnerMemory | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const stored = value as Partial<RunnerMemory>;
  if (!Array.isArray(stored.open) || stored.strategy === undefined || stored.strategy === null) return undefined;
  const open = stored.open.filter(
    (o): o is OwnOrder =>
      typeof o === "object" &&
      o !== null &&
      Number.isInteger(o.slot) &&
      isText(o.id) &&
      isText(o.clientOrderId) &&
      (o.side === "Buy" || o.side === "Sell") &&
      DECIMAL.test(String(o.price)) &&
      DECIMAL.test(String(o.amount)) &&
      DECIMAL.test(String(o.filled)) &&
      typeof o.placedAt === "number",
  );
  const generation = Number.isInteger(stored.generation) ? (stored.generation as number) : 0;
  const paused = typeof stored.pausedSides === "object" && stored.pausedSides !== null ? stored.pausedSides : {};
  return { strategy: stored.strategy, open, generation, pausedSides: paused };
}
