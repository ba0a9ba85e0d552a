/**
 * The storage interface of the backend (docs/api.md#backend: SQLite as the embedded default,
 * behind an interface a PostgreSQL implementation can take). Every method is async so that a
 * networked database fits; the SQLite implementation answers synchronously inside.
 *
 * Secrets at rest: password hashes (scrypt), refresh tokens and e-mail codes as SHA-256 hashes,
 * API-key envelopes exactly as the dashboard sent them (encrypted with the operator's key), and
 * bot credentials re-wrapped under the server's data key (docs/decisions.md#d4).
 */

import type { AccountPath, Scope } from "../../lib/api.js";
import type { BotFill } from "../bots/fills.js";

export interface UserRecord {
  id: string;
  email: string;
  /** scrypt hash "scrypt$N$r$p$salt$hash"; null until the permitted e-mail registered */
  passwordHash: string | null;
  admin: boolean;
  scope: Scope;
  lastActive: number | null;
  created: number;
}

export interface WebAuthnCredentialRecord {
  /** base64url credential id */
  id: string;
  userId: string;
  /** COSE public key */
  publicKey: Uint8Array;
  counter: number;
  /** the newest login timestamp accepted with this key: an older or equal one is a replay */
  lastTimestamp: number;
  created: number;
}

export interface EmailCodeRecord {
  id: number;
  email: string;
  /** the address that asked for it (server/address.ts), for the per-address code limits */
  address: string;
  codeHash: string;
  expires: number;
  attempts: number;
  used: boolean;
  created: number;
}

/**
 * Code requests allowed since `since` (an hour ago): per e-mail and address, per address, and
 * per e-mail, which holds rather than refuses (docs/server-limits.md "Sign-in").
 */
export interface CodeRequestLimits {
  since: number;
  perEmailAndAddress: number;
  perAddress: number;
  /** past it a request is held (no new code) while the e-mail has a fresh code (below) */
  perEmail: number;
  /** a fresh code: unused, fewer than `maxAttempts` attempts, and expiring after this time */
  freshUntil: number;
  maxAttempts: number;
}

export interface SessionRecord {
  id: string;
  userId: string;
  refreshHash: string;
  /** the hash the last rotation replaced: presenting it again is a replay, unless within the grace */
  previousHash: string | null;
  expires: number;
  created: number;
  /** when the last rotation happened (ms), or null before the first (docs/server-limits.md "Refresh") */
  rotated: number | null;
}

export interface ApiKeyRecord {
  path: AccountPath;
  /** the envelope {data, pair, active} as sent (docs/dashboard-rules.md#entities) */
  envelope: { data: string; pair: string; active: boolean };
  created: number;
}

export interface TokenPairRecord {
  exchangeId: string;
  pair: string;
  priceDecimals: number;
  amountDecimals: number;
}

export interface BotRecord {
  id: string;
  botType: string;
  path: AccountPath;
  paths: AccountPath[];
  setup: unknown;
  /** docs/decisions.md#d4: {path → credentials} sealed under the data key; null for paper-only bots */
  wrappedCredentials: string | null;
  /** runner state (status, order, onBuy/onSell, lastTrade) */
  state: Record<string, unknown>;
  created: number;
}

/** A stored fill of a bot's order (docs/bots.md "What each bot did"); `seq` orders them, newest highest. */
export interface BotFillRecord extends BotFill {
  seq: number;
}

/** The most fills one GET /token/bot/{id}/fills answers (docs/api.md). */
export const MAX_FILLS_PAGE = 500;

export interface OutboxRecord {
  ts: number;
  to: string;
  subject: string;
  /** the code masked (the clear code goes only to outbox.jsonl or SMTP) */
  body: string;
}

export interface Storage {
  readonly kind: "sqlite" | "postgres";

  // meta (schema version, setup code, seeded demo)
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string | undefined): Promise<void>;
  /** deletes `key` only while it still holds `value`; false when someone else took it first */
  takeMeta(key: string, value: string): Promise<boolean>;

  // users
  countUsers(): Promise<number>;
  createUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | undefined>;
  getUserByEmail(email: string): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;
  updateUser(
    id: string,
    changes: Partial<Pick<UserRecord, "passwordHash" | "admin" | "scope" | "lastActive">>,
  ): Promise<void>;
  /** deletes the user with its credentials and sessions */
  deleteUser(id: string): Promise<boolean>;

  // WebAuthn credentials
  addCredential(credential: WebAuthnCredentialRecord): Promise<void>;
  getCredential(id: string): Promise<WebAuthnCredentialRecord | undefined>;
  listCredentials(userId: string): Promise<WebAuthnCredentialRecord[]>;
  /**
   * Records a login with the key only when `timestamp` is newer than the last one accepted
   * (atomic compare-and-set); false means a replay.
   */
  recordKeyLogin(id: string, counter: number, timestamp: number): Promise<boolean>;

  // e-mail codes (docs/server-limits.md)
  /**
   * Stores a new code unless a code-request limit is reached, counting and inserting in one
   * transaction so parallel requests cannot pass the limit together. Returns the code's id,
   * "held" when the e-mail is past `perEmail` and still has a fresh code, or undefined when over
   * the per-address or the per-e-mail-and-address limit.
   */
  addEmailCode(code: Omit<EmailCodeRecord, "id">, limits: CodeRequestLimits): Promise<number | "held" | undefined>;
  /**
   * Spends one attempt of the unused, unexpired code of `email` whose hash is `codeHash`, before
   * anything else is checked with it (atomic: of parallel calls at most `maxAttempts` get the
   * code). "exhausted" when that code has no attempt left; undefined when no live code matches.
   */
  claimEmailCode(
    email: string,
    codeHash: string,
    now: number,
    maxAttempts: number,
  ): Promise<EmailCodeRecord | "exhausted" | undefined>;
  /** marks a code used; false when it was already used (single use under parallel calls) */
  consumeEmailCode(id: number): Promise<boolean>;
  /** forgets a code that was never delivered, so it neither signs in nor counts against the hourly limit */
  removeEmailCode(id: number): Promise<void>;

  // sessions (refresh tokens, hashed)
  createSession(session: SessionRecord): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  findSessionByRefreshHash(hash: string): Promise<{ session: SessionRecord; replay: boolean } | undefined>;
  /** replaces the refresh hash if it is still `expectedHash` (atomic), at `rotated`; false when it moved */
  rotateSession(id: string, expectedHash: string, nextHash: string, expires: number, rotated: number): Promise<boolean>;
  deleteSession(id: string): Promise<void>;
  deleteSessionsOfUser(userId: string): Promise<void>;

  // API keys (stored as sent)
  setApiKey(record: ApiKeyRecord): Promise<void>;
  getApiKey(path: AccountPath): Promise<ApiKeyRecord | undefined>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  deleteApiKey(path: AccountPath): Promise<boolean>;

  // token pairs
  setTokenPair(record: TokenPairRecord): Promise<void>;
  getTokenPair(exchangeId: string, pair: string): Promise<TokenPairRecord | undefined>;
  listTokenPairs(): Promise<TokenPairRecord[]>;
  deleteTokenPair(exchangeId: string, pair: string): Promise<boolean>;

  // bots
  createBot(bot: BotRecord): Promise<void>;
  getBot(id: string): Promise<BotRecord | undefined>;
  listBots(): Promise<BotRecord[]>;
  updateBotState(id: string, state: Record<string, unknown>): Promise<void>;
  /** an edited bot (docs/bots.md "Create, edit, pause"): its setup and its state, in one write */
  updateBotSetup(id: string, setup: unknown, state: Record<string, unknown>): Promise<void>;
  /**
   * several bots' states in one transaction (one commit for the bot runner's periodic write), with
   * the fills the runners saw since the last write (a removed bot's are dropped)
   */
  updateBotStates(
    entries: readonly { id: string; state: Record<string, unknown> }[],
    fills?: readonly { botId: string; fill: BotFill }[],
  ): Promise<void>;
  /** a bot's fills, newest first, those with seq below `before` when given; at most `limit` (≤ MAX_FILLS_PAGE) */
  listBotFills(botId: string, options: { before?: number; limit: number }): Promise<BotFillRecord[]>;
  /** docs/decisions.md#d4: removing an API key deletes the bots' copies of its credentials */
  clearBotCredentialsForPath(path: AccountPath): Promise<string[]>;
  /** the bot and its fills */
  deleteBot(id: string): Promise<boolean>;

  // outbox (kept in the database; the clear code only in outbox.jsonl)
  addOutbox(message: OutboxRecord): Promise<void>;

  close(): Promise<void>;
}

/** The key of an account path in storage: its JSON text. */
export function pathKey(path: AccountPath): string {
  return JSON.stringify(path);
}
