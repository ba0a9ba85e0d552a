/**
 * Storage on PostgreSQL, for deployments with several server processes (issue 15,
 * docs/scale-out.md): `spotdesk serve --database postgres://user:pass@host:5432/db`. The same
 * semantics as sqlite.ts, which the shared suite test/server/storage.test.ts checks on both:
 *
 * - each write is one statement or one transaction, committed before the answer leaves;
 * - the compare-and-set pieces (a code's attempts, single use, refresh rotation, a key login's
 *   timestamp, the setup code) are single conditional UPDATE/DELETE statements: PostgreSQL locks
 *   the row and re-checks the WHERE clause on the newest version, so of two processes racing
 *   only one sees its row changed;
 * - counting code requests and inserting one takes transaction-scoped advisory locks on the
 *   e-mail and the address first, so parallel requests on several processes cannot pass a limit
 *   together;
 * - the rows every authenticated call reads (session, user, API-key record, token pair) are
 *   cached as in sqlite.ts (docs/server-speed.md): any change to those tables, by any process,
 *   moves `cache_version` (a trigger, in the writing transaction), and the cache is emptied when a
 *   read finds it moved; the version is read at most once per event-loop turn, so a logout or a
 *   scope change on another process counts on the next call here.
 *
 * Deleted means deleted (docs/scale-out.md "Deleted secrets on PostgreSQL"): PostgreSQL has no
 * secure_delete; after removing a secret the table is rewritten (`VACUUM FULL`), so the old row
 * is in no live data file.
 */
import pg from "pg";
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
import { MAX_FILLS_PAGE, pathKey, type Storage } from "./types.js";

/** Migrations in order; the index + 1 is the schema version. Never edit one that shipped. */
const MIGRATIONS: string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE users (
     seq BIGSERIAL, id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, password_hash TEXT,
     admin BOOLEAN NOT NULL DEFAULT FALSE, scope TEXT NOT NULL, last_active BIGINT, created BIGINT NOT NULL);
   CREATE TABLE credentials (
     id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     public_key BYTEA NOT NULL, counter BIGINT NOT NULL, last_ts BIGINT NOT NULL, created BIGINT NOT NULL);
   CREATE INDEX credentials_user ON credentials(user_id);
   CREATE TABLE email_codes (
     id BIGSERIAL PRIMARY KEY, email TEXT NOT NULL, address TEXT NOT NULL DEFAULT '', code_hash TEXT NOT NULL,
     expires BIGINT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, used BOOLEAN NOT NULL DEFAULT FALSE,
     created BIGINT NOT NULL);
   CREATE INDEX email_codes_email ON email_codes(email, created);
   CREATE INDEX email_codes_address ON email_codes(address, created);
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     refresh_hash TEXT NOT NULL UNIQUE, previous_hash TEXT, expires BIGINT NOT NULL, created BIGINT NOT NULL);
   CREATE INDEX sessions_previous ON sessions(previous_hash);
   CREATE INDEX sessions_user ON sessions(user_id);
   CREATE TABLE api_keys (
     path TEXT PRIMARY KEY, client TEXT NOT NULL, exchange TEXT NOT NULL, account TEXT NOT NULL,
     envelope TEXT NOT NULL, created BIGINT NOT NULL);
   CREATE TABLE token_pairs (
     exchange TEXT NOT NULL, pair TEXT NOT NULL, price_decimals INTEGER NOT NULL, amount_decimals INTEGER NOT NULL,
     PRIMARY KEY (exchange, pair));
   CREATE TABLE bots (
     seq BIGSERIAL, id TEXT PRIMARY KEY, bot_type TEXT NOT NULL, path TEXT NOT NULL, paths TEXT NOT NULL,
     setup TEXT NOT NULL, credentials TEXT, state TEXT NOT NULL, created BIGINT NOT NULL);
   CREATE TABLE outbox (
     id BIGSERIAL PRIMARY KEY, ts BIGINT NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL);`,
  // the read cache's version: any change to a cached table, by any process, moves it (in the
  // writing transaction, so a reader that sees the new row sees the new version too)
  `CREATE TABLE cache_version (n BIGINT NOT NULL);
   INSERT INTO cache_version (n) VALUES (0);
   CREATE FUNCTION spotdesk_cache_changed() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN UPDATE cache_version SET n = n + 1; RETURN NULL; END $$;
   CREATE TRIGGER users_cache AFTER INSERT OR UPDATE OR DELETE ON users
     FOR EACH STATEMENT EXECUTE FUNCTION spotdesk_cache_changed();
   CREATE TRIGGER sessions_cache AFTER INSERT OR UPDATE OR DELETE ON sessions
     FOR EACH STATEMENT EXECUTE FUNCTION spotdesk_cache_changed();
   CREATE TRIGGER api_keys_cache AFTER INSERT OR UPDATE OR DELETE ON api_keys
     FOR EACH STATEMENT EXECUTE FUNCTION spotdesk_cache_changed();
   CREATE TRIGGER token_pairs_cache AFTER INSERT OR UPDATE OR DELETE ON token_pairs
     FOR EACH STATEMENT EXECUTE FUNCTION spotdesk_cache_changed();`,
  // issue 31: when a session's refresh token was last rotated, for the grace of concurrent
  // refreshes (docs/server-limits.md "Refresh")
  "ALTER TABLE sessions ADD COLUMN rotated BIGINT;",
  // docs/bots.md "What each bot did": every fill of a bot's orders (deleted with the bot)
  `CREATE TABLE bot_fills (
     id BIGSERIAL PRIMARY KEY, bot_id TEXT NOT NULL, at BIGINT NOT NULL, order_id TEXT NOT NULL, side TEXT NOT NULL,
     price TEXT NOT NULL, amount TEXT NOT NULL, fee TEXT NOT NULL, fee_currency TEXT NOT NULL, liquidity TEXT NOT NULL);
   CREATE INDEX bot_fills_bot ON bot_fills(bot_id, id);`,
];

/** rows kept per table by the read cache (the oldest goes first) */
const CACHED_ROWS = 4096;

/** The advisory lock that serializes migrations of processes starting together. */
const MIGRATION_LOCK = 1_505_150_001;

/** BIGINT (oid 20) as a JS number: every BIGINT here is a time in ms or a row id, far below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

export interface PostgresStorageOptions {
  /** connections of this process's pool (default 10) */
  poolSize?: number;
}

/** Is `text` a PostgreSQL connection URL (`postgres://` or `postgresql://`)? */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

/** The URL without its password, for logs and error messages. */
export function redactDatabaseUrl(text: string): string {
  return text.replace(/^(\w+:\/\/[^:/@]*):[^@]*@/, "$1:***@");
}

/** Opens the pool, applies the migrations not yet applied, and answers the Storage. */
export async function openPostgresStorage(url: string, options: PostgresStorageOptions = {}): Promise<Storage> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types });
  // An idle client's error (the server restarted) must not crash the process: the pool drops it.
  pool.on("error", () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`PostgreSQL at ${redactDatabaseUrl(url)}: ${(error as Error).message}`, { cause: error });
  }

  const rows = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R[]> =>
    (await pool.query<R>(sql, values)).rows;
  const one = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R | undefined> =>
    (await pool.query<R>(sql, values)).rows[0];
  const changed = async (sql: string, values: unknown[] = []): Promise<number> =>
    (await pool.query(sql, values)).rowCount ?? 0;
  /** runs `work` in one transaction on one client of the pool */
  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  /**
   * Rewrites a table that held a removed secret into a new file (the old one is truncated at
   * once and unlinked at the next checkpoint): PostgreSQL's answer to secure_delete.
   */
  const scrub = async (...tables: string[]): Promise<void> => {
    for (const table of tables) await pool.query(`VACUUM FULL ${table}`);
  };

  const cache = {
    sessions: new Map<string, SessionRow | null>(),
    users: new Map<string, UserRow | null>(),
    apiKeys: new Map<string, ApiKeyRow | null>(),
    pairs: new Map<string, PairRow | null>(),
  };
  /** moves with every emptying: a row read before it is not kept after it */
  let generation = 0;
  const forget = (): void => {
    generation++;
    cache.sessions.clear();
    cache.users.clear();
    cache.apiKeys.clear();
    cache.pairs.clear();
  };
  let knownVersion: number | undefined;
  let versionCheck: Promise<void> | undefined;
  /** reads cache_version once for the reads of this turn; a changed version empties the cache */
  const checkVersion = (): Promise<void> => {
    if (versionCheck) return versionCheck;
    const check = (async () => {
      const version = (await one<{ n: number }>("SELECT n FROM cache_version"))?.n;
      if (version !== knownVersion) {
        knownVersion = version;
        forget();
      }
    })();
    versionCheck = check;
    setImmediate(() => {
      if (versionCheck === check) versionCheck = undefined;
    }).unref();
    return check;
  };
  const cached = async <R>(
    map: Map<string, R | null>,
    key: string,
    load: () => Promise<R | undefined>,
  ): Promise<R | undefined> => {
    await checkVersion();
    const hit = map.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const seen = generation;
    const row = await load();
    if (seen === generation) {
      if (map.size >= CACHED_ROWS) map.delete(map.keys().next().value!);
      map.set(key, row ?? null);
    }
    return row;
  };
  /** runs a write to a cached table, then empties the cache (also when the write failed) */
  const writing = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      forget();
    }
  };

  /** a statement on a cached table (users, sessions, api_keys, token_pairs) */
  const write = (sql: string, values: unknown[] = []) => writing(() => pool.query(sql, values));
  const changedWrite = async (sql: string, values: unknown[] = []): Promise<number> =>
    (await write(sql, values)).rowCount ?? 0;

  let closed = false;
  return {
    kind: "postgres",
    async getMeta(key) {
      return (await one<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]))?.value;
    },
    async setMeta(key, value) {
      if (value === undefined) await pool.query("DELETE FROM meta WHERE key = $1", [key]);
      else
        await pool.query(
          "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          [key, value],
        );
    },
    async takeMeta(key, value) {
      return (await changed("DELETE FROM meta WHERE key = $1 AND value = $2", [key, value])) === 1;
    },
    async countUsers() {
      return (await one<{ n: number }>("SELECT COUNT(*)::int AS n FROM users"))?.n ?? 0;
    },
    async createUser(u) {
      await write(
        "INSERT INTO users (id, email, password_hash, admin, scope, last_active, created) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [u.id, u.email, u.passwordHash, u.admin, JSON.stringify(u.scope), u.lastActive, u.created],
      );
    },
    async getUser(id) {
      const row = await cached(cache.users, id, () => one<UserRow>("SELECT * FROM users WHERE id = $1", [id]));
      return row ? toUser(row) : undefined;
    },
    async getUserByEmail(email) {
      const row = await one<UserRow>("SELECT * FROM users WHERE email = $1", [email]);
      return row ? toUser(row) : undefined;
    },
    async listUsers() {
      return (await rows<UserRow>("SELECT * FROM users ORDER BY created, seq")).map(toUser);
    },
    async updateUser(id, changes) {
      const sets: string[] = [];
      const values: unknown[] = [];
      const set = (column: string, value: unknown) => {
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      };
      if (changes.passwordHash !== undefined) set("password_hash", changes.passwordHash);
      if (changes.admin !== undefined) set("admin", changes.admin);
      if (changes.scope !== undefined) set("scope", JSON.stringify(changes.scope));
      if (changes.lastActive !== undefined) set("last_active", changes.lastActive);
      if (sets.length === 0) return;
      values.push(id);
      await write(`UPDATE users SET ${sets.join(", ")} WHERE id = $${values.length}`, values);
    },
    async deleteUser(id) {
      const removed = (await changedWrite("DELETE FROM users WHERE id = $1", [id])) > 0;
      if (removed) await scrub("users", "credentials", "sessions");
      return removed;
    },
    async addCredential(c) {
      await pool.query(
        "INSERT INTO credentials (id, user_id, public_key, counter, last_ts, created) VALUES ($1, $2, $3, $4, $5, $6)",
        [c.id, c.userId, Buffer.from(c.publicKey), c.counter, c.lastTimestamp, c.created],
      );
    },
    async getCredential(id) {
      const row = await one<CredentialRow>("SELECT * FROM credentials WHERE id = $1", [id]);
      return row ? toCredential(row) : undefined;
    },
    async listCredentials(userId) {
      return (await rows<CredentialRow>("SELECT * FROM credentials WHERE user_id = $1 ORDER BY created", [userId])).map(
        toCredential,
      );
    },
    async recordKeyLogin(id, counter, timestamp) {
      return (
        (await changed("UPDATE credentials SET counter = $1, last_ts = $2 WHERE id = $3 AND last_ts < $2", [
          counter,
          timestamp,
          id,
        ])) === 1
      );
    },
    async addEmailCode(c, limits) {
      return transaction(async (client) => {
        // the e-mail's and the address's counts cannot change under us until the commit
        // (locks taken in one order, so two requests never wait for each other crosswise)
        for (const key of [`code-email:${c.email}`, `code-address:${c.address}`].sort())
          await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [key]);
        const count = async (where: string, values: unknown[]) =>
          (await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM email_codes WHERE ${where}`, values))
            .rows[0]?.n ?? 0;
        if (
          (await count("email = $1 AND address = $2 AND created > $3", [c.email, c.address, limits.since])) >=
          limits.perEmailAndAddress
        )
          return undefined;
        if ((await count("address = $1 AND created > $2", [c.address, limits.since])) >= limits.perAddress)
          return undefined;
        if (
          (await count("email = $1 AND created > $2", [c.email, limits.since])) >= limits.perEmail &&
          (await count("email = $1 AND used = FALSE AND attempts < $2 AND expires > $3", [
            c.email,
            limits.maxAttempts,
            limits.freshUntil,
          ])) > 0
        )
          return "held" as const;
        const inserted = await client.query<{ id: number }>(
          `INSERT INTO email_codes (email, address, code_hash, expires, attempts, used, created)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [c.email, c.address, c.codeHash, c.expires, c.attempts, c.used, c.created],
        );
        return inserted.rows[0]!.id;
      });
    },
    async claimEmailCode(email, codeHash, now, maxAttempts) {
      return transaction(async (client) => {
        const row = (
          await client.query<CodeRow>(
            `SELECT * FROM email_codes WHERE email = $1 AND code_hash = $2 AND used = FALSE AND expires > $3
             ORDER BY id DESC LIMIT 1 FOR UPDATE`,
            [email, codeHash, now],
          )
        ).rows[0];
        if (!row) return undefined;
        const spent = await client.query(
          "UPDATE email_codes SET attempts = attempts + 1 WHERE id = $1 AND attempts < $2",
          [row.id, maxAttempts],
        );
        if (spent.rowCount !== 1) return "exhausted" as const;
        return toCode({ ...row, attempts: row.attempts + 1 });
      });
    },
    async consumeEmailCode(id) {
      return (await changed("UPDATE email_codes SET used = TRUE WHERE id = $1 AND used = FALSE", [id])) === 1;
    },
    async removeEmailCode(id) {
      await pool.query("DELETE FROM email_codes WHERE id = $1", [id]);
    },
    async createSession(s) {
      await write(
        `INSERT INTO sessions (id, user_id, refresh_hash, previous_hash, expires, created, rotated)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [s.id, s.userId, s.refreshHash, s.previousHash, s.expires, s.created, s.rotated],
      );
    },
    async getSession(id) {
      const row = await cached(cache.sessions, id, () => one<SessionRow>("SELECT * FROM sessions WHERE id = $1", [id]));
      return row ? toSession(row) : undefined;
    },
    async findSessionByRefreshHash(hash) {
      const current = await one<SessionRow>("SELECT * FROM sessions WHERE refresh_hash = $1", [hash]);
      if (current) return { session: toSession(current), replay: false };
      const replayed = await one<SessionRow>("SELECT * FROM sessions WHERE previous_hash = $1", [hash]);
      return replayed ? { session: toSession(replayed), replay: true } : undefined;
    },
    async rotateSession(id, expectedHash, nextHash, expires, rotated) {
      return (
        (await changedWrite(
          `UPDATE sessions SET refresh_hash = $1, previous_hash = $2, expires = $3, rotated = $4
           WHERE id = $5 AND refresh_hash = $2`,
          [nextHash, expectedHash, expires, rotated, id],
        )) === 1
      );
    },
    async deleteSession(id) {
      await write("DELETE FROM sessions WHERE id = $1", [id]);
    },
    async deleteSessionsOfUser(userId) {
      await write("DELETE FROM sessions WHERE user_id = $1", [userId]);
    },
    async setApiKey(r) {
      const [client, exchange, account] = r.path;
      await write(
        `INSERT INTO api_keys (path, client, exchange, account, envelope, created) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (path) DO UPDATE SET envelope = excluded.envelope`,
        [pathKey(r.path), client, exchange, account, JSON.stringify(r.envelope), r.created],
      );
    },
    async getApiKey(path) {
      const key = pathKey(path);
      const row = await cached(cache.apiKeys, key, () =>
        one<ApiKeyRow>("SELECT * FROM api_keys WHERE path = $1", [key]),
      );
      return row ? toApiKey(row) : undefined;
    },
    async listApiKeys() {
      return (await rows<ApiKeyRow>("SELECT * FROM api_keys ORDER BY client, exchange, account")).map(toApiKey);
    },
    async deleteApiKey(path) {
      const removed = (await changedWrite("DELETE FROM api_keys WHERE path = $1", [pathKey(path)])) > 0;
      if (removed) await scrub("api_keys");
      return removed;
    },
    async setTokenPair(r) {
      await write(
        `INSERT INTO token_pairs (exchange, pair, price_decimals, amount_decimals) VALUES ($1, $2, $3, $4)
         ON CONFLICT (exchange, pair) DO UPDATE SET price_decimals = excluded.price_decimals,
           amount_decimals = excluded.amount_decimals`,
        [r.exchangeId, r.pair, r.priceDecimals, r.amountDecimals],
      );
    },
    async getTokenPair(exchangeId, pair) {
      const row = await cached(cache.pairs, JSON.stringify([exchangeId, pair]), () =>
        one<PairRow>("SELECT * FROM token_pairs WHERE exchange = $1 AND pair = $2", [exchangeId, pair]),
      );
      return row ? toPair(row) : undefined;
    },
    async listTokenPairs() {
      return (await rows<PairRow>("SELECT * FROM token_pairs ORDER BY exchange, pair")).map(toPair);
    },
    async deleteTokenPair(exchangeId, pair) {
      return (await changedWrite("DELETE FROM token_pairs WHERE exchange = $1 AND pair = $2", [exchangeId, pair])) > 0;
    },
    async createBot(b) {
      await pool.query(
        `INSERT INTO bots (id, bot_type, path, paths, setup, credentials, state, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          b.id,
          b.botType,
          pathKey(b.path),
          JSON.stringify(b.paths),
          JSON.stringify(b.setup),
          b.wrappedCredentials,
          JSON.stringify(b.state),
          b.created,
        ],
      );
    },
    async getBot(id) {
      const row = await one<BotRow>("SELECT * FROM bots WHERE id = $1", [id]);
      return row ? toBot(row) : undefined;
    },
    async listBots() {
      return (await rows<BotRow>("SELECT * FROM bots ORDER BY created, seq")).map(toBot);
    },
    async updateBotState(id, state) {
      await pool.query("UPDATE bots SET state = $1 WHERE id = $2", [JSON.stringify(state), id]);
    },
    async updateBotSetup(id, setup, state) {
      await pool.query("UPDATE bots SET setup = $1, state = $2 WHERE id = $3", [
        JSON.stringify(setup),
        JSON.stringify(state),
        id,
      ]);
    },
    async updateBotStates(entries, fills = []) {
      if (entries.length === 0 && fills.length === 0) return;
      const states = (client: pg.Pool | pg.PoolClient) =>
        // one statement: the runner's periodic write of every changed bot
        client.query(
          `UPDATE bots SET state = u.state FROM unnest($1::text[], $2::text[]) AS u(id, state) WHERE bots.id = u.id`,
          [entries.map((e) => e.id), entries.map((e) => JSON.stringify(e.state))],
        );
      if (fills.length === 0) {
        await states(pool);
        return;
      }
      // the states and the fills they account for in one commit (a restart neither loses nor repeats a fill)
      await transaction(async (client) => {
        if (entries.length > 0) await states(client);
        const col = <K extends keyof BotFill>(key: K) => fills.map((f) => String(f.fill[key]));
        await client.query(
          `INSERT INTO bot_fills (bot_id, at, order_id, side, price, amount, fee, fee_currency, liquidity)
           SELECT f.bot_id, f.at::bigint, f.order_id, f.side, f.price, f.amount, f.fee, f.fee_currency, f.liquidity
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
             WITH ORDINALITY AS f(bot_id, at, order_id, side, price, amount, fee, fee_currency, liquidity, n)
           WHERE EXISTS (SELECT 1 FROM bots WHERE bots.id = f.bot_id) ORDER BY f.n`,
          [
            fills.map((f) => f.botId),
            col("at"),
            col("orderId"),
            col("side"),
            col("price"),
            col("amount"),
            col("fee"),
            col("feeCurrency"),
            col("liquidity"),
          ],
        );
      });
    },
    async listBotFills(botId, { before, limit }) {
      const n = Math.max(1, Math.min(MAX_FILLS_PAGE, Math.floor(limit)));
      return (
        await rows<BotFillRow>("SELECT * FROM bot_fills WHERE bot_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3", [
          botId,
          before ?? Number.MAX_SAFE_INTEGER,
          n,
        ])
      ).map(toBotFill);
    },
    async clearBotCredentialsForPath(path) {
      const key = pathKey(path);
      const cleared = await transaction(async (client) => {
        const ids: string[] = [];
        const bots = await client.query<BotRow>("SELECT * FROM bots WHERE credentials IS NOT NULL FOR UPDATE");
        for (const row of bots.rows) {
          const paths = [JSON.parse(row.path) as AccountPath, ...(JSON.parse(row.paths) as AccountPath[])];
          if (paths.some((p) => pathKey(p) === key)) {
            await client.query("UPDATE bots SET credentials = NULL WHERE id = $1", [row.id]);
            ids.push(row.id);
          }
        }
        return ids;
      });
      if (cleared.length > 0) await scrub("bots");
      return cleared;
    },
    async deleteBot(id) {
      const removed = await transaction(async (client) => {
        await client.query("DELETE FROM bot_fills WHERE bot_id = $1", [id]);
        return ((await client.query("DELETE FROM bots WHERE id = $1", [id])).rowCount ?? 0) > 0;
      });
      if (removed) await scrub("bots");
      return removed;
    },
    async addOutbox(m) {
      await pool.query("INSERT INTO outbox (ts, recipient, subject, body) VALUES ($1, $2, $3, $4)", [
        m.ts,
        m.to,
        m.subject,
        m.body,
      ]);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Applies the migrations not yet applied, one process at a time (an advisory lock). */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query("CREATE TABLE IF NOT EXISTS spotdesk_schema (version INTEGER NOT NULL)");
      const current = (await client.query<{ version: number }>("SELECT version FROM spotdesk_schema")).rows[0];
      if (!current) await client.query("INSERT INTO spotdesk_schema (version) VALUES (0)");
      const version = current?.version ?? 0;
      if (version > MIGRATIONS.length)
        throw new Error(`the database has schema version ${version}, newer than this spotdesk (${MIGRATIONS.length})`);
      for (let v = version; v < MIGRATIONS.length; v++) {
        await client.query("BEGIN");
        try {
          await client.query(MIGRATIONS[v]!);
          await client.query("UPDATE spotdesk_schema SET version = $1", [v + 1]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
