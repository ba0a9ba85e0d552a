/**
 * `spotdesk serve` runs every stored runnable bot (docs/bots.md, docs/decisions.md#d4, #d25): at start it
 * resumes each from its stored state (the runner reconciles with the exchange's open orders), a
 * created bot starts at once, a removed one cancels its orders first. Credentials come from the
 * bot's own copy re-wrapped under the server's data key (docs/decisions.md#d4). State changes are written to the bot
 * record and published on the live channel (snapshot/delta, scope docs/decisions.md#d6) by the hub.
 */

import { needsApiKey } from "../../exchanges/catalogue.js";
import { nodeFeedOptions } from "../../exchanges/feed-node.js";
import { createFeed } from "../../exchanges/feeds.js";
import { openAccount } from "../../exchanges/open.js";
import { paperPair } from "../../exchanges/paper/index.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import { decryptText, type StoredCredentials } from "../../lib/envelope.js";
import { isExchangeError } from "../../lib/errors.js";
import { isExchangeId } from "../../lib/types.js";
import { buildAdapter } from "../accounts.js";
import type { App, BotEvents } from "../app.js";
import type { ClusterBus, ClusterEnvelope } from "../cluster/bus.js";
import { type BotLeases, fencedAdapter } from "../cluster/lease.js";
import { type BotRecord, pathKey } from "../storage/types.js";
import type { BotFill, Ledger } from "./fills.js";
import { AccountRisk, type BotHalt, restoreHalt, resumedRunnerMemory } from "./money.js";
import { AccountLedger, BotRunner, type BotState, message } from "./runner.js";
import { describeLeftOpen, type LeftOpen, OrdersLeftOpenError } from "./safety.js";
import { createStrategy, isRunnable } from "./strategies/index.js";

interface FeedEntry {
  feed: BookFeed;
  users: number;
}

/** How often a running bot's state is written to its record (its changes are published at once). */
export const PERSIST_EVERY_MS = 2000;

/** What the host needs of the live channel. */
export interface BotPublisher extends BotEvents {
  publishBot(bot: BotRecord): void;
}

interface Running {
  record: BotRecord;
  runner: BotRunner;
  adapter: ExchangeAdapter;
  feedKey: string;
}

/** Several server processes (docs/scale-out.md): who runs which bot, and how they talk. */
export interface BotCluster {
  leases: BotLeases;
  bus: ClusterBus;
}

/** What a stop of serve could not cancel (docs/bots.md#safety-net): empty when every order is gone. */
export interface StopReport {
  orders: LeftOpen[];
  /** one line per bot whose orders were not all cancelled, naming them */
  problems: string[];
}

/** docs/bots.md "Create, edit, pause": the mark in a bot's state that a user paused it (kept across restarts). */
export const USER_PAUSED = "userPaused";
export const PAUSED_REASON = "Paused: its orders were cancelled; resume it to start again";
/** The reason of a bot about to start again (create, resume, edit). */
export const STARTING_REASON = "starting";

export function isUserPaused(state: Record<string, unknown> | undefined): boolean {
  return state?.[USER_PAUSED] === true;
}

/** How long a process waits for the bot's owner to remove it (cancels included). */
export const REMOTE_REMOVE_TIMEOUT_MS = 30_000;

export class BotHost {
  private readonly running = new Map<string, Running>();
  private readonly feeds = new Map<string, FeedEntry>();
  private readonly ledger = new AccountLedger();
  /** docs/decisions.md#d30: the accounts' bots' figures for the account limits */
  private readonly risk = new AccountRisk();
  /** fills seen since the last write, written with the states (docs/bots.md "What each bot did") */
  private unsavedFills: { botId: string; fill: BotFill }[] = [];
  private readonly starting = new Map<string, Promise<void>>();
  private closed = false;
  private readonly unsaved = new Map<string, BotState | Record<string, unknown>>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  /** `hub` publishes deltas on the live channel (the host writes the state first). */
  constructor(
    private readonly app: App,
    private readonly hub: BotPublisher,
    /** REST and feed URLs per exchange id (ServerOptions.botEndpoints) */
    private readonly endpoints: Partial<Record<string, { baseUrl?: string; wsUrl?: string }>> = {},
    /** with several processes: a bot runs only where its lease is held (docs/scale-out.md) */
    private readonly cluster?: BotCluster,
  ) {
    cluster?.bus.on((event) => this.onClusterMessage(event));
    cluster?.bus.onRemoveRequest(async (botId) => {
      await this.remove(botId);
    });
  }

  private sweepTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepError: string | undefined;
  /** bots whose lease this process holds without running them (they could not start) */
  private readonly parked = new Set<string>();
  /** bots removed here whose record may not be deleted yet: never started again */
  private readonly removed = new Set<string>();

  /** Resumes every stored runnable bot (serve's start); with leases, those nobody else runs. */
  async startAll(): Promise<void> {
    if (this.cluster) this.scheduleSweep(); // also when a start below fails: the sweep tries again
    for (const bot of await this.app.storage.listBots()) {
      await this.start(bot.id).catch((error: unknown) =>
        this.app.logger.error("bot start failed", { botId: bot.id, error: String(error) }),
      );
    }
  }

  /**
   * docs/scale-out.md: every third of the lease time the process renews its leases (a bot whose
   * lease was lost stops here at once, its orders left to the new owner) and takes the leases
   * nobody holds (a dead process's bots): a bot is back within about 1.3 lease times.
   */
  private scheduleSweep(): void {
    if (this.closed || !this.cluster) return;
    this.sweepTimer = setTimeout(
      () => {
        void this.sweep()
          .then(() => {
            this.sweepError = undefined;
          })
          .catch((error: unknown) => {
            // once per outage, not every third of a lease time
            if (String(error) !== this.sweepError)
              this.app.logger.warn("bot lease sweep failed", { error: String(error) });
            this.sweepError = String(error);
          })
          .finally(() => this.scheduleSweep());
      },
      Math.floor(this.cluster.leases.leaseMs / 3),
    );
    this.sweepTimer.unref();
  }

  private async sweep(): Promise<void> {
    const leases = this.cluster!.leases;
    for (const botId of leases.heldBots()) {
      if (this.closed) return;
      if (!(await leases.renew(botId))) await this.lose(botId);
    }
    const stored = await this.app.storage.listBots();
    const ids = new Set(stored.map((b) => b.id));
    for (const botId of leases.heldBots()) if (!ids.has(botId)) await this.lose(botId); // removed elsewhere
    for (const bot of stored) {
      if (this.closed) return;
      if (!this.running.has(bot.id) && !this.parked.has(bot.id) && isRunnable(bot.botType)) await this.start(bot.id);
    }
  }

  /** The lease is gone (taken over, or the bot removed): stop here without a word or a write. */
  private async lose(botId: string): Promise<void> {
    this.parked.delete(botId);
    this.removed.delete(botId);
    this.unsaved.delete(botId);
    const current = this.running.get(botId);
    await this.cluster?.leases.release(botId);
    if (!current) return;
    this.running.delete(botId);
    this.app.logger.warn("bot lease lost: stopped here", { botId });
    await current.runner.stop().catch(() => undefined);
    this.unsaved.delete(botId); // what the stop itself reported: the new owner writes the state now
    this.releaseFeed(current.feedKey);
    await current.adapter.close().catch(() => undefined);
  }

  private onClusterMessage(event: ClusterEnvelope): void {
    if (this.closed || !this.cluster) return;
    // only the owner reacts (removed credentials stop the bot); a free lease is taken by the sweep
    if (event.kind === "bot-changed" && (this.running.has(event.botId) || this.parked.has(event.botId)))
      this.changed(event.botId);
  }

  /** A bot was created or its record changed (the routes call this through app.bots). */
  changed(botId: string): void {
    if (this.closed) return;
    void this.start(botId).catch((error: unknown) =>
      this.app.logger.error("bot start failed", { botId, error: String(error) }),
    );
  }

  /** Starts a bot that is runnable and not running yet; a bot whose credentials were removed stops. */
  start(botId: string): Promise<void> {
    const pending = this.starting.get(botId);
    if (pending !== undefined) return pending;
    const work = this.startNow(botId).finally(() => this.starting.delete(botId));
    this.starting.set(botId, work);
    return work;
  }

  private async startNow(botId: string): Promise<void> {
    const bot = await this.app.storage.getBot(botId);
    if (!bot || !isRunnable(bot.botType) || this.closed || this.removed.has(botId)) return;
    let current = this.running.get(botId);
    // docs/bots.md "Create, edit, pause": a paused bot does not run (its owner stops it when paused elsewhere)
    if (isUserPaused(bot.state)) {
      if (current) await this.pauseNow(botId);
      return;
    }
    // docs/bots.md "Risk limits and the kill switch": a halted bot stays stopped until a person resumes it
    const halt = restoreHalt(bot.state.halted);
    if (halt && !current) return;
    if (halt && current && !current.runner.halt) {
      // stopped from another process (docs/scale-out.md): the owner cancels its orders
      await current.runner
        .haltNow(halt)
        .catch((error: unknown) =>
          this.app.logger.warn("bot orders not all cancelled at its stop", { botId, error: message(error) }),
        );
      return;
    }
    // its setup was edited (on another process): the runner starts again with the new one
    if (current && JSON.stringify(current.record.setup) !== JSON.stringify(bot.setup)) {
      await this.stopHere(botId, current, false);
      current = undefined;
    }
    if (!current && this.cluster) {
      // docs/scale-out.md: only the holder of the bot's lease runs it
      if (!(await this.cluster.leases.acquire(botId))) return;
      this.parked.delete(botId);
      const prepared = await this.prepare(bot);
      if (!prepared || this.closed) {
        if (prepared) await prepared.adapter.close().catch(() => undefined);
        else this.parked.add(botId); // could not start: the lease stays here until the record changes
        return;
      }
      this.running.set(bot.id, prepared);
      prepared.runner.start();
      return;
    }
    if (current) {
      // docs/decisions.md#d4: removing the API key deleted the bot's credentials: it can no longer trade
      if (needsApiKey(bot.path[1]) && bot.wrappedCredentials === null)
        await this.halt(
          botId,
          "The account's API key was removed; the bot stopped (its orders were left as they are).",
        );
      return;
    }
    const prepared = await this.prepare(bot);
    if (!prepared) return;
    this.running.set(bot.id, prepared);
    prepared.runner.start();
  }

  /** The bot's runner with its adapter and feed, not started; undefined (stored as stopped) when it cannot run. */
  private async prepare(bot: BotRecord): Promise<Running | undefined> {
    if (!isRunnable(bot.botType)) return undefined;
    let adapter: ExchangeAdapter;
    let pair: string;
    try {
      pair = createStrategy(bot.botType, bot.setup).pair;
      adapter = await this.adapterFor(bot);
      if (this.cluster) adapter = fencedAdapter(adapter, bot.id, this.cluster.leases);
    } catch (error) {
      await this.stopWith(bot, error);
      return undefined;
    }
    const exchange = bot.path[1];
    if (!isExchangeId(exchange)) return undefined;
    const feedKey = `${exchange}:${pair}`;
    let feed: BookFeed;
    let decimals: { price: number; amount: number } | undefined;
    try {
      feed = this.acquireFeed(exchange, pair, feedKey);
      decimals = await this.decimalsFor(exchange, pair);
    } catch (error) {
      // an exchange without a live book (or an unknown pair) cannot run a bot: docs/decisions.md#d25 places nothing blind
      if (this.feeds.has(feedKey)) this.releaseFeed(feedKey);
      await adapter.close().catch(() => undefined);
      await this.stopWith(bot, error);
      return undefined;
    }
    const accountName = bot.path.join("/");
    const accountLimits = this.app.config.accountLimits?.[accountName];
    const runner: BotRunner = new BotRunner({
      botId: bot.id,
      type: bot.botType,
      setup: bot.setup,
      exchange,
      adapter,
      feed,
      ...(decimals ? { decimals } : {}),
      state: bot.state,
      account: pathKey(bot.path),
      ledger: this.ledger,
      now: () => this.app.now(),
      pullAfterMs: this.app.config.botPullAfterMs,
      countdownSeconds: this.app.config.botCountdownSeconds,
      logger: this.app.logger,
      onState: (state, published) => this.saveState(bot.id, state, published, runner.drainFills()),
      risk: this.risk,
      accountName,
      ...(accountLimits ? { accountLimits } : {}),
      onHalt: (halt) => this.onHalt(bot.id, halt),
    });
    return { record: bot, runner, adapter, feedKey };
  }

  private async adapterFor(bot: BotRecord): Promise<ExchangeAdapter> {
    // paper queues and groups its own calls per account (docs/paper-store.md)
    if (!needsApiKey(bot.path[1])) return buildAdapter(this.app, bot.path, undefined);
    if (!bot.wrappedCredentials)
      throw new Error("No credentials for this bot: add the account's API key and create the bot again");
    const all = JSON.parse(await decryptText(bot.wrappedCredentials, this.app.dataKey)) as Record<
      string,
      StoredCredentials
    >;
    const credentials = all[pathKey(bot.path)];
    if (!credentials) throw new Error("No credentials for this bot's account");
    const baseUrl = this.endpoints[bot.path[1]]?.baseUrl;
    return openAccount(bot.path[1], { credentials, logger: this.app.logger, ...(baseUrl ? { baseUrl } : {}) });
  }

  private async decimalsFor(exchange: string, pair: string): Promise<{ price: number; amount: number } | undefined> {
    if (exchange === "paper") {
      const spec = paperPair(pair);
      return { price: spec.priceDecimals, amount: spec.amountDecimals };
    }
    const stored = await this.app.storage.getTokenPair(exchange, pair);
    return stored ? { price: stored.priceDecimals, amount: stored.amountDecimals } : undefined;
  }

  private acquireFeed(exchange: string, pair: string, key: string): BookFeed {
    let entry = this.feeds.get(key);
    if (!entry) {
      // the feed index builds paper's feed too; only paper reads `now` (the server's clock)
      const feed = createFeed(exchange, pair, {
        ...nodeFeedOptions(),
        logger: this.app.logger,
        now: () => this.app.now(),
        ...(this.app.config.proxy ? { proxy: this.app.config.proxy } : {}),
        ...(this.endpoints[exchange]?.wsUrl ? { wsUrl: this.endpoints[exchange]?.wsUrl } : {}),
      });
      entry = { feed, users: 0 };
      this.feeds.set(key, entry);
      feed.start();
    }
    entry.users++;
    return entry.feed;
  }

  private releaseFeed(key: string): void {
    const entry = this.feeds.get(key);
    if (!entry) return;
    if (--entry.users <= 0) {
      entry.feed.stop();
      this.feeds.delete(key);
    }
  }

  /**
   * Publishes a state change at once (the live channel, from memory) and writes it to the bot's
   * record at most every `PERSIST_EVERY_MS` per bot: a restart needs no step in between (it
   * adopts its orders, docs/decisions.md#d25), and 100 bots replacing every second would otherwise spend the event
   * loop in SQLite writes (bench/bots.bench.ts).
   */
  private async saveState(
    botId: string,
    state: BotState | Record<string, unknown>,
    published: boolean,
    fills: readonly BotFill[] = [],
  ): Promise<void> {
    for (const fill of fills) this.unsavedFills.push({ botId, fill });
    const running = this.running.get(botId);
    if (!running) return this.saveNow(botId, state);
    if (published) this.hub.publishBot({ ...running.record, state });
    this.unsaved.set(botId, state);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flushAll();
    }, PERSIST_EVERY_MS);
  }

  /** A bot that is not running: its state is written and published at once. */
  /** A bot that cannot start is stored as stopped, with why. */
  private stopWith(bot: BotRecord, error: unknown): Promise<void> {
    return this.saveNow(bot.id, { ...bot.state, status: "stopped", reason: message(error), updatedAt: this.app.now() });
  }

  private async saveNow(botId: string, state: BotState | Record<string, unknown>): Promise<void> {
    this.unsaved.set(botId, state);
    await this.flush(botId);
    this.hub.changed(botId);
  }

  private async flush(botId: string): Promise<void> {
    const state = this.unsaved.get(botId);
    if (state === undefined) return;
    this.unsaved.delete(botId);
    const fills = this.unsavedFills.filter((f) => f.botId === botId);
    if (fills.length > 0) this.unsavedFills = this.unsavedFills.filter((f) => f.botId !== botId);
    try {
      if (!(await this.app.storage.getBot(botId))) return; // removed meanwhile
      await this.app.storage.updateBotStates([{ id: botId, state }], fills);
    } catch (error) {
      this.app.logger.warn("bot state not saved", { botId, error: String(error) });
    }
  }

  /** every pending state in one transaction: one commit (one fsync) per period, not one per bot */
  private async flushAll(): Promise<void> {
    // docs/scale-out.md: a process writes only the states of bots whose lease it still holds
    const leases = this.cluster?.leases;
    const entries = [...this.unsaved]
      .filter(([id]) => !leases || leases.valid(id))
      .map(([id, state]) => ({ id, state }));
    this.unsaved.clear();
    const fills = this.unsavedFills.filter((f) => !leases || leases.valid(f.botId));
    this.unsavedFills = [];
    if (entries.length === 0 && fills.length === 0) return;
    try {
      await this.app.storage.updateBotStates(entries, fills); // a removed bot's row is simply not there
    } catch (error) {
      this.app.logger.warn("bot states not saved", { bots: entries.length, error: String(error) });
    }
  }

  /** Stops a bot without touching its orders, with a reason in its state. */
  private async halt(botId: string, reason: string): Promise<void> {
    const current = this.running.get(botId);
    if (!current) return;
    this.running.delete(botId);
    await current.runner.stop();
    this.releaseFeed(current.feedKey);
    await current.adapter.close().catch(() => undefined);
    await this.saveNow(botId, { ...current.runner.state(), status: "stopped", reason, updatedAt: this.app.now() });
    if (this.cluster) this.parked.add(botId);
  }

  /** Stops a running bot here (its orders cancelled first when asked; a refusal restarts it and throws). */
  private async stopHere(botId: string, current: Running, cancelOrders: boolean): Promise<void> {
    try {
      await current.runner.stop({ cancelOrders });
    } catch (error) {
      current.runner.start();
      throw error;
    }
    this.running.delete(botId);
    this.unsaved.delete(botId); // the state written next replaces what the stop reported
    this.releaseFeed(current.feedKey);
    await current.adapter.close().catch(() => undefined);
  }

  /**
   * docs/bots.md "Create, edit, pause": cancels the bot's orders (each confirmed; a refusal throws and
   * the bot keeps running) and stores it as `paused` with the mark that keeps it so across restarts.
   * A bot running on another process is paused there: the record's mark reaches its owner.
   */
  async pause(botId: string): Promise<void> {
    await this.starting.get(botId);
    await this.pauseNow(botId);
  }

  private async pauseNow(botId: string): Promise<void> {
    const current = this.running.get(botId);
    if (current) await this.stopHere(botId, current, true);
    const bot = await this.app.storage.getBot(botId);
    if (!bot) return;
    const base = current ? current.runner.state() : bot.state;
    await this.saveNow(botId, {
      ...base,
      status: "paused",
      reason: PAUSED_REASON,
      [USER_PAUSED]: true,
      updatedAt: this.app.now(),
    });
  }

  /**
   * An edited bot (docs/bots.md "Create, edit, pause"): the runner stops (cancelling its orders first
   * when the pair changed; a refusal throws and nothing changes), the new setup is stored with a
   * fresh strategy, and the bot starts again unless paused: it adopts its resting orders by their
   * client ids and re-quotes them for the new setup.
   */
  async edit(botId: string, setup: unknown, pairChanged: boolean): Promise<void> {
    await this.starting.get(botId);
    const current = this.running.get(botId);
    if (current) await this.stopHere(botId, current, pairChanged);
    const bot = await this.app.storage.getBot(botId);
    if (!bot) return;
    const paused = isUserPaused(bot.state);
    await this.app.storage.updateBotSetup(botId, setup, {
      status: paused ? "paused" : "stopped",
      reason: paused ? PAUSED_REASON : STARTING_REASON,
      ...(paused ? { [USER_PAUSED]: true } : {}),
      updatedAt: this.app.now(),
    });
    this.hub.changed(botId);
    if (!paused) {
      this.parked.delete(botId);
      await this.start(botId);
    }
  }

  /**
   * docs/decisions.md#d25: removing a bot cancels its orders first. Throws when they cannot all be cancelled;
   * the bot then keeps running and stays stored.
   */
  async remove(botId: string): Promise<Ledger | undefined> {
    await this.starting.get(botId);
    const current = this.running.get(botId);
    if (!current) {
      if (this.cluster) await this.removeElsewhere(botId);
      return undefined;
    }
    let left: Ledger;
    try {
      left = await current.runner.closeOut();
    } catch (error) {
      current.runner.start();
      throw error;
    }
    this.risk.report(pathKey(current.record.path), botId, undefined);
    this.running.delete(botId);
    this.releaseFeed(current.feedKey);
    await current.adapter.close().catch(() => undefined);
    // the lease is kept until the record is gone (the next sweep lets it go): no one restarts it meanwhile
    if (this.cluster) this.removed.add(botId);
    return left;
  }

  /**
   * The kill switch for one bot (docs/bots.md "Risk limits and the kill switch"): stopped, its
   * orders cancelled, and kept stopped (also across restarts) until `resume`. A bot another
   * process runs is marked in its record; its owner stops it on the change (docs/scale-out.md).
   * Throws when an order could not be cancelled (the bot is stopped all the same).
   */
  async stop(botId: string, reason: string): Promise<void> {
    await this.starting.get(botId);
    const halt: BotHalt = { reason, at: this.app.now(), by: "person" };
    const current = this.running.get(botId);
    if (current) {
      if (current.runner.halt) return;
      try {
        await current.runner.haltNow(halt);
      } finally {
        await this.flush(botId); // in the record at once: a restart keeps it stopped, other processes see it
      }
      return;
    }
    const bot = await this.app.storage.getBot(botId);
    if (!bot || restoreHalt(bot.state.halted)) return;
    await this.saveNow(botId, { ...bot.state, status: "stopped", reason, halted: halt, updatedAt: this.app.now() });
  }

  /**
   * Stops many bots at once (POST /token/bot/stop-all): every bot's orders cancelled in parallel,
   * the states written in one transaction. The bots whose orders could not all be cancelled, with why.
   */
  async stopAll(botIds: readonly string[], reason: string): Promise<{ botId: string; error: string }[]> {
    const at = this.app.now();
    const results = await Promise.all(
      botIds.map(async (botId) => {
        try {
          await this.starting.get(botId);
          const current = this.running.get(botId);
          if (current) {
            if (!current.runner.halt) await current.runner.haltNow({ reason, at, by: "person" });
          } else {
            const bot = await this.app.storage.getBot(botId);
            if (bot && !restoreHalt(bot.state.halted))
              this.unsaved.set(botId, {
                ...bot.state,
                status: "stopped",
                reason,
                halted: { reason, at, by: "person" },
                updatedAt: at,
              });
          }
          return undefined;
        } catch (error) {
          return { botId, error: message(error) };
        }
      }),
    );
    await this.flushAll();
    return results.filter((r) => r !== undefined);
  }

  /**
   * Lifts a pause or a limit's stop (docs/bots.md "Create, edit, pause", "Risk limits and the kill
   * switch"): the bot starts again with its ledger, adopts what rests and re-quotes.
   */
  async resume(botId: string): Promise<void> {
    await this.starting.get(botId);
    const current = this.running.get(botId);
    if (current) {
      if (current.runner.halt) {
        await current.runner.resume();
        await this.flush(botId);
      }
      return;
    }
    const bot = await this.app.storage.getBot(botId);
    if (!bot) return;
    const { [USER_PAUSED]: _mark, halted: _h, reason: _r, ...state } = bot.state;
    await this.saveNow(botId, {
      ...state,
      ...(state.runner !== undefined ? { runner: resumedRunnerMemory(state.runner, state.pnl) } : {}),
      status: "stopped",
      reason: STARTING_REASON,
      updatedAt: this.app.now(),
    });
    this.parked.delete(botId);
    await this.start(botId);
  }

  /**
   * A bot stopped itself at a limit. An account limit stops every bot of the account
   * (docs/decisions.md#d30); each cancels its own orders.
   */
  private onHalt(botId: string, halt: BotHalt): void {
    void this.flush(botId); // in the record at once: a restart keeps it stopped
    if (halt.by !== "account") return;
    const account = this.running.get(botId)?.record.path;
    if (!account) return;
    for (const [id, other] of this.running) {
      if (id === botId || other.runner.halt || pathKey(other.record.path) !== pathKey(account)) continue;
      void other.runner
        .haltNow({ ...halt, at: this.app.now() })
        .catch((error: unknown) =>
          this.app.logger.warn("bot orders not all cancelled at its stop", { botId: id, error: message(error) }),
        );
    }
  }

  /**
   * docs/scale-out.md: a bot this process does not run is removed by its owner (asked on the
   * bus); a bot nobody runs (its owner died, or it could not start) is taken over here just to
   * cancel its orders, without placing any.
   */
  private async removeElsewhere(botId: string): Promise<void> {
    const { leases, bus } = this.cluster!;
    if (this.parked.has(botId)) return; // never started here: it placed nothing
    const holder = await leases.holderOf(botId);
    if (holder !== undefined && holder !== bus.instanceId) {
      await bus.askToRemove(botId, holder, REMOTE_REMOVE_TIMEOUT_MS);
      return;
    }
    const bot = await this.app.storage.getBot(botId);
    if (!bot || !isRunnable(bot.botType)) return;
    if (!(await leases.acquire(botId))) throw new Error("another process took this bot over meanwhile: try again");
    const prepared = await this.prepare(bot);
    if (!prepared) return;
    try {
      await prepared.runner.stop({ cancelOrders: true });
      this.removed.add(botId);
    } finally {
      this.releaseFeed(prepared.feedKey);
      await prepared.adapter.close().catch(() => undefined);
    }
  }

  latest(botId: string): Record<string, unknown> | undefined {
    return this.unsaved.get(botId);
  }

  /** The runner of a bot (tests, bench). */
  runnerOf(botId: string): BotRunner | undefined {
    return this.running.get(botId)?.runner;
  }

  get size(): number {
    return this.running.size;
  }

  /**
   * serve stops (docs/bots.md#safety-net): every bot cancels its orders, each confirmed, and what
   * could not be cancelled is returned (and logged) by name. With `keepOrders`, and in a cluster
   * (whose leases hand the bots to another process at once), the orders stay resting for the next
   * owner to adopt.
   */
  async close(options: { keepOrders?: boolean } = {}): Promise<StopReport> {
    this.closed = true;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    await Promise.allSettled([...this.starting.values()]);
    const cancelOrders = !options.keepOrders && !this.cluster;
    const stops = await Promise.allSettled([...this.running.values()].map((r) => r.runner.stop({ cancelOrders })));
    const left = this.leftOpen(stops);
    // every bot stopped: the countdowns a bot left armed for its neighbours go too, unless orders stay
    if (cancelOrders) {
      const clean = [...this.running.values()].filter((_, i) => stops[i]?.status === "fulfilled");
      await Promise.allSettled(clean.map((r) => r.runner.disarmCountdown()));
    }
    for (const r of this.running.values()) await r.adapter.close().catch(() => undefined);
    this.running.clear();
    for (const entry of this.feeds.values()) entry.feed.stop();
    this.feeds.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flushAll(); // the last states reach the records before the database closes
    // a clean stop hands the bots over at once instead of after the lease time
    if (this.cluster) for (const botId of this.cluster.leases.heldBots()) await this.cluster.leases.release(botId);
    return left;
  }

  /** What the stops could not cancel, each bot's logged by name. */
  private leftOpen(stops: PromiseSettledResult<void>[]): StopReport {
    const ids = [...this.running.keys()];
    const report: StopReport = { orders: [], problems: [] };
    stops.forEach((stop, i) => {
      if (stop.status === "fulfilled") return;
      const orders = stop.reason instanceof OrdersLeftOpenError ? stop.reason.orders : [];
      const detail = isExchangeError(stop.reason) ? stop.reason.detail : message(stop.reason);
      this.app.logger.error("bot orders left open at stop", {
        botId: ids[i],
        error: detail,
        orders: orders.map(describeLeftOpen),
      });
      report.orders.push(...orders);
      report.problems.push(`bot ${ids[i]}: ${detail}`);
    });
    return report;
  }
}
