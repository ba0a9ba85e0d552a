/**
 * The services every route shares: configuration, storage, keys, limits, the mailer and the bot
 * hub of the live channel. Built once by startServer.
 */
import { API_ERROR } from "../lib/api.js";
import type { Logger } from "../lib/log.js";
import type { SignInGuard } from "./auth/limits.js";
import type { Ledger } from "./bots/fills.js";
import type { ResolvedConfig } from "./config.js";
import { ApiError } from "./errors.js";
import type { Mailer } from "./mail.js";
import type { Storage } from "./storage/types.js";

export interface BotEvents {
  /** a bot was created or its state changed */
  changed(botId: string): void;
  /** `clients`: every client the bot used (docs/decisions.md#d26) */
  removed(botId: string, clients: readonly string[]): void;
}

/** The bot runner of `serve` (server/bots/host.ts); absent when the server runs no bots. */
export interface BotRunnerHost {
  /**
   * docs/decisions.md#d25: cancels the bot's orders (confirmed) and stops it; throws when it cannot.
   * The ledger it leaves (docs/bots.md "What each bot did"), when it ran in this process.
   */
  remove(botId: string): Promise<Ledger | undefined>;
  /** docs/bots.md "Risk limits and the kill switch": stopped with its orders cancelled until `resume` */
  stop(botId: string, reason: string): Promise<void>;
  /** starts a paused bot, or one a limit or a person stopped, again */
  resume(botId: string): Promise<void>;
  /** POST /token/bot/stop-all: the bots whose orders could not all be cancelled, with why */
  stopAll(botIds: readonly string[], reason: string): Promise<{ botId: string; error: string }[]>;
  /** the running bot's state not yet written to its record (published already), if any */
  latest(botId: string): Record<string, unknown> | undefined;
  /**
   * docs/bots.md "Create, edit, pause": cancels the bot's orders (confirmed) and keeps it stopped as
   * `paused` until resumed, across restarts; throws when the orders cannot be cancelled
   */
  pause(botId: string): Promise<void>;
  /**
   * stores an edited setup and starts the bot again with it (its orders re-quoted; cancelled first
   * when the pair changed: a refusal throws and nothing changes)
   */
  edit(botId: string, setup: unknown, pairChanged: boolean): Promise<void>;
}

export interface SessionEvents {
  ended(sessionId: string): void;
  /** a user was removed with all their sessions */
  userRemoved(userId: string): void;
}

export interface App {
  readonly config: ResolvedConfig;
  readonly storage: Storage;
  readonly logger: Logger;
  now(): number;
  /** signs access tokens */
  readonly tokenSecret: string;
  /** docs/decisions.md#d4: wraps bot credentials (64 hex characters) */
  readonly dataKey: string;
  /** WebAuthn origins accepted (known once the port is bound) */
  origins(): string[];
  /** docs/decisions.md#d8 (604): per process in memory, or shared through Redis (docs/scale-out.md) */
  readonly limiter: CallLimiter;
  /** failed sign-in and token checks per address and per e-mail (docs/server-limits.md) */
  readonly signIn: SignInGuard;
  bots: BotEvents;
  botRunner?: BotRunnerHost;
  /** a session ended (logout, replayed refresh token): its live-channel sockets close */
  sessions: SessionEvents;
  /** the paper exchange's data directory inside the server's */
  readonly paperDir: string;
  /** the secure flag of cookies (TLS or behind a TLS proxy) */
  readonly secureCookies: boolean;
  /** SMTP delivery of e-mail codes; absent without an `smtp` configuration (outbox.jsonl then) */
  readonly mailer?: Mailer;
}

/**
 * A sliding-window call limiter (docs/decisions.md#d8), as the routes use it: the in-process RateLimiter
 * below, or the Redis one of server/cluster/limits.ts that every server process shares
 * (docs/scale-out.md).
 *
 * Its verdict is never a value to test (docs/server-limits.md "Limits that apply"): `admit` answers
 * 604 itself by throwing, so a caller that forgets `await` leaves a floating promise, which the
 * lint refuses (biome's noFloatingPromises), instead of a Promise read as `true`.
 */
export interface CallLimiter {
  /** Records a call; over the limit it records nothing and throws 604 (API_ERROR.RATE_LIMIT). */
  admit(key: string, limit: number, windowMs: number, now: number): Promise<void>;
  /** Calls recorded for `key` within the window, without recording one. */
  count(key: string, windowMs: number, now: number): Promise<number>;
  /** Records a call without a limit (failures are recorded after the fact). */
  record(key: string, windowMs: number, now: number): Promise<void>;
}

/** The in-process limiter behind the CallLimiter interface (one server process, the default). */
export function memoryLimiter(limiter = new RateLimiter()): CallLimiter {
  return {
    admit: async (key, limit, windowMs, now) => {
      if (!limiter.take(key, limit, windowMs, now)) throw new ApiError(API_ERROR.RATE_LIMIT);
    },
    count: async (key, windowMs, now) => limiter.count(key, windowMs, now),
    record: async (key, windowMs, now) => limiter.record(key, windowMs, now),
  };
}

/**
 * Sliding-window limiter (docs/decisions.md#d8: more than N calls in the window is 604). In memory, per
 * process; several server processes share server/cluster/limits.ts instead.
 *
 * Each key keeps the times of its calls in the window, oldest first, as a queue whose head moves
 * forward (docs/server-speed.md): dropping the calls that left the window costs O(1) a call,
 * not an `Array.shift()` that copies the rest.
 */
export class RateLimiter {
  private readonly hits = new Map<string, Window>();
  private sweeps = 0;

  /** Calls recorded for `key` within the window, without recording one. */
  count(key: string, windowMs: number, now: number): number {
    const window = this.hits.get(key);
    return window ? window.drop(now, windowMs) : 0;
  }

  /** Records a call without a limit (failures are recorded after the fact). */
  record(key: string, windowMs: number, now: number): void {
    const window = this.windowOf(key);
    window.drop(now, windowMs);
    window.push(now);
    if (++this.sweeps % 10_000 === 0) this.sweep(now, windowMs);
  }

  /** Records a call; false when it is over the limit. */
  take(key: string, limit: number, windowMs: number, now: number): boolean {
    const window = this.windowOf(key);
    if (window.drop(now, windowMs) >= limit) return false;
    window.push(now);
    if (++this.sweeps % 10_000 === 0) this.sweep(now, windowMs);
    return true;
  }

  private windowOf(key: string): Window {
    let window = this.hits.get(key);
    if (!window) {
      window = new Window();
      this.hits.set(key, window);
    }
    return window;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.hits) if (window.drop(now, windowMs) === 0) this.hits.delete(key);
  }
}

/** The times of one key's calls, oldest first: `times[head..]` are in the window. */
class Window {
  private times: number[] = [];
  private head = 0;

  /** Forgets the calls at least `windowMs` old; returns how many are left. */
  drop(now: number, windowMs: number): number {
    const times = this.times;
    let head = this.head;
    while (head < times.length && now - times[head]! >= windowMs) head++;
    if (head === times.length) {
      this.times = [];
      this.head = 0;
      return 0;
    }
    // the dropped part is released once it is the larger half (amortized O(1) a call)
    if (head > 64 && head * 2 > times.length) {
      this.times = times.slice(head);
      this.head = 0;
    } else this.head = head;
    return times.length - head;
  }

  push(now: number): void {
    this.times.push(now);
  }
}
