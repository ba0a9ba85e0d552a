/**
 * `spotdesk serve` runs every stored runnable bot (docs/bots.md, PRODUCT D4, D25): at start it
 * resumes each from its stored state (the runner reconciles with the exchange's open orders), a
 * created bot starts at once, a removed one cancels its orders first. Credentials come from the
 * bot's own copy re-wrapped under the server's data key (D4). State changes are written to the bot
 * record and published on the live channel (snapshot/delta, scope D6) by the hub.
 */

import { nodeFeedOptions } from "../../exchanges/feed-node.js";
import { createFeed } from "../../exchanges/feeds.js";
import { createPaperFeed, paperPair } from "../../exchanges/paper/index.js";
import { createExchange } from "../../exchanges/registry.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import { decryptText, type StoredCredentials } from "../../lib/envelope.js";
import { isExchangeId } from "../../lib/types.js";
import { buildAdapter } from "../accounts.js";
import type { App, BotEvents } from "../app.js";
import { type BotRecord, pathKey } from "../storage/types.js";
import { AccountLedger, BotRunner, type BotState, message } from "./runner.js";
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

export class BotHost {
  private readonly running = new Map<string, Running>();
  private readonly feeds = new Map<string, FeedEntry>();
  private readonly ledger = new AccountLedger();
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
  ) {}

  /** Resumes every stored runnable bot (serve's start). */
  async startAll(): Promise<void> {
    for (const bot of await this.app.storage.listBots()) await this.start(bot.id);
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
    if (pending) return pending;
    const work = this.startNow(botId).finally(() => this.starting.delete(botId));
    this.starting.set(botId, work);
    return work;
  }

  private async startNow(botId: string): Promise<void> {
    const bot = await this.app.storage.getBot(botId);
    if (!bot || !isRunnable(bot.botType) || this.closed) return;
    const current = this.running.get(botId);
    if (current) {
      // PRODUCT D4: removing the API key deleted the bot's credentials: it can no longer trade
      if (bot.path[1] !== "paper" && bot.wrappedCredentials === null)
        await this.halt(
          botId,
          "The account's API key was removed; the bot stopped (its orders were left as they are).",
        );
      return;
    }
    let adapter: ExchangeAdapter;
    let pair: string;
    try {
      pair = createStrategy(bot.botType, bot.setup).pair;
      adapter = await this.adapterFor(bot);
    } catch (error) {
      await this.stopWith(bot, error);
      return;
    }
    const exchange = bot.path[1];
    if (!isExchangeId(exchange)) return;
    const feedKey = `${exchange}:${pair}`;
    let feed: BookFeed;
    let decimals: { price: number; amount: number } | undefined;
    try {
      feed = this.acquireFeed(exchange, pair, feedKey);
      decimals = await this.decimalsFor(exchange, pair);
    } catch (error) {
      // an exchange without a live book (or an unknown pair) cannot run a bot: D25 places nothing blind
      if (this.feeds.has(feedKey)) this.releaseFeed(feedKey);
      await adapter.close().catch(() => undefined);
      await this.stopWith(bot, error);
      return;
    }
    const runner = new BotRunner({
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
      logger: this.app.logger,
      onState: (state, published) => this.saveState(bot.id, state, published),
    });
    this.running.set(bot.id, { record: bot, runner, adapter, feedKey });
    runner.start();
  }

  private async adapterFor(bot: BotRecord): Promise<ExchangeAdapter> {
    // paper queues and groups its own calls per account (docs/paper-store.md)
    if (bot.path[1] === "paper") return buildAdapter(this.app, bot.path, undefined);
    if (!bot.wrappedCredentials)
      throw new Error("No credentials for this bot: add the account's API key and create the bot again (PRODUCT D4)");
    const all = JSON.parse(await decryptText(bot.wrappedCredentials, this.app.dataKey)) as Record<
      string,
      StoredCredentials
    >;
    const credentials = all[pathKey(bot.path)];
    if (!credentials) throw new Error("No credentials for this bot's account (PRODUCT D4)");
    const baseUrl = this.endpoints[bot.path[1]]?.baseUrl;
    return createExchange(bot.path[1], credentials, { logger: this.app.logger, ...(baseUrl ? { baseUrl } : {}) });
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
      const feed =
        exchange === "paper"
          ? createPaperFeed(pair, { now: () => this.app.now() })
          : createFeed(exchange, pair, {
              ...nodeFeedOptions(),
              logger: this.app.logger,
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
   * adopts its orders, D25), and 100 bots replacing every second would otherwise spend the event
   * loop in SQLite writes (bench/bots.bench.ts).
   */
  private async saveState(botId: string, state: BotState | Record<string, unknown>, published: boolean): Promise<void> {
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
    try {
      if (!(await this.app.storage.getBot(botId))) return; // removed meanwhile
      await this.app.storage.updateBotState(botId, state);
    } catch (error) {
      this.app.logger.warn("bot state not saved", { botId, error: String(error) });
    }
  }

  /** every pending state in one transaction: one commit (one fsync) per period, not one per bot */
  private async flushAll(): Promise<void> {
    const entries = [...this.unsaved].map(([id, state]) => ({ id, state }));
    this.unsaved.clear();
    if (entries.length === 0) return;
    try {
      await this.app.storage.updateBotStates(entries); // a removed bot's row is simply not there
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
  }

  /**
   * PRODUCT D25: removing a bot cancels its orders first. Throws when they cannot all be cancelled;
   * the bot then keeps running and stays stored.
   */
  async remove(botId: string): Promise<void> {
    await this.starting.get(botId);
    const current = this.running.get(botId);
    if (!current) return;
    try {
      await current.runner.stop({ cancelOrders: true });
    } catch (error) {
      current.runner.start();
      throw error;
    }
    this.running.delete(botId);
    this.releaseFeed(current.feedKey);
    await current.adapter.close().catch(() => undefined);
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

  /** serve stops: every loop ends, orders stay resting for the next start to adopt. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.starting.values()]);
    await Promise.allSettled([...this.running.values()].map((r) => r.runner.stop()));
    for (const r of this.running.values()) await r.adapter.close().catch(() => undefined);
    this.running.clear();
    for (const entry of this.feeds.values()) entry.feed.stop();
    this.feeds.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flushAll(); // the last states reach the records before the database closes
  }
}
