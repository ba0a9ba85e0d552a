/**
 * A running bot's money (docs/bots.md "What each bot did", "Risk limits and the kill switch"): the
 * fills it sees on its orders, folded into its ledger (server/bots/fills.ts), and its risk limits.
 * The runner (server/bots/runner.ts) calls `seen` with every order answer that may show a fill
 * (the create answer: taker; later lists and looks-ups: maker), and `breach` once a tick.
 */
import { Decimal } from "../../lib/decimal.js";
import { type BotLimits, botLimitsSchema } from "../../lib/schemas.js";
import type { Order } from "../../lib/types.js";
import { applyFill, type BotFill, type Ledger, type LedgerAtMid, markAtMid, restoreLedger } from "./fills.js";

/** What of an order is in the ledger already: its filled amount, the quote of those fills, the fee. */
export interface Booked {
  filled: string;
  cost: string;
  fee: string;
}

/** Kept in the runner's memory across restarts. */
export interface MoneyMemory {
  ledger: Ledger;
  booked: Record<string, Booked>;
  /** when the bot placed its orders of the last minute (ms) */
  placed: number[];
  /** the PnL and inventory at the last resume: the limits count from there (absent: from the start) */
  since?: { pnl: string; inventory: string };
}

/** Why a bot is stopped until a person resumes it (docs/bots.md "Risk limits and the kill switch"). */
export interface BotHalt {
  reason: string;
  at: number;
  /** "limit": its own risk limit; "account": its account's; "person": a stop call */
  by: "limit" | "account" | "person";
}

export const MINUTE_MS = 60_000;
/** The most fills kept waiting for the host's next write (older ones are still in the ledger). */
export const MAX_PENDING_FILLS = 10_000;

const DECIMAL = /^\d+(\.\d+)?$/;
const SIGNED = /^-?\d+(\.\d+)?$/;

/** The bot's limits from its setup (`limits`, validated by the API already); none when absent or unreadable. */
export function limitsOf(setup: unknown): BotLimits {
  const value = typeof setup === "object" && setup !== null ? (setup as { limits?: unknown }).limits : undefined;
  const parsed = botLimitsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : {};
}

export function restoreHalt(value: unknown): BotHalt | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<BotHalt>;
  if (typeof v.reason !== "string" || typeof v.at !== "number") return undefined;
  const by = v.by === "limit" || v.by === "account" ? v.by : "person";
  return { reason: v.reason, at: v.at, by };
}

/** The first of the limits the figures break, in words; undefined when none. */
export function breachOf(
  limits: BotLimits,
  figures: { pnl: Decimal; inventory: Decimal; placedLastMinute: number; base: string; quote: string },
  whose: string,
): string | undefined {
  if (limits.maxLoss !== undefined && figures.pnl.negated().gt(limits.maxLoss))
    return `${whose} maxLoss ${limits.maxLoss} ${figures.quote} reached: the loss since the start is ${figures.pnl.negated().toFixed()} ${figures.quote} (realized plus the inventory at the mid)`;
  if (limits.maxInventory !== undefined && figures.inventory.abs().gt(limits.maxInventory))
    return `${whose} maxInventory ${limits.maxInventory} ${figures.base} reached: the inventory is ${figures.inventory.toFixed()} ${figures.base} away from the start`;
  if (limits.maxOrdersPerMinute !== undefined && figures.placedLastMinute > limits.maxOrdersPerMinute)
    return `${whose} maxOrdersPerMinute ${limits.maxOrdersPerMinute} reached: ${figures.placedLastMinute} orders placed in the last minute`;
  return undefined;
}

export class BotMoney {
  private ledger: Ledger;
  private booked: Record<string, Booked>;
  private placed: number[];
  private pending: BotFill[] = [];
  private since: { pnl: string; inventory: string } | undefined;

  constructor(
    readonly base: string,
    readonly quote: string,
    stored?: unknown,
  ) {
    const memory = (typeof stored === "object" && stored !== null ? stored : {}) as Partial<MoneyMemory>;
    this.ledger = restoreLedger(memory.ledger);
    this.booked = {};
    if (typeof memory.booked === "object" && memory.booked !== null)
      for (const [id, b] of Object.entries(memory.booked))
        if (
          typeof b === "object" &&
          b !== null &&
          DECIMAL.test(String(b.filled)) &&
          DECIMAL.test(String(b.cost)) &&
          DECIMAL.test(String(b.fee))
        )
          this.booked[id] = { filled: b.filled, cost: b.cost, fee: b.fee };
    this.placed = Array.isArray(memory.placed) ? memory.placed.filter((t) => typeof t === "number") : [];
    const since = memory.since;
    if (since && SIGNED.test(String(since.pnl)) && SIGNED.test(String(since.inventory)))
      this.since = { pnl: since.pnl, inventory: since.inventory };
  }

  /**
   * A person resumed the bot (docs/bots.md "Risk limits and the kill switch"): the loss and the
   * inventory limits count from here (the ledger keeps its totals), the minute's orders afresh.
   */
  restartLimits(pnl: string): void {
    this.since = { pnl, inventory: this.ledger.inventory };
    this.placed = [];
  }

  /** The PnL and the inventory the limits count: since the last resume, else since the start. */
  counted(mid: Decimal): { pnl: Decimal; inventory: Decimal } {
    const pnl = new Decimal(this.mark(mid).pnl);
    const inventory = new Decimal(this.ledger.inventory);
    if (!this.since) return { pnl, inventory };
    return { pnl: pnl.minus(this.since.pnl), inventory: inventory.minus(this.since.inventory) };
  }

  get totals(): Ledger {
    return this.ledger;
  }

  /**
   * An answer about one of the bot's orders: what filled since the last one is a fill, in the
   * ledger and waiting for `drain`. Its price is the quote of those fills over their amount.
   */
  seen(order: Order, liquidity: BotFill["liquidity"], now: number): BotFill | undefined {
    const before = this.booked[order.id] ?? { filled: "0", cost: "0", fee: "0" };
    const filled = new Decimal(order.filled || "0");
    const amount = filled.minus(before.filled);
    if (!amount.isPositive() || amount.isZero()) return undefined;
    const cost =
      order.cost !== undefined
        ? new Decimal(order.cost)
        : order.average !== undefined
          ? new Decimal(order.average).times(filled)
          : new Decimal(order.price).times(filled);
    const fee = order.fee !== undefined ? new Decimal(order.fee.amount) : new Decimal(before.fee);
    const quoteOfFill = cost.minus(before.cost);
    const fill: BotFill = {
      at: now,
      orderId: order.id,
      side: order.side,
      price: (quoteOfFill.isPositive() ? quoteOfFill : new Decimal(order.price).times(amount)).div(amount).toFixed(),
      amount: amount.toFixed(),
      fee: Decimal.max(fee.minus(before.fee), 0).toFixed(),
      feeCurrency: order.fee?.currency ?? (order.side === "Buy" ? this.base : this.quote),
      liquidity,
    };
    this.booked[order.id] = { filled: filled.toFixed(), cost: cost.toFixed(), fee: fee.toFixed() };
    this.ledger = applyFill(this.ledger, fill, this.base, this.quote);
    if (this.pending.length < MAX_PENDING_FILLS) this.pending.push(fill);
    return fill;
  }

  /** The order left the book and its last answer was seen: nothing more will fill. */
  forget(orderId: string): void {
    delete this.booked[orderId];
  }

  /** An order was placed (counted for maxOrdersPerMinute). */
  placedAt(now: number): void {
    this.placed.push(now);
    this.prune(now);
  }

  placedLastMinute(now: number): number {
    this.prune(now);
    return this.placed.length;
  }

  private prune(now: number): void {
    while (this.placed.length > 0 && this.placed[0]! <= now - MINUTE_MS) this.placed.shift();
  }

  /** The fills seen since the last call (the host stores them). */
  drain(): BotFill[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  mark(mid: Decimal | string): LedgerAtMid {
    return markAtMid(this.ledger, mid);
  }

  /** The bot's own limit broken at this mid, in words; undefined when none. */
  breach(limits: BotLimits, mid: Decimal, now: number): string | undefined {
    return breachOf(
      limits,
      {
        ...this.counted(mid),
        placedLastMinute: this.placedLastMinute(now),
        base: this.base,
        quote: this.quote,
      },
      "its",
    );
  }

  /** The ledger at the mid a previous run published (a restart shows its PnL before the first sync). */
  markStored(stored: unknown): LedgerAtMid | undefined {
    if (this.ledger.fills === 0 || typeof stored !== "object" || stored === null) return undefined;
    const mid = (stored as { mid?: unknown }).mid;
    return typeof mid === "string" && DECIMAL.test(mid) ? this.mark(mid) : undefined;
  }

  memory(): MoneyMemory {
    return {
      ledger: this.ledger,
      booked: this.booked,
      placed: this.placed,
      ...(this.since ? { since: this.since } : {}),
    };
  }
}

/**
 * The stored runner memory of a bot resumed while no runner holds it (after a restart): its limits
 * count from its last published PnL and inventory, as `BotMoney.restartLimits` does for a live one.
 */
export function resumedRunnerMemory(runner: unknown, published: unknown): unknown {
  if (typeof runner !== "object" || runner === null) return runner;
  const memory = runner as { money?: Partial<MoneyMemory> };
  const pnl = (published ?? {}) as { pnl?: unknown; inventory?: unknown };
  const since = {
    pnl: typeof pnl.pnl === "string" && SIGNED.test(pnl.pnl) ? pnl.pnl : "0",
    inventory:
      typeof pnl.inventory === "string" && SIGNED.test(pnl.inventory)
        ? pnl.inventory
        : (memory.money?.ledger?.inventory ?? "0"),
  };
  return { ...memory, money: { ...(memory.money ?? {}), since, placed: [] } };
}

/** One bot's figures as its account's limits count them. */
interface AccountFigures {
  pnl: Decimal;
  inventory: Decimal;
  base: string;
  quote: string;
  placedLastMinute: number;
}

/**
 * The bots of each account, for the account's limits (docs/decisions.md#d30): each runner reports
 * its figures on every tick; the account's loss is the sum of its bots' PnL in the same quote, its
 * inventory the sum of its bots' inventories in the same base, its orders a minute the sum of all.
 */
export class AccountRisk {
  private readonly accounts = new Map<string, Map<string, AccountFigures>>();

  report(account: string, botId: string, figures: AccountFigures | undefined): void {
    let bots = this.accounts.get(account);
    if (!bots) {
      bots = new Map();
      this.accounts.set(account, bots);
    }
    if (figures) bots.set(botId, figures);
    else bots.delete(botId);
  }

  /** The account's limit broken, in words; undefined when none. */
  breach(account: string, limits: BotLimits, base: string, quote: string, name: string): string | undefined {
    const bots = [...(this.accounts.get(account)?.values() ?? [])];
    let pnl = new Decimal(0);
    let inventory = new Decimal(0);
    let placedLastMinute = 0;
    for (const b of bots) {
      if (b.quote === quote) pnl = pnl.plus(b.pnl);
      if (b.base === base) inventory = inventory.plus(b.inventory);
      placedLastMinute += b.placedLastMinute;
    }
    return breachOf(limits, { pnl, inventory, placedLastMinute, base, quote }, `the account ${name}'s`);
  }
}
