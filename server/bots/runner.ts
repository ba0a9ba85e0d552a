/**
 * The bot runner (docs/decisions.md#d25, docs/bots.md "The runner"): drives one strategy against any
 * exchange adapter and book feed. The same class runs under `spotdesk serve` (server/bots/host.ts)
 * and in the CLI's foreground `spotdesk bot run` (cli/commands/bot.ts).
 *
 * One tick at a time per bot: look at the book, reconcile with the exchange's open orders now and
 * then, ask the strategy what it wants, cancel what no longer fits (and wait for the cancel), then
 * place what is missing. Nothing thrown by the exchange or the strategy leaves this class: an error
 * backs the bot off (1 s doubling to 60 s) and shows in its state.
 */

import { CATALOGUE } from "../../exchanges/catalogue.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import type { Decimal } from "../../lib/decimal.js";
import { isExchangeError, POST_ONLY_REFUSED } from "../../lib/errors.js";
import { parsePair } from "../../lib/pair.js";
import type { BotLimits } from "../../lib/schemas.js";
import type { ExchangeId, Order, Side } from "../../lib/types.js";
import { botClientOrderId, botTag, type ClientIdRule, clientIdRule, parseBotClientOrderId } from "./client-ids.js";
import type { BotFill, Ledger, LedgerAtMid } from "./fills.js";
import { type AccountRisk, type BotHalt, BotMoney, limitsOf, restoreHalt } from "./money.js";
import {
  countdownSeconds,
  DEFAULT_COUNTDOWN_SECONDS,
  DEFAULT_PULL_AFTER_MS,
  type LeftOpen,
  OrdersLeftOpenError,
  reasonOf,
} from "./safety.js";
import {
  AccountLedger,
  type BotState,
  type BotStateFields,
  type BotStatus,
  backoffDelay,
  inferDecimals,
  marketOf,
  type RunnerMemory,
  restoreMemory,
} from "./state.js";
import { createStrategy, type RunnableBotType } from "./strategies/index.js";
import type { OwnOrder, PairDecimals, Strategy, Wanted } from "./strategies/types.js";
import { usdtPerQuote } from "./usdt.js";

export { AccountLedger, type BotState, type BotStatus, backoffDelay, inferDecimals } from "./state.js";

export interface RunnerOptions {
  botId: string;
  type: RunnableBotType;
  setup: unknown;
  exchange: ExchangeId;
  adapter: ExchangeAdapter;
  /** started and stopped by the caller (feeds are shared between bots of a pair) */
  feed: BookFeed;
  /** the token pair's decimals; inferred from the book when absent (docs/bots.md) */
  decimals?: PairDecimals;
  /** the state stored by a previous run: its memory is resumed and reconciled */
  state?: Record<string, unknown>;
  /** the key of the account (exchange + account) the open-orders limit counts against */
  account: string;
  ledger?: AccountLedger;
  /** called on every change; `published` says whether the public part changed */
  onState(state: BotState, published: boolean): void | Promise<void>;
  now?: () => number;
  random?: () => number;
  /** how often the open orders are listed to see fills and foreign cancels (5 s) */
  syncIntervalMs?: number;
  /** the account's open-orders limit; the catalogue's (exchanges/<id>/info.ts) when absent */
  openOrdersLimit?: number;
  /** at most one tick per this many ms caused by book changes (100 ms) */
  bookGapMs?: number;
  /** how long an insufficient-funds answer pauses that side (60 s) */
  fundsPauseMs?: number;
  logger?: { warn(message: string, fields?: Record<string, unknown>): void };
  /** docs/bots.md#safety-net: blind this long (the book not live), the bot cancels its orders (10 s) */
  pullAfterMs?: number;
  /** docs/bots.md#safety-net: the exchange-side countdown armed where the adapter has one (60 s; 0: none) */
  countdownSeconds?: number;
  /** real time for the safety net's durations (Date.now); `now` may be a simulated clock */
  wallNow?: () => number;
  /** USDT per unit of the pair's quote currency now (docs/decisions.md#d21); server/bots/usdt.ts when absent */
  usdtPerQuote?: (now: number) => Decimal | undefined;
  /** the account's risk limits (docs/decisions.md#d30), counted over its bots in `risk` */
  accountLimits?: BotLimits;
  risk?: AccountRisk;
  /** the account in words, for a breach's reason ("Acme/paper/main") */
  accountName?: string;
  /** a risk limit stopped the bot (docs/bots.md "Risk limits and the kill switch"); `by` says whose */
  onHalt?(halt: BotHalt): void;
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class BotRunner {
  readonly botId: string;
  readonly pair: string;
  readonly tag: string;
  private readonly strategy: Strategy<unknown>;
  /** quotes are maker only (docs/bots.md "Post-only quotes") */
  private readonly postOnly: boolean;
  private readonly rule: ClientIdRule;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly syncIntervalMs: number;
  private readonly fundsPauseMs: number;
  private readonly limit: number;
  private readonly ledger: AccountLedger;
  private memory: RunnerMemory;
  private published: Omit<BotStateFields, "runner" | "updatedAt">;
  private lastPublishedJson = "";
  private lastMemoryJson = "";
  private failures = 0;
  private backoffUntil = 0;
  private lastSync = Number.NEGATIVE_INFINITY;
  private decimals: PairDecimals | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private pendingDue = Number.POSITIVE_INFINITY;
  private readonly bookGapMs: number;
  private stopped = true;
  private unsubscribe: (() => void)[] = [];
  /** real time since which the book has not been live (undefined while it is) */
  private blindSince: number | undefined;
  /** real time the countdown was last armed */
  private countdownArmedAt = Number.NEGATIVE_INFINITY;
  /** docs/bots.md "What each bot did": fills, ledger, limits */
  private readonly money: BotMoney;
  private readonly limits: BotLimits;
  private halted: BotHalt | undefined;
  private marked: LedgerAtMid | undefined;
  private halting: Promise<void> | undefined;

  constructor(private readonly options: RunnerOptions) {
    this.botId = options.botId;
    const { strategy, pair, postOnly } = createStrategy(options.type, options.setup);
    this.strategy = strategy;
    this.postOnly = postOnly;
    this.pair = pair;
    this.tag = botTag(options.botId);
    this.rule = clientIdRule(options.exchange);
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.syncIntervalMs = options.syncIntervalMs ?? 5000;
    this.bookGapMs = options.bookGapMs ?? 100;
    this.fundsPauseMs = options.fundsPauseMs ?? 60_000;
    const limit = options.openOrdersLimit ?? CATALOGUE[options.exchange].limits.openOrders;
    this.limit = limit === null || limit === 0 ? Number.POSITIVE_INFINITY : limit;
    this.ledger = options.ledger ?? new AccountLedger();
    this.decimals = options.decimals;
    this.memory = restoreMemory(options.state?.runner) ?? {
      strategy: this.strategy.init({ now: this.now(), random: this.random }),
      open: [],
      generation: 0,
      pausedSides: {},
    };
    const { base, quote } = parsePair(this.pair);
    this.money = new BotMoney(base, quote, (options.state?.runner as { money?: unknown } | undefined)?.money);
    this.limits = limitsOf(options.setup);
    this.halted = restoreHalt(options.state?.halted);
    this.marked = this.money.markStored(options.state?.pnl);
    const lastError = options.state?.lastError;
    const lastErrorAt = options.state?.lastErrorAt;
    this.published = {
      status: "stopped",
      ...(this.halted ? { reason: this.halted.reason } : {}),
      ...(typeof lastError === "string" ? { lastError } : {}),
      ...(typeof lastErrorAt === "number" ? { lastErrorAt } : {}),
    };
  }

  /** Why it is stopped until a person resumes it, if it is. */
  get halt(): BotHalt | undefined {
    return this.halted;
  }

  /** Its ledger (docs/bots.md "What each bot did"). */
  get totals(): Ledger {
    return this.money.totals;
  }

  /** The fills seen since the last call, for the host to store. */
  drainFills(): BotFill[] {
    return this.money.drain();
  }

  /** the orders it believes rest on the exchange */
  get openOrders(): readonly OwnOrder[] {
    return this.memory.open;
  }

  get status(): BotStatus {
    return this.published.status;
  }

  start(): void {
    if (!this.stopped || this.halted) return;
    this.stopped = false;
    this.lastSync = Number.NEGATIVE_INFINITY; // a (re)start reconciles with the exchange first
    this.unsubscribe = [
      this.options.feed.onChange(() => this.schedule(this.bookGapMs)),
      this.options.feed.onState(() => this.schedule(0)),
    ];
    this.schedule(0);
  }

  /**
   * Stops the loop. With `cancelOrders` (remove, Ctrl-C, a clean stop of serve) every order of the
   * bot is cancelled, each confirmed; those that cannot be are named in the OrdersLeftOpenError it
   * then throws, and the caller decides (the bot is not removed). Without it the orders stay, and
   * so does an armed countdown (docs/bots.md#safety-net "--keep-orders").
   */
  async stop(options: { cancelOrders?: boolean } = {}): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    this.pendingDue = Number.POSITIVE_INFINITY;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    await this.ticking;
    if (!options.cancelOrders) return;
    await this.cancelEverything();
    this.published = { ...this.published, status: "stopped" };
    delete this.published.reason;
    delete this.published.note;
    delete this.published.pulledAt;
    await this.emit(true);
  }

  /**
   * Cancels every own order (the remembered ones and those the exchange lists with its tag), then
   * disarms the countdown; throws OrdersLeftOpenError naming what is left.
   */
  private async cancelEverything(): Promise<void> {
    const known = new Map<string, { id: string; side: Side; price: string }>();
    for (const o of this.memory.open) known.set(o.id, o);
    let listError: unknown;
    try {
      for (const o of await this.options.adapter.fetchOpenOrders(this.pair)) if (this.isMine(o)) known.set(o.id, o);
    } catch (error) {
      listError = error;
    }
    const left: LeftOpen[] = [];
    // in batches where the venue has a batch cancel; what a batch did not cancel, one by one, confirmed
    const unbatched = new Set(await this.cancelByBatch([...known.keys()]));
    for (const order of known.values()) {
      if (!unbatched.has(order.id)) continue;
      const refused = await this.cancelConfirmed(order.id);
      if (refused !== undefined)
        left.push({
          exchange: this.options.exchange,
          pair: this.pair,
          id: order.id,
          side: order.side,
          price: order.price,
          reason: reasonOf(refused),
        });
    }
    const stillOpen = new Set(left.map((o) => o.id));
    this.memory = { ...this.memory, open: this.memory.open.filter((o) => stillOpen.has(o.id)) };
    this.ledger.set(this.options.account, this.botId, this.memory.open.length);
    if (left.length > 0 || listError !== undefined) {
      await this.emit();
      throw new OrdersLeftOpenError(this.options.exchange, this.pair, left, listError);
    }
    await this.disarmCountdown();
  }

  /** Cancels one order; undefined when it is gone (cancelled, filled, unknown), else why it is still open. */
  private async cancelConfirmed(id: string): Promise<unknown> {
    try {
      await this.options.adapter.cancelOrder(this.pair, id);
      return undefined;
    } catch (error) {
      // gone already (filled, cancelled, unknown) is fine; still open (or not known to be gone) is not
      const still = await this.options.adapter.fetchOrder(this.pair, id).catch((e: unknown) => e);
      if (isExchangeError(still) && still.kind === "order-not-found") return undefined;
      if (still instanceof Error) return error;
      return (still as Order).status === "open" ? error : undefined;
    }
  }

  /**
   * docs/bots.md "The runner" (Remove): where the venue has a batch cancel (its catalogue's
   * `limits.cancelBatch`), the orders go in batches of that size, not one call each (100 orders
   * one by one took longer than the dashboard waits). Returns the ids still to cancel one by one:
   * those a batch did not name as cancelled, or all of a batch the venue refused.
   */
  private async cancelByBatch(ids: readonly string[]): Promise<string[]> {
    const { cancelBatch, unsupported } = CATALOGUE[this.options.exchange].limits;
    if (ids.length < 2 || !(cancelBatch > 0) || unsupported.includes("cancelBatch")) return [...ids];
    const left: string[] = [];
    for (let i = 0; i < ids.length; i += cancelBatch) {
      const batch = ids.slice(i, i + cancelBatch);
      try {
        const cancelled = new Set(await this.options.adapter.cancelBatch(this.pair, batch));
        left.push(...batch.filter((id) => !cancelled.has(id)));
      } catch (error) {
        this.options.logger?.warn("bot batch cancel refused: cancelling one by one", {
          botId: this.botId,
          error: message(error),
        });
        left.push(...batch);
      }
    }
    return left;
  }

  /**
   * The kill switch (docs/bots.md "Risk limits and the kill switch"): stops the loop, cancels its
   * orders (each confirmed) and books their last fills; it stays stopped, across restarts too (the
   * halt is in its state), until `resume`. Throws when an order could not be cancelled: the reason
   * says so, and the bot is stopped all the same.
   */
  haltNow(halt: BotHalt): Promise<void> {
    this.halting ??= this.haltOnce(halt).finally(() => {
      this.halting = undefined;
    });
    return this.halting;
  }

  private async haltOnce(halt: BotHalt): Promise<void> {
    this.halted = halt;
    const ids = this.memory.open.map((o) => o.id);
    let failure: unknown;
    try {
      await this.stop({ cancelOrders: true });
    } catch (error) {
      failure = error;
    }
    await this.bookLast(ids);
    const reason =
      failure === undefined
        ? halt.reason
        : `${halt.reason}; its orders could not all be cancelled (${message(failure)}): cancel them on the exchange`;
    this.halted = { ...halt, reason };
    this.setStatus("stopped", reason);
    await this.emit(true);
    this.options.logger?.warn("bot stopped", { botId: this.botId, by: halt.by, reason });
    if (halt.by !== "person") this.options.onHalt?.(this.halted);
    if (failure !== undefined) throw failure;
  }

  /** A person lifts the halt: the bot starts again, its ledger kept. */
  async resume(): Promise<void> {
    await this.halting?.catch(() => undefined);
    this.halted = undefined;
    this.money.restartLimits(this.marked?.pnl ?? "0");
    this.setStatus("stopped");
    await this.emit(true);
    this.start();
  }

  /** Removing the bot: its orders cancelled (throws when one cannot be), their last fills booked; the ledger it leaves. */
  async closeOut(): Promise<Ledger> {
    const ids = this.memory.open.map((o) => o.id);
    await this.stop({ cancelOrders: true });
    await this.bookLast(ids);
    return this.money.totals;
  }

  /** The last answer about orders that left the book (a fill just before the cancel counts). */
  private async bookLast(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const order = await this.options.adapter.fetchOrder(this.pair, id).catch(() => undefined);
      if (order) this.money.seen(order, "maker", this.now());
      this.money.forget(id);
    }
  }

  /** The bot's or its account's limit broken at this mid (docs/bots.md "Risk limits and the kill switch"). */
  private breachAt(mid: Decimal, now: number): BotHalt | undefined {
    const { risk, accountLimits } = this.options;
    // no limit anywhere: nothing to count on each tick
    if (this.limits.maxLoss === undefined && this.limits.maxInventory === undefined && !(risk && accountLimits))
      return undefined;
    const own = this.money.breach(this.limits, mid, now);
    if (own) return { reason: `Stopped: ${own}`, at: now, by: "limit" };
    if (!risk || !accountLimits) return undefined;
    risk.report(this.options.account, this.botId, {
      ...this.money.counted(mid),
      base: this.money.base,
      quote: this.money.quote,
      placedLastMinute: this.money.placedLastMinute(now),
    });
    const name = this.options.accountName ?? this.options.account;
    const breach = risk.breach(this.options.account, accountLimits, this.money.base, this.money.quote, name);
    return breach ? { reason: `Stopped: ${breach}`, at: now, by: "account" } : undefined;
  }

  /** One more order would break maxOrdersPerMinute (the bot's or its account's). */
  private orderRateFull(now: number): BotHalt | undefined {
    const max = this.limits.maxOrdersPerMinute;
    const placed = this.money.placedLastMinute(now);
    if (max !== undefined && placed >= max)
      return {
        reason: `Stopped: its maxOrdersPerMinute ${max} reached: ${placed} orders placed in the last minute, one more asked for`,
        at: now,
        by: "limit",
      };
    return undefined;
  }

  /**
   * The published PnL at the mid: at each sync and after a fill, not on every book change (each
   * new mark is a delta on the live channel).
   */
  private markAt(mid: Decimal, synced: boolean): void {
    const fills = this.money.totals.fills;
    if (fills > 0 && (synced || this.marked?.fills !== fills)) this.marked = this.money.mark(mid);
  }

  /** Stops at a breach, from inside a tick (the halt waits for the tick to end). */
  private breached(halt: BotHalt): number {
    void this.haltNow(halt).catch((error: unknown) =>
      this.options.logger?.warn("bot orders not all cancelled at its halt", {
        botId: this.botId,
        error: message(error),
      }),
    );
    return this.syncIntervalMs;
  }

  private isMine(order: Order): boolean {
    return parseBotClientOrderId(order.clientOrderId ?? "", this.rule)?.tag === this.tag;
  }

  /**
   * Asks for a tick within `delayMs` (real time). An earlier request wins; a request during a tick
   * is kept for after it. A busy book (many changes a second) therefore costs at most one tick per
   * `bookGapMs`, and a tick is never run twice at once.
   */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const due = Date.now() + Math.max(0, delayMs);
    if (this.ticking !== undefined) {
      this.pendingDue = Math.min(this.pendingDue, due);
      return;
    }
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      this.ticking = this.tick()
        .catch((error: unknown) => {
          this.options.logger?.warn("bot tick failed", { botId: this.botId, error: message(error) });
          return this.syncIntervalMs;
        })
        .then((next) => {
          this.ticking = undefined;
          const pending = this.pendingDue;
          this.pendingDue = Number.POSITIVE_INFINITY;
          this.schedule(Math.min(next, pending - Date.now()));
        });
    }, due - Date.now());
  }

  /** One tick; never throws. Returns when to look again (ms). */
  private async tick(): Promise<number> {
    if (this.stopped) return this.syncIntervalMs;
    // the countdown is kept while the process lives, also when blind or backing off
    const countdownDue = await this.keepCountdown();
    const now = this.now();
    if (now < this.backoffUntil) return Math.min(this.backoffUntil - now, countdownDue);
    let next: number;
    try {
      next = await this.work(now);
      this.failures = 0;
    } catch (error) {
      this.failures++;
      const delay = backoffDelay(this.failures);
      this.backoffUntil = this.now() + delay;
      this.published = { ...this.published, status: "backing-off", lastError: message(error), lastErrorAt: this.now() };
      this.options.logger?.warn("bot backing off", { botId: this.botId, delayMs: delay, error: message(error) });
      next = delay;
    }
    await this.emit();
    return Math.min(next, countdownDue);
  }

  /** One reconciliation; returns when to look again (ms). */
  private async work(now: number): Promise<number> {
    if (this.postOnly && CATALOGUE[this.options.exchange].postOnly === null) return this.refusePostOnly();
    const feed = this.options.feed;
    // docs/decisions.md#d25: nothing is placed while the book is not live
    if (feed.state !== "live") return this.whileBlind(`waiting for a live order book (feed ${feed.state})`);
    const market = marketOf(feed);
    if (!market) return this.whileBlind("the order book has no bid or no ask");
    this.blindSince = undefined;
    delete this.published.pulledAt;
    // a live book: the bot runs (what it emits while placing says so already)
    if (this.published.status !== "running") this.setStatus("running", undefined, this.published.note);
    this.decimals ??= inferDecimals(feed);
    const decimals = this.decimals;
    if (now - this.lastSync >= this.syncIntervalMs) {
      await this.sync(now, decimals);
      this.lastSync = now;
      this.markAt(market.mid, true);
    } else this.markAt(market.mid, false);
    const breach = this.breachAt(market.mid, now);
    if (breach) return this.breached(breach);
    const ctx = { now, market, decimals, open: this.memory.open, random: this.random, ...this.usdt(now) };
    let result: ReturnType<Strategy<unknown>["step"]>;
    try {
      result = this.strategy.step(this.memory.strategy, ctx);
    } catch (error) {
      // a stored strategy state that no longer fits (a hand-edited row, an older build): start the
      // strategy afresh; its orders are kept or replaced by the usual comparison
      this.options.logger?.warn("bot strategy state reset", { botId: this.botId, error: message(error) });
      this.memory = { ...this.memory, strategy: this.strategy.init({ now, random: this.random }) };
      result = this.strategy.step(this.memory.strategy, ctx);
    }
    this.memory = { ...this.memory, strategy: result.state };
    const wanted = new Map<number, Wanted>(result.want.map((w) => [w.slot, w]));

    // Cancel first, and only after every cancel is confirmed place anything (docs/decisions.md#d21, #d25).
    const stale = this.memory.open.filter((o) => {
      const want = wanted.get(o.slot);
      return !want || !this.strategy.keep(o, want, this.memory.strategy, ctx);
    });
    if (stale.length > 0) {
      for (const order of stale) await this.cancel(order, decimals);
      this.setStatus("running", undefined, result.note);
      return 0; // step again with the orders that are really left
    }

    const notes: string[] = result.note ? [result.note] : [];
    for (const side of ["Buy", "Sell"] as const) {
      const until = this.memory.pausedSides[side];
      if (until !== undefined && until <= now) {
        const { [side]: _, ...rest } = this.memory.pausedSides;
        this.memory = { ...this.memory, pausedSides: rest };
      }
    }
    const occupied = new Set(this.memory.open.map((o) => o.slot));
    for (const want of result.want) {
      if (occupied.has(want.slot)) continue;
      if (this.memory.pausedSides[want.side] !== undefined) continue;
      if (this.ledger.total(this.options.account) >= this.limit) {
        notes.push(`open-orders limit of the account reached (${this.limit})`);
        break;
      }
      const full = this.orderRateFull(now);
      if (full) return this.breached(full);
      await this.place(want, now, decimals);
    }
    const paused = this.pausedSides();
    if (paused.length > 0) notes.push(`${paused.join(" and ")} paused: insufficient funds`);
    this.setStatus(paused.length > 0 ? "paused" : "running", undefined, notes.join("; ") || undefined);
    const wakeAt = result.wakeAt !== undefined ? Math.max(0, result.wakeAt - now) : this.syncIntervalMs;
    const pauseEnds = paused.map((s) => this.memory.pausedSides[s]! - now);
    return Math.min(wakeAt, this.syncIntervalMs, ...pauseEnds);
  }

  /**
   * A bot that quotes post-only on an exchange without a maker-only form stops before placing
   * anything: its quotes are never sent as plain limits that could take (docs/bots.md "Post-only quotes").
   */
  private refusePostOnly(): number {
    const id = this.options.exchange;
    this.setStatus(
      "stopped",
      `${id} has no post-only order type: this bot quotes post-only; set postOnly: false in its setup to quote plain limits on ${id}`,
    );
    this.stopped = true;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    return this.syncIntervalMs;
  }

  private wallNow(): number {
    return (this.options.wallNow ?? Date.now)();
  }

  /**
   * docs/bots.md#safety-net: the book is not live (or one-sided). Nothing is placed; once it has
   * been so for `pullAfterMs` the bot's resting orders are cancelled (its strategy places them
   * again once the book is live), and the state says so. Returns when to look again (ms).
   */
  private async whileBlind(reason: string): Promise<number> {
    const pullAfter = this.options.pullAfterMs ?? DEFAULT_PULL_AFTER_MS;
    const wall = this.wallNow();
    this.blindSince ??= wall;
    const blindFor = wall - this.blindSince;
    if (this.memory.open.length > 0 && blindFor >= pullAfter) {
      const decimals = this.decimals ?? inferDecimals(this.options.feed);
      for (const order of [...this.memory.open]) await this.cancel(order, decimals);
      this.published = { ...this.published, pulledAt: this.now() };
      this.options.logger?.warn("bot quotes pulled: the book is not live", { botId: this.botId, blindForMs: blindFor });
    }
    const pulled = this.published.pulledAt !== undefined;
    this.setStatus(
      "paused",
      reason,
      pulled ? `quotes pulled: the book was not live for ${pullAfter / 1000} s; quoting again once it is` : undefined,
    );
    if (this.memory.open.length === 0) return this.syncIntervalMs;
    return Math.max(0, Math.min(this.syncIntervalMs, pullAfter - blindFor));
  }

  /**
   * docs/bots.md#safety-net: arms the exchange's cancel-all-after countdown where the adapter has
   * one, and arms it again every quarter of its length while this process lives. A failure is
   * logged and shown, not a back-off. Returns when to arm it next (ms).
   */
  private async keepCountdown(): Promise<number> {
    const { adapter } = this.options;
    const wanted = this.options.countdownSeconds ?? DEFAULT_COUNTDOWN_SECONDS;
    if (!adapter.cancelAllAfter || !adapter.countdown || wanted <= 0) return Number.POSITIVE_INFINITY;
    const seconds = countdownSeconds(wanted, adapter.countdown);
    const refreshMs = (seconds * 1000) / 4;
    const since = this.wallNow() - this.countdownArmedAt;
    if (since < refreshMs) return refreshMs - since;
    try {
      await adapter.cancelAllAfter(adapter.countdown.scope === "pair" ? this.pair : undefined, seconds);
      this.countdownArmedAt = this.wallNow();
      return refreshMs;
    } catch (error) {
      this.options.logger?.warn("bot countdown not armed", { botId: this.botId, error: message(error) });
      this.published = {
        ...this.published,
        lastError: `countdown not armed: ${message(error)}`,
        lastErrorAt: this.now(),
      };
      return Math.min(refreshMs, 5000);
    }
  }

  /**
   * Disarms the countdown after a clean stop cancelled everything, unless other bots of the account
   * in this process still have orders (they keep arming it; serve calls this again once every bot
   * has stopped). Best effort: a failure only logs.
   */
  async disarmCountdown(): Promise<void> {
    const { adapter } = this.options;
    if (!adapter.cancelAllAfter || !adapter.countdown || this.countdownArmedAt === Number.NEGATIVE_INFINITY) return;
    if (this.ledger.total(this.options.account) > 0) return;
    try {
      await adapter.cancelAllAfter(adapter.countdown.scope === "pair" ? this.pair : undefined, 0);
      this.countdownArmedAt = Number.NEGATIVE_INFINITY;
    } catch (error) {
      this.options.logger?.warn("bot countdown not disarmed", { botId: this.botId, error: message(error) });
    }
  }

  private setStatus(status: BotStatus, reason?: string, note?: string): void {
    const { reason: _r, note: _n, ...rest } = this.published;
    this.published = { ...rest, status, ...(reason ? { reason } : {}), ...(note ? { note } : {}) };
  }

  /**
   * Lists the pair's open orders: adopts own orders it did not know (a restart, a create whose
   * answer was lost), cancels extra ones in a slot (newest generation stays), and looks up the
   * known ones that left the book (fill or foreign cancel) so the strategy can react.
   */
  private async sync(now: number, decimals: PairDecimals): Promise<void> {
    const listed = await this.options.adapter.fetchOpenOrders(this.pair);
    const mine = new Map<string, Order>();
    for (const o of listed) if (this.isMine(o)) mine.set(o.id, o);
    for (const known of this.memory.open) {
      const live = mine.get(known.id);
      if (live) {
        if (live.filled !== known.filled) {
          this.money.seen(live, "maker", now);
          this.replaceOpen(known.id, { ...known, filled: live.filled });
        }
        continue;
      }
      let status: Order["status"] = "canceled";
      let filled = known.filled;
      try {
        const fetched = await this.options.adapter.fetchOrder(this.pair, known.id);
        status = fetched.status;
        filled = fetched.filled;
        if (status !== "open") this.money.seen(fetched, "maker", now);
      } catch (error) {
        if (!(isExchangeError(error) && error.kind === "order-not-found")) throw error;
      }
      if (status === "open") continue; // listed late or beyond a page: still ours
      this.money.forget(known.id);
      this.closeOpen(known, filled, status === "closed", now, decimals);
    }
    // adopt
    const bySlot = new Map<number, OwnOrder[]>();
    for (const o of this.memory.open) bySlot.set(o.slot, [...(bySlot.get(o.slot) ?? []), o]);
    const knownIds = new Set(this.memory.open.map((o) => o.id));
    for (const o of mine.values()) {
      if (knownIds.has(o.id)) continue;
      this.money.seen(o, "maker", now);
      const parsed = parseBotClientOrderId(o.clientOrderId, this.rule)!;
      const own: OwnOrder = {
        slot: parsed.slot,
        id: o.id,
        clientOrderId: o.clientOrderId,
        side: o.side,
        price: o.price,
        amount: o.amount,
        filled: o.filled,
        placedAt: o.timestamp || now,
      };
      this.memory = {
        ...this.memory,
        open: [...this.memory.open, own],
        generation: Math.max(this.memory.generation, parsed.generation),
      };
      bySlot.set(own.slot, [...(bySlot.get(own.slot) ?? []), own]);
    }
    // one order per slot: the newest generation stays
    for (const list of bySlot.values()) {
      if (list.length < 2) continue;
      const gen = (o: OwnOrder) => parseBotClientOrderId(o.clientOrderId, this.rule)?.generation ?? 0;
      const sorted = [...list].sort((a, b) => gen(b) - gen(a));
      for (const extra of sorted.slice(1)) await this.cancel(extra, decimals);
    }
    this.ledger.set(this.options.account, this.botId, this.memory.open.length);
  }

  private replaceOpen(id: string, order: OwnOrder): void {
    this.memory = { ...this.memory, open: this.memory.open.map((o) => (o.id === id ? order : o)) };
  }

  private closeOpen(order: OwnOrder, filled: string, complete: boolean, now: number, decimals: PairDecimals): void {
    this.memory = { ...this.memory, open: this.memory.open.filter((o) => o.id !== order.id) };
    this.ledger.set(this.options.account, this.botId, this.memory.open.length);
    const strategy = this.strategy.closed(
      this.memory.strategy,
      { order, filled, complete },
      { now, random: this.random, decimals, ...this.usdt(now) },
    );
    this.memory = { ...this.memory, strategy };
  }

  /** USDT per unit of the quote currency, for the strategy's limits in USDT (docs/decisions.md#d21). */
  private usdt(now: number): { usdtPerQuote?: Decimal } {
    const rate = (this.options.usdtPerQuote ?? ((at) => usdtPerQuote(this.options.exchange, this.pair, at)))(now);
    return rate === undefined ? {} : { usdtPerQuote: rate };
  }

  /**
   * Cancels one order and waits for the exchange's answer. A refused cancel is looked up: an order
   * that already left the book (filled a moment ago, paper's "it is closed", "not found") counts as
   * gone; one still open keeps the error.
   */
  private async cancel(order: OwnOrder, decimals: PairDecimals): Promise<void> {
    const adapter = this.options.adapter;
    let refused: unknown;
    try {
      await adapter.cancelOrder(this.pair, order.id);
    } catch (error) {
      refused = error;
    }
    let filled = order.filled;
    let complete = false;
    // the final fill decides the strategy's reaction and the ledger (a fill just before the cancel
    // counts: docs/bots.md "What each bot did")
    try {
      const fetched = await adapter.fetchOrder(this.pair, order.id);
      if (fetched.status === "open") throw refused ?? new Error(`order ${order.id} is still open after its cancel`);
      this.money.seen(fetched, "maker", this.now());
      filled = fetched.filled;
      complete = fetched.status === "closed";
    } catch (error) {
      if (!(isExchangeError(error) && error.kind === "order-not-found")) throw refused ?? error;
    }
    this.money.forget(order.id);
    this.closeOpen(order, filled, complete, this.now(), decimals);
    await this.emit();
  }

  private async place(want: Wanted, now: number, decimals: PairDecimals): Promise<void> {
    const generation = this.memory.generation + 1;
    const clientOrderId = botClientOrderId(this.tag, want.slot, generation, this.rule);
    this.memory = { ...this.memory, generation };
    this.money.placedAt(now);
    let order: Order;
    try {
      order = await this.options.adapter.createOrder({
        pair: this.pair,
        side: want.side,
        price: want.price,
        amount: want.amount,
        clientOrderId,
        ...(this.postOnly ? { postOnly: true } : {}),
      });
    } catch (error) {
      if (this.postOnly && isExchangeError(error) && error.code === POST_ONLY_REFUSED) {
        // the book moved through the quote: not placed, and asked for again next tick, no back-off
        this.published = { ...this.published, lastError: message(error), lastErrorAt: now };
        return;
      }
      if (isExchangeError(error) && error.kind === "insufficient-funds") {
        // docs/decisions.md#d25: insufficient funds pauses that side, not the whole bot
        this.memory = {
          ...this.memory,
          pausedSides: { ...this.memory.pausedSides, [want.side]: now + this.fundsPauseMs },
        };
        this.published = { ...this.published, lastError: message(error), lastErrorAt: now };
        return;
      }
      throw error;
    }
    const own: OwnOrder = {
      slot: want.slot,
      id: order.id,
      clientOrderId,
      side: want.side,
      price: order.price || want.price,
      amount: order.amount || want.amount,
      filled: order.filled || "0",
      placedAt: now,
    };
    this.memory = { ...this.memory, open: [...this.memory.open, own] };
    this.ledger.set(this.options.account, this.botId, this.memory.open.length);
    // what it took at once is a taker fill (docs/bots.md "What each bot did")
    this.money.seen(order, "taker", now);
    if (order.status === "closed" || order.status === "canceled") this.money.forget(order.id);
    // an order that filled at once (it met the book) is closed now
    if (order.status === "closed" || order.status === "canceled")
      this.closeOpen(own, order.filled, order.status === "closed", now, decimals);
    // the live channel shows each order as it lands (the host writes the record every 2 s)
    await this.emit();
  }

  /** The sides paused for insufficient funds. */
  private pausedSides(): Side[] {
    return (Object.keys(this.memory.pausedSides) as Side[]).filter((s) => this.memory.pausedSides[s] !== undefined);
  }

  /** The state as stored and shown. */
  state(): BotState {
    const view = this.strategy.view(this.memory.strategy, this.memory.open);
    const paused = this.pausedSides();
    return {
      ...view,
      ...(this.published as BotStateFields),
      ...(paused.length > 0 ? { pausedSides: paused } : {}),
      ...(this.marked ? { pnl: this.marked } : {}),
      // a halted bot says why in every state it publishes, also while its orders are being cancelled
      ...(this.halted ? { status: "stopped", halted: this.halted, reason: this.halted.reason } : {}),
      updatedAt: this.now(),
      runner: { ...this.memory, money: this.money.memory() },
    };
  }

  private async emit(force = false): Promise<void> {
    const state = this.state();
    const { updatedAt: _u, runner, ...visible } = state;
    const json = JSON.stringify(visible);
    const memoryJson = JSON.stringify(runner);
    const published = force || json !== this.lastPublishedJson;
    if (!published && memoryJson === this.lastMemoryJson) return;
    this.lastPublishedJson = json;
    this.lastMemoryJson = memoryJson;
    try {
      await this.options.onState(state, published);
    } catch (error) {
      this.options.logger?.warn("bot state not saved", { botId: this.botId, error: message(error) });
    }
  }
}
