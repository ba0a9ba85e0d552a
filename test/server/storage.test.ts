/**
 * The storage suite (server/storage/types.ts), run against both implementations: the embedded
 * SQLite file and PostgreSQL (issue 15, docs/scale-out.md). "Two processes" are two Storage
 * objects opened on the same database: what one commits the other reads at once, and the atomic
 * pieces (code attempts, single use, refresh rotation, code-request limits) hold between them.
 * The PostgreSQL part starts a real postgres on a loopback port (test/server/services.ts); it is
 * skipped with the reason when the binaries are missing, and fails in CI.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStorage } from "../../server/storage/postgres.js";
import { openSqliteStorage } from "../../server/storage/sqlite.js";
import type { CodeRequestLimits, Storage } from "../../server/storage/types.js";
import { type PostgresService, servicesMissing, startPostgres } from "./services.js";

interface Backend {
  /** a fresh empty database; `open` opens one more connection ("process") on it */
  fresh(): Promise<{ open(): Promise<Storage> }>;
  teardown(): Promise<void>;
}

const sqlite = (): Backend => {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-storage-"));
  let n = 0;
  return {
    async fresh() {
      const file = join(dir, `db-${++n}.sqlite`);
      return { open: async () => openSqliteStorage(file) };
    },
    async teardown() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const postgresSkip = servicesMissing({ postgres: true });
let pgService: PostgresService | undefined;
const postgres = (): Backend => ({
  async fresh() {
    pgService ??= await startPostgres();
    const url = await pgService.createDatabase();
    return { open: () => openPostgresStorage(url) };
  },
  async teardown() {
    await pgService?.stop();
  },
});

/** the table files (base/, not the write-ahead log) of the PostgreSQL cluster that hold `marker` */
const tableFilesHolding = (dataDir: string, marker: string): string[] => {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (readFileSync(file).includes(marker)) found.push(file);
    }
  };
  walk(join(dataDir, "base"));
  return found;
};

/** writes every dirty page to the table files */
const checkpoint = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CHECKPOINT");
  } finally {
    await client.end();
  }
};

const backends: { name: string; make: () => Backend; skip?: string }[] = [
  { name: "sqlite", make: sqlite },
  { name: "postgres", make: postgres, ...(postgresSkip ? { skip: postgresSkip } : {}) },
];

/**
 * Both caches (docs/server-speed.md) see another connection's commit from the next event-loop
 * turn on; two server processes never share a turn, the two connections of a test do.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const LIMITS = (now: number): CodeRequestLimits => ({
  since: now - 3600_000,
  perEmailAndAddress: 5,
  perAddress: 20,
  perEmail: 30,
  freshUntil: now + 300_000,
  maxAttempts: 5,
});

for (const { name, make, skip } of backends) {
  describe.skipIf(skip !== undefined)(`storage on ${name}${skip ? ` (${skip})` : ""}`, () => {
    let backend: Backend;
    const opened: Storage[] = [];
    /** two connections on one fresh database, as two server processes would hold */
    const twoProcesses = async (): Promise<[Storage, Storage]> => {
      const db = await backend.fresh();
      const a = await db.open();
      const b = await db.open();
      opened.push(a, b);
      return [a, b];
    };
    beforeAll(async () => {
      backend = make();
    }, 60_000);
    afterAll(async () => {
      for (const s of opened) await s.close();
      await backend.teardown();
    }, 60_000);

    const user = (id: string, email: string) => ({
      id,
      email,
      passwordHash: null,
      admin: false,
      scope: ["Demo"] as string[],
      lastActive: null,
      created: 1000,
    });

    it("keeps users, their scope and admin flag, and deletes a user with credentials and sessions", async () => {
      const [a, b] = await twoProcesses();
      expect(a.kind).toBe(name);
      await a.createUser(user("u1", "one@example.com"));
      await a.createUser({ ...user("u2", "two@example.com"), admin: true, scope: "all", created: 2000 });
      expect(await b.countUsers()).toBe(2);
      expect(await b.getUserByEmail("two@example.com")).toMatchObject({ id: "u2", admin: true, scope: "all" });
      expect((await a.getUser("u1"))?.scope).toEqual(["Demo"]); // read (and cached) by a
      await b.updateUser("u1", { scope: ["Acme", "Demo"], lastActive: 1_764_000_000_123, passwordHash: "scrypt$x" });
      await nextTurn();
      expect(await a.getUser("u1")).toEqual({
        ...user("u1", "one@example.com"),
        scope: ["Acme", "Demo"],
        lastActive: 1_764_000_000_123,
        passwordHash: "scrypt$x",
      });
      expect((await a.listUsers()).map((u) => u.id)).toEqual(["u1", "u2"]);
      await a.addCredential({
        id: "cred",
        userId: "u1",
        publicKey: new Uint8Array([1, 2, 3]),
        counter: 0,
        lastTimestamp: 0,
        created: 1,
      });
      await a.createSession({
        id: "s1",
        userId: "u1",
        refreshHash: "h1",
        previousHash: null,
        expires: 9e12,
        created: 1,
        rotated: null,
      });
      expect((await b.getCredential("cred"))?.publicKey).toEqual(new Uint8Array([1, 2, 3]));
      expect(await b.deleteUser("u1")).toBe(true);
      await nextTurn();
      expect(await a.getUser("u1")).toBeUndefined();
      expect(await a.getCredential("cred")).toBeUndefined();
      expect(await a.getSession("s1")).toBeUndefined();
      expect(await a.deleteUser("u1")).toBe(false);
    });

    it("takes the setup code once (takeMeta) even when two processes race for it", async () => {
      const [a, b] = await twoProcesses();
      await a.setMeta("setup", "hash");
      expect(await b.getMeta("setup")).toBe("hash");
      const taken = await Promise.all([a.takeMeta("setup", "hash"), b.takeMeta("setup", "hash")]);
      expect(taken.filter(Boolean)).toHaveLength(1);
      expect(await a.getMeta("setup")).toBeUndefined();
    });

    it("accepts a key login's timestamp once across processes (recordKeyLogin)", async () => {
      const [a, b] = await twoProcesses();
      await a.createUser(user("u", "k@example.com"));
      await a.addCredential({
        id: "c",
        userId: "u",
        publicKey: new Uint8Array([9]),
        counter: 0,
        lastTimestamp: 0,
        created: 1,
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).recordKeyLogin("c", 1, 5000)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await b.recordKeyLogin("c", 2, 4999)).toBe(false);
      expect((await a.getCredential("c"))?.lastTimestamp).toBe(5000);
    });

    it("lets no more code requests pass than the limit when they arrive together on two processes", async () => {
      const [a, b] = await twoProcesses();
      const now = 1_764_000_000_000;
      const code = {
        email: "x@example.com",
        address: "10.0.0.1",
        codeHash: "c",
        expires: now + 600_000,
        attempts: 0,
        used: false,
        created: now,
      };
      const ids = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).addEmailCode({ ...code, codeHash: `c${i}` }, LIMITS(now))),
      );
      expect(ids.filter((id) => id !== undefined)).toHaveLength(5);
      // another address for the same e-mail still gets codes (docs/server-limits.md)
      expect(await a.addEmailCode({ ...code, address: "10.0.0.2" }, LIMITS(now))).toBeTypeOf("number");
      // an hour later the window is empty again
      expect(await b.addEmailCode({ ...code, created: now + 3600_001 }, LIMITS(now + 3600_001))).toBeTypeOf("number");
    });

    it("holds, never refuses, a code request past the e-mail's limit while the e-mail has a fresh code", async () => {
      const [a, b] = await twoProcesses();
      const now = 1_764_000_000_000;
      const limits = { ...LIMITS(now), perEmail: 3 };
      const code = (address: string, created = now) => ({
        email: "h@example.com",
        address,
        codeHash: `c-${address}-${created}`,
        expires: created + 600_000,
        attempts: 0,
        used: false,
        created,
      });
      for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3"])
        expect(await a.addEmailCode(code(address), limits)).toBeTypeOf("number");
      // past 3 for the e-mail: held on both processes while a code expires after freshUntil
      expect(await b.addEmailCode(code("10.0.0.4"), limits)).toBe("held");
      expect(await a.addEmailCode(code("10.0.0.5"), limits)).toBe("held");
      // 5 minutes and a moment later no code is fresh: a new one is stored, and holds the next
      const later = now + 300_001;
      const laterLimits = { ...limits, freshUntil: later + 300_000 };
      const id = await b.addEmailCode(code("10.0.0.4", later), laterLimits);
      expect(id).toBeTypeOf("number");
      expect(await a.addEmailCode(code("10.0.0.6", later), laterLimits)).toBe("held");
      // a used code is not fresh
      expect(await a.consumeEmailCode(id as number)).toBe(true);
      expect(await a.addEmailCode(code("10.0.0.6", later), laterLimits)).toBeTypeOf("number");
    });

    it("spends at most 5 attempts of a code over parallel claims on two processes, and uses it once", async () => {
      const [a, b] = await twoProcesses();
      const now = 1_764_000_000_000;
      const id = await a.addEmailCode(
        {
          email: "y@example.com",
          address: "a",
          codeHash: "good",
          expires: now + 600_000,
          attempts: 0,
          used: false,
          created: now,
        },
        LIMITS(now),
      );
      if (typeof id !== "number") throw new Error(`no code stored: ${String(id)}`);
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).claimEmailCode("y@example.com", "good", now + 1, 5)),
      );
      const granted = claims.filter((c) => typeof c === "object");
      expect(granted).toHaveLength(5);
      expect(claims.filter((c) => c === "exhausted")).toHaveLength(7);
      expect(new Set(granted.map((c) => (c as { attempts: number }).attempts))).toEqual(new Set([1, 2, 3, 4, 5]));
      expect(await a.claimEmailCode("y@example.com", "wrong", now + 1, 5)).toBeUndefined();
      expect(await a.claimEmailCode("y@example.com", "good", now + 600_001, 5)).toBeUndefined(); // expired
      const used = await Promise.all([a.consumeEmailCode(id), b.consumeEmailCode(id)]);
      expect(used.filter(Boolean)).toHaveLength(1);
      expect(await b.claimEmailCode("y@example.com", "good", now + 2, 5)).toBeUndefined(); // used
      await b.removeEmailCode(id);
    });

    it("rotates a refresh token once when two processes race, and knows the old one as a replay", async () => {
      const [a, b] = await twoProcesses();
      await a.createUser(user("u", "r@example.com"));
      const session = { userId: "u", previousHash: null, expires: 1, created: 1, rotated: null };
      await a.createSession({ ...session, id: "s", refreshHash: "h0" });
      const rotated = await Promise.all([
        a.rotateSession("s", "h0", "hA", 2, 100),
        b.rotateSession("s", "h0", "hB", 3, 200),
      ]);
      expect(rotated.filter(Boolean)).toHaveLength(1);
      const [winner, at] = rotated[0] ? ["hA", 100] : ["hB", 200];
      expect(await b.findSessionByRefreshHash(winner)).toMatchObject({ replay: false, session: { id: "s" } });
      // the rotation's time is kept, for the grace of concurrent refreshes (docs/server-limits.md "Refresh")
      expect(await a.findSessionByRefreshHash("h0")).toMatchObject({
        replay: true,
        session: { id: "s", refreshHash: winner, previousHash: "h0", rotated: at },
      });
      expect(await a.findSessionByRefreshHash("nothing")).toBeUndefined();
      expect(await a.getSession("s")).toMatchObject({ refreshHash: winner }); // read (and cached) by a
      await b.deleteSession("s");
      await nextTurn();
      expect(await a.getSession("s")).toBeUndefined(); // a logout on one process ends it on the other
      await a.createSession({ ...session, id: "s2", refreshHash: "h2" });
      await b.deleteSessionsOfUser("u");
      await nextTurn();
      expect(await a.getSession("s2")).toBeUndefined();
    });

    it("stores API-key envelopes as sent, token pairs, the outbox, and bots with their states", async () => {
      const [a, b] = await twoProcesses();
      const path: [string, string, string] = ["Acme", "gate", "main"];
      await a.setApiKey({ path, envelope: { data: "iv:ct", pair: "BTC/USDT", active: true }, created: 5 });
      expect((await b.getApiKey(path))?.envelope.data).toBe("iv:ct"); // read (and cached) by b
      await a.setApiKey({ path, envelope: { data: "iv:ct2", pair: "ETH/USDT", active: false }, created: 6 });
      await nextTurn();
      expect(await b.getApiKey(path)).toEqual({
        path,
        envelope: { data: "iv:ct2", pair: "ETH/USDT", active: false },
        created: 5,
      });
      expect(await b.listApiKeys()).toHaveLength(1);
      await a.setTokenPair({ exchangeId: "gate", pair: "BTC/USDT", priceDecimals: 2, amountDecimals: 6 });
      expect(await b.getTokenPair("gate", "BTC/USDT")).toEqual({
        exchangeId: "gate",
        pair: "BTC/USDT",
        priceDecimals: 2,
        amountDecimals: 6,
      });
      expect(await b.listTokenPairs()).toHaveLength(1);
      await a.setTokenPair({ exchangeId: "gate", pair: "BTC/USDT", priceDecimals: 3, amountDecimals: 6 });
      await nextTurn();
      expect((await b.getTokenPair("gate", "BTC/USDT"))?.priceDecimals).toBe(3);
      expect(await b.deleteTokenPair("gate", "BTC/USDT")).toBe(true);
      await nextTurn();
      expect(await a.getTokenPair("gate", "BTC/USDT")).toBeUndefined();
      await a.addOutbox({ ts: 1, to: "z@example.com", subject: "code", body: "A******Z" });

      const bot = (id: string, created: number, credentials: string | null) => ({
        id,
        botType: "floating-bot",
        path,
        paths: [] as [string, string, string][],
        setup: { pair: "BTC/USDT", quote: "10.5" },
        wrappedCredentials: credentials,
        state: { status: "stopped" },
        created,
      });
      await a.createBot(bot("b2", 10, "sealed"));
      await a.createBot(bot("b1", 10, null));
      await a.createBot({ ...bot("b3", 20, "sealed"), path: ["Other", "gate", "main"], paths: [path] });
      expect((await b.listBots()).map((x) => x.id)).toEqual(["b2", "b1", "b3"]);
      await b.updateBotState("b1", { status: "running", order: { price: "100.10" } });
      await b.updateBotStates([
        { id: "b2", state: { status: "paused" } },
        { id: "gone", state: { status: "x" } },
      ]);
      expect((await a.getBot("b1"))?.state).toEqual({ status: "running", order: { price: "100.10" } });
      expect((await a.getBot("b2"))?.state).toEqual({ status: "paused" });
      expect((await a.getBot("b2"))?.setup).toEqual({ pair: "BTC/USDT", quote: "10.5" });
      expect((await b.clearBotCredentialsForPath(path)).sort()).toEqual(["b2", "b3"]);
      expect((await a.getBot("b3"))?.wrappedCredentials).toBeNull();
      expect(await a.deleteApiKey(path)).toBe(true);
      await nextTurn();
      expect(await b.getApiKey(path)).toBeUndefined();
      expect(await b.deleteBot("b1")).toBe(true);
      expect(await a.getBot("b1")).toBeUndefined();
      expect(await a.deleteBot("b1")).toBe(false);
    });

    it('stores a bot\'s fills with its state, newest first in bounded pages, and deletes them with the bot (docs/bots.md "What each bot did")', async () => {
      const [a, b] = await twoProcesses();
      const bot = (id: string) => ({
        id,
        botType: "grid-bot",
        path: ["Acme", "paper", "main"] as [string, string, string],
        paths: [] as [string, string, string][],
        setup: {},
        wrappedCredentials: null,
        state: { status: "running" },
        created: 1,
      });
      await a.createBot(bot("f1"));
      await a.createBot(bot("f2"));
      const fill = (orderId: string, side: "Buy" | "Sell", liquidity: "maker" | "taker") => ({
        at: 1_700_000_000_123,
        orderId,
        side,
        price: "65000.125",
        amount: "0.001",
        fee: "0.000001",
        feeCurrency: "BTC",
        liquidity,
      });
      await a.updateBotStates(
        [{ id: "f1", state: { status: "running", pnl: { fills: 3 } } }],
        [
          { botId: "f1", fill: fill("o1", "Buy", "taker") },
          { botId: "f1", fill: fill("o2", "Sell", "maker") },
          { botId: "f2", fill: fill("o3", "Buy", "maker") },
          { botId: "f1", fill: fill("o4", "Buy", "maker") },
          { botId: "gone", fill: fill("o5", "Buy", "maker") },
        ],
      );
      expect((await b.getBot("f1"))?.state).toEqual({ status: "running", pnl: { fills: 3 } });
      const all = await b.listBotFills("f1", { limit: 100 });
      expect(all.map((f) => f.orderId)).toEqual(["o4", "o2", "o1"]);
      const { seq: _seq, ...first } = all[2]!;
      expect(first).toEqual(fill("o1", "Buy", "taker"));
      const page = await b.listBotFills("f1", { limit: 2 });
      expect(page.map((f) => f.orderId)).toEqual(["o4", "o2"]);
      expect((await b.listBotFills("f1", { before: page[1]!.seq, limit: 2 })).map((f) => f.orderId)).toEqual(["o1"]);
      expect(await b.listBotFills("gone", { limit: 10 })).toEqual([]);
      expect(await a.deleteBot("f1")).toBe(true);
      expect(await b.listBotFills("f1", { limit: 10 })).toEqual([]);
      expect((await b.listBotFills("f2", { limit: 10 })).map((f) => f.orderId)).toEqual(["o3"]);
    });

    if (name === "postgres")
      it("leaves a removed envelope or bot credentials in no table file (docs/scale-out.md, docs/decisions.md#d4)", async () => {
        const url = await pgService!.createDatabase();
        const store = await openPostgresStorage(url);
        opened.push(store);
        const envelope = `ENVELOPE-${randomBytes(8).toString("hex")}`;
        const sealed = `SEALED-${randomBytes(8).toString("hex")}`;
        const path: [string, string, string] = ["Acme", "gate", "main"];
        await store.setApiKey({ path, envelope: { data: envelope, pair: "BTC/USDT", active: true }, created: 1 });
        const bot = { id: "b", botType: "grid-bot", path, paths: [], setup: {}, state: {}, created: 1 };
        await store.createBot({ ...bot, wrappedCredentials: sealed });
        await store.createBot({ ...bot, id: "c", wrappedCredentials: `${sealed}-2` });
        await checkpoint(url);
        // the check sees rows on disk: both secrets are in the table files now
        expect(tableFilesHolding(pgService!.dataDir, envelope)).not.toEqual([]);
        expect(tableFilesHolding(pgService!.dataDir, sealed)).not.toEqual([]);
        expect(await store.deleteApiKey(path)).toBe(true);
        expect(await store.deleteBot("b")).toBe(true);
        expect(await store.clearBotCredentialsForPath(path)).toEqual(["c"]);
        await checkpoint(url);
        expect(tableFilesHolding(pgService!.dataDir, envelope)).toEqual([]);
        expect(tableFilesHolding(pgService!.dataDir, sealed)).toEqual([]);
      });

    it("opens an existing database again without losing a row (migrations run once)", async () => {
      const db = await backend.fresh();
      const first = await db.open();
      await first.createUser(user("keep", "keep@example.com"));
      await first.close();
      const again = await db.open();
      opened.push(again);
      expect(await again.getUser("keep")).toMatchObject({ email: "keep@example.com" });
    });
  });
}
