/**
 * The embedded storage: one SQLite file (better-sqlite3, WAL) in the data directory. Each write
 * is one committed statement or transaction before the HTTP answer leaves, so an acknowledged
 * write survives a crash or a shutdown.
 *
 * The rows every authenticated call reads (session, user, API-key record, token pair) are kept in
 * memory (docs/server-speed.md): a write through this connection empties the cache, and a
 * commit by another connection (`spotdesk users grant-admin`, another process) is seen through
 * `PRAGMA data_version`, checked at most once per event-loop turn.
 */
import Database from "better-sqlite3";
import type { AccountPath } from "../../lib/api.js";
import type { BotFill } from "../bots/fills.js";
import {
  type ApiKeyRow,
  type BotFillRow,
  type BotRow,
  type CodeRow,
  type CredentialRow,
  type PairRow,
  type SessionRow,
  toApiKey,
  toBot,
  toBotFill,
  toCode,
  toCredential,
  toPair,
  toSession,
  toUser,
  type UserRow,
} from "./rows.js";
import {
  type CodeRequestLimits,
  type EmailCodeRecord,
  MAX_FILLS_PAGE,
  type OutboxRecord,
  pathKey,
  type Storage,
  type UserRecord,
} from "./types.js";

/** Migrations in order; the index + 1 is the schema version. Never edit one that shipped. */
const MIGRATIONS: string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE users (
     id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, password_hash TEXT, admin INTEGER NOT NULL DEFAULT 0,
     scope TEXT NOT NULL, last_active INTEGER, created INTEGER NOT NULL);
   CREATE TABLE credentials (
     id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     public_key BLOB NOT NULL, counter INTEGER NOT NULL, last_ts INTEGER NOT NULL, created INTEGER NOT NULL);
   CREATE INDEX credentials_user ON credentials(user_id);
   CREATE TABLE email_codes (
     id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL, code_hash TEXT NOT NULL, expires INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0, used INTEGER NOT NULL DEFAULT 0, created INTEGER NOT NULL);
   CREATE INDEX email_codes_email ON email_codes(email, created);
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     refresh_hash TEXT NOT NULL UNIQUE, previous_hash TEXT, expires INTEGER NOT NULL, created INTEGER NOT NULL);
   CREATE INDEX sessions_previous ON sessions(previous_hash);
   CREATE TABLE api_keys (
     path TEXT PRIMARY KEY, client TEXT NOT NULL, exchange TEXT NOT NULL, account TEXT NOT NULL,
     envelope TEXT NOT NULL, created INTEGER NOT NULL);
   CREATE TABLE token_pairs (
     exchange TEXT NOT NULL, pair TEXT NOT NULL, price_decimals INTEGER NOT NULL, amount_decimals INTEGER NOT NULL,
     PRIMARY KEY (exchange, pair));
   CREATE TABLE bots (
     id TEXT PRIMARY KEY, bot_type TEXT NOT NULL, path TEXT NOT NULL, paths TEXT NOT NULL, setup TEXT NOT NULL,
     credentials TEXT, state TEXT NOT NULL, created INTEGER NOT NULL);
   CREATE TABLE outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT, ts INTEGER NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL,
     body TEXT NOT NULL);`,
  // issue 16: code requests are limited per address too (docs/server-limits.md)
  `ALTER TABLE email_codes ADD COLUMN address TEXT NOT NULL DEFAULT '';
   CREATE INDEX email_codes_address ON email_codes(address, created);`,
  // issue 31: when a session's refresh token was last rotated, for the grace of concurrent
  // refreshes (docs/server-limits.md "Refresh")
  "ALTER TABLE sessions ADD COLUMN rotated INTEGER;",
  // docs/bots.md "What each bot did": every fill of a bot's orders (deleted with the bot)
  `CREATE TABLE bot_fills (
     id INTEGER PRIMARY KEY AUTOINCREMENT, bot_id TEXT NOT NULL, at INTEGER NOT NULL, order_id TEXT NOT NULL,
     side TEXT NOT NULL, price TEXT NOT NULL, amount TEXT NOT NULL, fee TEXT NOT NULL, fee_currency TEXT NOT NULL,
     liquidity TEXT NOT NULL);
   CREATE INDEX bot_fills_bot ON bot_fills(bot_id, id);`,
];

/** rows kept per table by the read cache (the oldest goes first) */
const CACHED_ROWS = 4096;

export function openSqliteStorage(file: string): Storage {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // FULL: a commit is on disk before the answer (docs/paper-store.md, docs/server-limits.md: no acknowledged write is lost).
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  // docs/decisions.md#d4 "removing deletes that copy" (docs/server-limits.md "Deleted means deleted"): freed
  // rows and pages are overwritten with zeros instead of lingering in the file.
  db.pragma("secure_delete = ON");
  const migratedFrom = migrate(db);
  // A file written before secure_delete may still hold deleted rows in free space: rewrite it once.
  if (migratedFrom > 0 && migratedFrom < 2) {
    try {
      db.exec("VACUUM");
      db.pragma("wal_checkpoint(TRUNCATE)");
    } catch {
      // another process holds the file (a running server while grant-admin opens it): the
      // rewrite is a clean-up, the database is correct without it
    }
  }

  /**
   * After a delete of secrets: copies the WAL into the database (whose freed space secure_delete
   * zeroed) and truncates the WAL, so no older copy of a page with the secret stays in -wal.
   * Another connection reading at that moment can keep the WAL alive; the next delete (or the
   * close) checkpoints again.
   */
  const scrub = () => {
    const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
    if (result && result.busy !== 0) pendingScrub = true;
    else pendingScrub = false;
  };
  let pendingScrub = false;

  let closed = false;
  const stmt = <P extends unknown[] = unknown[], R = unknown>(sql: string) => db.prepare<P, R>(sql);
  const q = {
    getMeta: stmt<[string], { value: string }>("SELECT value FROM meta WHERE key = ?"),
    setMeta: stmt<[string, string]>(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),
    delMeta: stmt<[string]>("DELETE FROM meta WHERE key = ?"),
    takeMeta: stmt<[string, string]>("DELETE FROM meta WHERE key = ? AND value = ?"),
    countUsers: stmt<[], { n: number }>("SELECT COUNT(*) AS n FROM users"),
    insertUser: stmt<[string, string, string | null, number, string, number | null, number]>(
      "INSERT INTO users (id, email, password_hash, admin, scope, last_active, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    getUser: stmt<[string], UserRow>("SELECT * FROM users WHERE id = ?"),
    getUserByEmail: stmt<[string], UserRow>("SELECT * FROM users WHERE email = ?"),
    listUsers: stmt<[], UserRow>("SELECT * FROM users ORDER BY created, rowid"),
    deleteUser: stmt<[string]>("DELETE FROM users WHERE id = ?"),
    setPasswordHash: stmt<[string | null, string]>("UPDATE users SET password_hash = ? WHERE id = ?"),
    setAdmin: stmt<[number, string]>("UPDATE users SET admin = ? WHERE id = ?"),
    setScope: stmt<[string, string]>("UPDATE users SET scope = ? WHERE id = ?"),
    setLastActive: stmt<[number | null, string]>("UPDATE users SET last_active = ? WHERE id = ?"),
    addCredential: stmt<[string, string, Buffer, number, number, number]>(
      "INSERT INTO credentials (id, user_id, public_key, counter, last_ts, created) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    getCredential: stmt<[string], CredentialRow>("SELECT * FROM credentials WHERE id = ?"),
    listCredentials: stmt<[string], CredentialRow>("SELECT * FROM credentials WHERE user_id = ? ORDER BY created"),
    recordKeyLogin: stmt<[number, number, string, number]>(
      "UPDATE credentials SET counter = ?, last_ts = ? WHERE id = ? AND last_ts < ?",
    ),
    addCode: stmt<[string, string, string, number, number, number, number]>(
      "INSERT INTO email_codes (email, address, code_hash, expires, attempts, used, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    countCodesOfEmail: stmt<[string, number], { n: number }>(
      "SELECT COUNT(*) AS n FROM email_codes WHERE email = ? AND created > ?",
    ),
    countCodesOfAddress: stmt<[string, number], { n: number }>(
      "SELECT COUNT(*) AS n FROM email_codes WHERE address = ? AND created > ?",
    ),
    countCodesOfBoth: stmt<[string, string, number], { n: number }>(
      "SELECT COUNT(*) AS n FROM email_codes WHERE email = ? AND address = ? AND created > ?",
    ),
    freshCodeOfEmail: stmt<[string, number, number], { id: number }>(
      "SELECT id FROM email_codes WHERE email = ? AND used = 0 AND attempts < ? AND expires > ? LIMIT 1",
    ),
    liveCode: stmt<[string, string, number], CodeRow>(
      "SELECT * FROM email_codes WHERE email = ? AND code_hash = ? AND used = 0 AND expires > ? ORDER BY id DESC LIMIT 1",
    ),
    attemptCode: stmt<[number, number]>("UPDATE email_codes SET attempts = attempts + 1 WHERE id = ? AND attempts < ?"),
    useCode: stmt<[number]>("UPDATE email_codes SET used = 1 WHERE id = ? AND used = 0"),
    deleteCode: stmt<[number]>("DELETE FROM email_codes WHERE id = ?"),
    insertSession: stmt<[string, string, string, string | null, number, number, number | null]>(
      "INSERT INTO sessions (id, user_id, refresh_hash, previous_hash, expires, created, rotated) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    getSession: stmt<[string], SessionRow>("SELECT * FROM sessions WHERE id = ?"),
    sessionByHash: stmt<[string], SessionRow>("SELECT * FROM sessions WHERE refresh_hash = ?"),
    sessionByPrevious: stmt<[string], SessionRow>("SELECT * FROM sessions WHERE previous_hash = ?"),
    rotateSession: stmt<[string, string, number, number, string, string]>(
      "UPDATE sessions SET refresh_hash = ?, previous_hash = ?, expires = ?, rotated = ? WHERE id = ? AND refresh_hash = ?",
    ),
    deleteSession: stmt<[string]>("DELETE FROM sessions WHERE id = ?"),
    deleteSessionsOfUser: stmt<[string]>("DELETE FROM sessions WHERE user_id = ?"),
    setApiKey: stmt<[string, string, string, string, string, number]>(
      `INSERT INTO api_keys (path, client, exchange, account, envelope, created) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET envelope = excluded.envelope`,
    ),
    getApiKey: stmt<[string], ApiKeyRow>("SELECT * FROM api_keys WHERE path = ?"),
    listApiKeys: stmt<[], ApiKeyRow>("SELECT * FROM api_keys ORDER BY client, exchange, account"),
    deleteApiKey: stmt<[string]>("DELETE FROM api_keys WHERE path = ?"),
    setPair: stmt<[string, string, number, number]>(
      `INSERT INTO token_pairs (exchange, pair, price_decimals, amount_decimals) VALUES (?, ?, ?, ?)
       ON CONFLICT(exchange, pair) DO UPDATE SET price_decimals = excluded.price_decimals, amount_decimals = excluded.amount_decimals`,
    ),
    getPair: stmt<[string, string], PairRow>("SELECT * FROM token_pairs WHERE exchange = ? AND pair = ?"),
    listPairs: stmt<[], PairRow>("SELECT * FROM token_pairs ORDER BY exchange, pair"),
    deletePair: stmt<[string, string]>("DELETE FROM token_pairs WHERE exchange = ? AND pair = ?"),
    insertBot: stmt<[string, string, string, string, string, string | null, string, number]>(
      "INSERT INTO bots (id, bot_type, path, paths, setup, credentials, state, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    getBot: stmt<[string], BotRow>("SELECT * FROM bots WHERE id = ?"),
    listBots: stmt<[], BotRow>("SELECT * FROM bots ORDER BY created, rowid"),
    updateBotState: stmt<[string, string]>("UPDATE bots SET state = ? WHERE id = ?"),
    updateBotSetup: stmt<[string, string, string]>("UPDATE bots SET setup = ?, state = ? WHERE id = ?"),
    clearBotCredentials: stmt<[string]>("UPDATE bots SET credentials = NULL WHERE id = ?"),
    deleteBot: stmt<[string]>("DELETE FROM bots WHERE id = ?"),
    deleteBotFills: stmt<[string]>("DELETE FROM bot_fills WHERE bot_id = ?"),
    addBotFill: stmt<[string, number, string, string, string, string, string, string, string, string]>(
      `INSERT INTO bot_fills (bot_id, at, order_id, side, price, amount, fee, fee_currency, liquidity)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM bots WHERE id = ?)`,
    ),
    listBotFills: stmt<[string, number, number], BotFillRow>(
      "SELECT * FROM bot_fills WHERE bot_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
    ),
    addOutbox: stmt<[number, string, string, string]>(
      "INSERT INTO outbox (ts, recipient, subject, body) VALUES (?, ?, ?, ?)",
    ),
  };

  /**
   * The read cache of the rows every authenticated call reads (docs/server-speed.md): rows as
   * read, the records are built from them on each call (a caller changing its record changes no
   * one else's); `null` remembers an absent row. Any write through this connection to these
   * tables empties it; a commit by another connection changes `PRAGMA data_version`, checked at
   * most once per event-loop turn before a cached read.
   */
  const cache = {
    sessions: new Map<string, SessionRow | null>(),
    users: new Map<string, UserRow | null>(),
    apiKeys: new Map<string, ApiKeyRow | null>(),
    pairs: new Map<string, PairRow | null>(),
  };
  const forget = (): void => {
    cache.sessions.clear();
    cache.users.clear();
    cache.apiKeys.clear();
    cache.pairs.clear();
  };
  const dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  let knownVersion = dataVersion.get();
  let checkedThisTurn = false;
  const endTurn = () => {
    checkedThisTurn = false;
  };
  const cached = <R>(map: Map<string, R | null>, key: string, load: () => R | undefined): R | undefined => {
    if (closed) return load(); // throws: the connection is closed
    if (!checkedThisTurn) {
      checkedThisTurn = true;
      setImmediate(endTurn).unref();
      const version = dataVersion.get();
      if (version !== knownVersion) {
        knownVersion = version;
        forget();
      }
    }
    const hit = map.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const row = load();
    if (map.size >= CACHED_ROWS) map.delete(map.keys().next().value!);
    map.set(key, row ?? null);
    return row;
  };
  /** runs a write to a cached table, then empties the cache (also when the write failed) */
  const writing = <T>(write: () => T): T => {
    try {
      return write();
    } finally {
      forget();
    }
  };

  const updateUser = db.transaction(
    (id: string, changes: Partial<Pick<UserRecord, "passwordHash" | "admin" | "scope" | "lastActive">>) => {
      if (changes.passwordHash !== undefined) q.setPasswordHash.run(changes.passwordHash, id);
      if (changes.admin !== undefined) q.setAdmin.run(changes.admin ? 1 : 0, id);
      if (changes.scope !== undefined) q.setScope.run(JSON.stringify(changes.scope), id);
      if (changes.lastActive !== undefined) q.setLastActive.run(changes.lastActive, id);
    },
  );

  const addEmailCode = db.transaction(
    (c: Omit<EmailCodeRecord, "id">, limits: CodeRequestLimits): number | "held" | undefined => {
      if ((q.countCodesOfBoth.get(c.email, c.address, limits.since)?.n ?? 0) >= limits.perEmailAndAddress)
        return undefined;
      if ((q.countCodesOfAddress.get(c.address, limits.since)?.n ?? 0) >= limits.perAddress) return undefined;
      if (
        (q.countCodesOfEmail.get(c.email, limits.since)?.n ?? 0) >= limits.perEmail &&
        q.freshCodeOfEmail.get(c.email, limits.maxAttempts, limits.freshUntil)
      )
        return "held";
      return Number(
        q.addCode.run(c.email, c.address, c.codeHash, c.expires, c.attempts, c.used ? 1 : 0, c.created).lastInsertRowid,
      );
    },
  );

  const claimEmailCode = db.transaction((email: string, codeHash: string, now: number, maxAttempts: number) => {
    const row = q.liveCode.get(email, codeHash, now);
    if (!row) return undefined;
    if (q.attemptCode.run(row.id, maxAttempts).changes !== 1) return "exhausted" as const;
    return toCode({ ...row, attempts: row.attempts + 1 });
  });

  const updateBotStates = db.transaction(
    (
      entries: readonly { id: string; state: Record<string, unknown> }[],
      fills: readonly { botId: string; fill: BotFill }[],
    ) => {
      for (const { id, state } of entries) q.updateBotState.run(JSON.stringify(state), id);
      for (const { botId, fill: f } of fills)
        q.addBotFill.run(botId, f.at, f.orderId, f.side, f.price, f.amount, f.fee, f.feeCurrency, f.liquidity, botId);
    },
  );
  const deleteBot = db.transaction((id: string): boolean => {
    q.deleteBotFills.run(id);
    return q.deleteBot.run(id).changes > 0;
  });

  const clearBotCredentialsForPath = db.transaction((path: AccountPath): string[] => {
    const key = pathKey(path);
    const ids: string[] = [];
    for (const row of q.listBots.all()) {
      const paths = [JSON.parse(row.path) as AccountPath, ...(JSON.parse(row.paths) as AccountPath[])];
      if (row.credentials !== null && paths.some((p) => pathKey(p) === key)) {
        q.clearBotCredentials.run(row.id);
        ids.push(row.id);
      }
    }
    return ids;
  });

  return {
    kind: "sqlite",
    async getMeta(key) {
      return q.getMeta.get(key)?.value;
    },
    async setMeta(key, value) {
      if (value === undefined) q.delMeta.run(key);
      else q.setMeta.run(key, value);
    },
    async takeMeta(key, value) {
      return q.takeMeta.run(key, value).changes === 1;
    },
    async countUsers() {
      return q.countUsers.get()?.n ?? 0;
    },
    async createUser(u) {
      writing(() =>
        q.insertUser.run(
          u.id,
          u.email,
          u.passwordHash,
          u.admin ? 1 : 0,
          JSON.stringify(u.scope),
          u.lastActive,
          u.created,
        ),
      );
    },
    async getUser(id) {
      const row = cached(cache.users, id, () => q.getUser.get(id));
      return row ? toUser(row) : undefined;
    },
    async getUserByEmail(email) {
      const row = q.getUserByEmail.get(email);
      return row ? toUser(row) : undefined;
    },
    async listUsers() {
      return q.listUsers.all().map(toUser);
    },
    async updateUser(id, changes) {
      writing(() => updateUser(id, changes));
    },
    async deleteUser(id) {
      const removed = writing(() => q.deleteUser.run(id).changes > 0);
      if (removed) scrub();
      return removed;
    },
    async addCredential(c) {
      q.addCredential.run(c.id, c.userId, Buffer.from(c.publicKey), c.counter, c.lastTimestamp, c.created);
    },
    async getCredential(id) {
      const row = q.getCredential.get(id);
      return row ? toCredential(row) : undefined;
    },
    async listCredentials(userId) {
      return q.listCredentials.all(userId).map(toCredential);
    },
    async recordKeyLogin(id, counter, timestamp) {
      return q.recordKeyLogin.run(counter, timestamp, id, timestamp).changes === 1;
    },
    async addEmailCode(c, limits) {
      return addEmailCode(c, limits);
    },
    async claimEmailCode(email, codeHash, now, maxAttempts) {
      return claimEmailCode(email, codeHash, now, maxAttempts);
    },
    async consumeEmailCode(id) {
      return q.useCode.run(id).changes === 1;
    },
    async removeEmailCode(id) {
      q.deleteCode.run(id);
    },
    async createSession(s) {
      writing(() =>
        q.insertSession.run(s.id, s.userId, s.refreshHash, s.previousHash, s.expires, s.created, s.rotated),
      );
    },
    async getSession(id) {
      const row = cached(cache.sessions, id, () => q.getSession.get(id));
      return row ? toSession(row) : undefined;
    },
    async findSessionByRefreshHash(hash) {
      const current = q.sessionByHash.get(hash);
      if (current) return { session: toSession(current), replay: false };
      const replayed = q.sessionByPrevious.get(hash);
      return replayed ? { session: toSession(replayed), replay: true } : undefined;
    },
    async rotateSession(id, expectedHash, nextHash, expires, rotated) {
      return writing(
        () => q.rotateSession.run(nextHash, expectedHash, expires, rotated, id, expectedHash).changes === 1,
      );
    },
    async deleteSession(id) {
      writing(() => q.deleteSession.run(id));
    },
    async deleteSessionsOfUser(userId) {
      writing(() => q.deleteSessionsOfUser.run(userId));
    },
    async setApiKey(r) {
      const [client, exchange, account] = r.path;
      writing(() => q.setApiKey.run(pathKey(r.path), client, exchange, account, JSON.stringify(r.envelope), r.created));
    },
    async getApiKey(path) {
      const key = pathKey(path);
      const row = cached(cache.apiKeys, key, () => q.getApiKey.get(key));
      return row ? toApiKey(row) : undefined;
    },
    async listApiKeys() {
      return q.listApiKeys.all().map(toApiKey);
    },
    async deleteApiKey(path) {
      const removed = writing(() => q.deleteApiKey.run(pathKey(path)).changes > 0);
      scrub();
      return removed;
    },
    async setTokenPair(r) {
      writing(() => q.setPair.run(r.exchangeId, r.pair, r.priceDecimals, r.amountDecimals));
    },
    async getTokenPair(exchangeId, pair) {
      const row = cached(cache.pairs, JSON.stringify([exchangeId, pair]), () => q.getPair.get(exchangeId, pair));
      return row ? toPair(row) : undefined;
    },
    async listTokenPairs() {
      return q.listPairs.all().map(toPair);
    },
    async deleteTokenPair(exchangeId, pair) {
      return writing(() => q.deletePair.run(exchangeId, pair).changes > 0);
    },
    async createBot(b) {
      q.insertBot.run(
        b.id,
        b.botType,
        pathKey(b.path),
        JSON.stringify(b.paths),
        JSON.stringify(b.setup),
        b.wrappedCredentials,
        JSON.stringify(b.state),
        b.created,
      );
    },
    async getBot(id) {
      const row = q.getBot.get(id);
      return row ? toBot(row) : undefined;
    },
    async listBots() {
      return q.listBots.all().map(toBot);
    },
    async updateBotState(id, state) {
      q.updateBotState.run(JSON.stringify(state), id);
    },
    async updateBotSetup(id, setup, state) {
      q.updateBotSetup.run(JSON.stringify(setup), JSON.stringify(state), id);
    },
    async updateBotStates(entries, fills = []) {
      updateBotStates(entries, fills);
    },
    async listBotFills(botId, { before, limit }) {
      const n = Math.max(1, Math.min(MAX_FILLS_PAGE, Math.floor(limit)));
      return q.listBotFills.all(botId, before ?? Number.MAX_SAFE_INTEGER, n).map(toBotFill);
    },
    async clearBotCredentialsForPath(path) {
      const cleared = clearBotCredentialsForPath(path);
      if (cleared.length > 0) scrub();
      return cleared;
    },
    async deleteBot(id) {
      const removed = deleteBot(id);
      if (removed) scrub();
      return removed;
    },
    async addOutbox(m: OutboxRecord) {
      q.addOutbox.run(m.ts, m.to, m.subject, m.body);
    },
    async close() {
      if (closed) return;
      closed = true;
      forget();
      if (pendingScrub) scrub();
      db.close();
    },
  };
}

/** Applies the migrations not yet applied; returns the schema version the file had. */
function migrate(db: Database.Database): number {
  const version = db.pragma("user_version", { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return version;
}

export type { EmailCodeRecord };
