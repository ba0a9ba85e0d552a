/**
 * The services every route shares: configuration, storage, keys, limits, the mailer and the bot
 * hub of the live channel. Built once by startServer.
 */
import type { Logger } from "../lib/log.js";
import type { SignInGuard } from "./auth/limits.js";
import type { ResolvedConfig } from "./config.js";
import type { Mailer } from "./mail.js";
import type { Storage } from "./storage/types.js";

export interface BotEvents {
  /** a bot was created or its state changed */
  changed(botId: string): void;
  removed(botId: string, client: string): void;
}

/** The bot runner of `serve` (server/bots/host.ts); absent when the server runs no bots. */
export interface BotRunnerHost {
  /** PRODUCT D25: cancels the bot's orders (confirmed) and stops it; throws when it cannot */
  remove(botId: string): Promise<void>;
  /** the running bot's state not yet written to its record (published already), if any */
  latest(botId: string): Record<string, unknown> | undefined;
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
  /** PRODUCT D4: wraps bot credentials (64 hex characters) */
  readonly dataKey: string;
  /** WebAuthn origins accepted (known once the port is bound) */
  origins(): string[];
  readonly limiter: RateLimiter;
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
 * Sliding-window limiter (PRODUCT D8: more than N calls in the window is 604). In memory, per
 * process: a deployment with several server processes needs a shared store (PostgreSQL issue).
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private sweeps = 0;

  /** Calls recorded for `key` within the window, without recording one. */
  count(key: string, windowMs: number, now: number): number {
    const list = this.hits.get(key);
    if (!list) return 0;
    while (list.length > 0 && now - list[0]! >= windowMs) list.shift();
    return list.length;
  }

  /** Records a call without a limit (failures are recorded after the fact). */
  record(key: string, windowMs: number, now: number): void {
    this.count(key, windowMs, now);
    let list = this.hits.get(key);
    if (!list) {
      list = [];
      this.hits.set(key, list);
    }
    list.push(now);
    if (++this.sweeps % 10_000 === 0) this.sweep(now, windowMs);
  }

  /** Records a call; false when it is over the limit. */
  take(key: string, limit: number, windowMs: number, now: number): boolean {
    let list = this.hits.get(key);
    if (!list) {
      list = [];
      this.hits.set(key, list);
    }
    while (list.length > 0 && now - list[0]! >= windowMs) list.shift();
    if (list.length >= limit) return false;
    list.push(now);
    if (++this.sweeps % 10_000 === 0) this.sweep(now, windowMs);
    return true;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, list] of this.hits)
      if (list.length === 0 || now - list[list.length - 1]! >= windowMs) this.hits.delete(key);
  }
}
