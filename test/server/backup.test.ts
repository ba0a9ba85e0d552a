/**
 * Readiness and backup (docs/operations.md): `/health` stays the liveness answer, `/health/ready`
 * says whether storage answers; `spotdesk serve backup FILE` makes a consistent copy of a running
 * SQLite server from another process, and `spotdesk serve restore FILE` puts it back: "backup
 * during 200 req/s of trading calls (paper) restores to a database that passes
 * `PRAGMA integrity_check` with every acknowledged write" — every user, key, bot and
 * order-history row there.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPaperAccount } from "../../exchanges/paper/store.js";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { paperAccountName } from "../../server/accounts.js";
import { buildCli, isolatedEnv } from "../cli/helpers.js";
import {
  call,
  permitAndRegister,
  registerFirstAdmin,
  type SignedIn,
  SQLITE_ONLY,
  startTestServer,
  type TestServer,
} from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const CALLS_PER_SECOND = 200;
const MAX_ORDERS = 2000;
const MAX_IN_FLIGHT = 64;

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

let bin: string;
let scratch: string;
beforeAll(() => {
  bin = buildCli();
  scratch = mkdtempSync(join(tmpdir(), "spotdesk-backup-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The built CLI in its own process, as an operator runs it beside serve. */
function spotdesk(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: isolatedEnv(scratch), cwd: scratch });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

/** Paper trading calls at CALLS_PER_SECOND (in bursts every 100 ms) until stopped; the acknowledged ones by time. */
function tradeLoad(server: TestServer, token: string) {
  const acknowledged: { id: string; at: number; cancelled: boolean }[] = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const place = async (i: number) => {
    const price = String(1000 + (i % 50));
    const res = await call(server, "POST", "/token/trade/order/create", {
      token,
      headers: { path: pathHeader(DEMO) },
      body: { price, amount: "0.001", side: "Buy" },
    });
    if (res.status !== 200) {
      failures.push(`${res.status} ${JSON.stringify(res.body)}`);
      return;
    }
    const order = { id: res.body.id as string, at: Date.now(), cancelled: false };
    // four orders of five are cancelled: paper refuses more than 500 open orders per pair
    if (i % 5 !== 0) {
      const cancel = await call(server, "POST", "/token/trade/order/cancel", {
        token,
        headers: { path: pathHeader(DEMO) },
        body: { id: order.id },
      });
      if (cancel.status !== 200) failures.push(`cancel ${cancel.status} ${JSON.stringify(cancel.body)}`);
      else order.cancelled = true;
    }
    order.at = Date.now();
    acknowledged.push(order);
  };
  const timer = setInterval(() => {
    // at most MAX_ORDERS: a slow machine's long run stays under paper's 500 open orders
    // and at most MAX_IN_FLIGHT waiting: a slower server is not buried under the per-address connection cap
    for (let k = 0; k < CALLS_PER_SECOND / 10 && n < MAX_ORDERS && inFlight.size < MAX_IN_FLIGHT; k++) {
      const p = place(n++).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  }, 100);
  return {
    acknowledged,
    failures,
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
    },
  };
}

function rows(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma("integrity_check", { simple: true }),
      users: db.prepare("SELECT id, email, admin, scope FROM users ORDER BY id").all(),
      keys: db.prepare("SELECT path, envelope FROM api_keys ORDER BY path").all(),
      bots: db.prepare("SELECT id, bot_type, path, setup FROM bots ORDER BY id").all(),
    };
  } finally {
    db.close();
  }
}

describe.skipIf(SQLITE_ONLY)("readiness (docs/operations.md#readiness)", () => {
  it("/health/ready answers 200 with storage ok, and 503 naming storage once it no longer answers", async () => {
    const server = await startTestServer();
    try {
      const live = await call(server, "GET", "/health");
      expect(live.body.status).toBe("ok");
      const ready = await call(server, "GET", "/health/ready");
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: "ready", storage: { kind: "sqlite", state: "ok" } });
      expect(ready.body.redis).toBeUndefined();
      // the database closed under a running server: liveness is the process, readiness its storage
      await server.storage.close();
      const notReady = await call(server, "GET", "/health/ready");
      expect(notReady.status).toBe(503);
      expect(notReady.body).toMatchObject({ status: "not ready", storage: { state: "failed" } });
    } finally {
      await server.cleanup();
    }
  });
});

describe.skipIf(SQLITE_ONLY)("serve backup and restore (docs/operations.md#backup-and-restore)", () => {
  let server: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    // the load is one user's: the per-user limit (60 per 10 s) is lifted for it
    server = await startTestServer({ rateLimit: { calls: 1_000_000, windowMs: 10_000 } });
    admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, "trader@example.com", ["Demo"]);
    await server.storage.createBot({
      id: "bot-backup-1",
      botType: "grid",
      path: DEMO,
      paths: [DEMO],
      setup: { levels: 3 },
      wrappedCredentials: null,
      state: { status: "stopped" },
      created: Date.now(),
    });
  });
  afterAll(async () => {
    await server.cleanup();
  });

  it("copies a running server under 200 req/s of paper trading; the restore has every row and acknowledged order", async () => {
    const load = tradeLoad(server, admin.session.accessToken);
    // the backup starts once the load has acknowledged 100 orders, and runs inside it
    while (load.acknowledged.length < 100 && load.failures.length === 0)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    const file = join(scratch, "under-load.sqlite");
    const backup = await spotdesk(["serve", "backup", file, "--data", server.dataDir, "--json"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await load.stop();
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const report = JSON.parse(backup.stdout);
    expect(report).toMatchObject({ users: 2, apiKeys: 1, bots: 1, paperFiles: expect.any(Number) });
    expect(load.failures, load.failures.join("\n")).toEqual([]);
    const before = load.acknowledged.filter((o) => o.at < startedAt);
    expect(before.length).toBeGreaterThanOrEqual(100);
    // writes went on while the backup ran
    expect(load.acknowledged.length).toBeGreaterThan(before.length);

    // restore into a new data directory while the original keeps running
    const target = join(scratch, "restored");
    const restore = await spotdesk(["serve", "restore", file, "--data", target, "--json"]);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    const restoredFile = join(target, "spotdesk.sqlite");
    const restored = rows(restoredFile);
    const original = rows(join(server.dataDir, "spotdesk.sqlite"));
    expect(restored.integrity).toBe("ok");
    expect(restored.users).toEqual(original.users);
    expect(restored.keys).toEqual(original.keys);
    expect(restored.bots).toEqual(original.bots);
    expect(restored.bots).toHaveLength(1);

    // order history: every order acknowledged before the backup began, in its acknowledged state
    const paper = readPaperAccount(join(target, "paper", `${paperAccountName(DEMO)}.json`));
    const orders = new Map((paper?.orders ?? []).map((o) => [o.id, o]));
    for (const order of before) {
      expect(orders.has(order.id), `order ${order.id}`).toBe(true);
      if (order.cancelled) expect(orders.get(order.id)!.status, `order ${order.id}`).toBe("canceled");
    }

    // and a server starts on the restored directory with the same users able to sign in
    const copy = await startTestServer({}, { dataDir: target, clock: { now: Date.now() }, logs: [] });
    try {
      const login = await call(copy, "GET", "/credentials", { headers: { email: "trader@example.com" } });
      expect(login.status).toBe(200);
      const ready = await call(copy, "GET", "/health/ready");
      expect(ready.status).toBe(200);
      expect((await call(copy, "GET", "/health")).body.firstRun).toBe(false);
    } finally {
      await copy.close();
    }
  });

  it("refuses to restore over a data directory a serve runs on, naming it", async () => {
    const file = join(scratch, "idle.sqlite");
    expect((await spotdesk(["serve", "backup", file, "--data", server.dataDir])).code).toBe(0);
    const result = await spotdesk(["serve", "restore", file, "--data", server.dataDir]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("spotdesk serve");
    expect(result.stderr).toContain("stop that one first");
  });

  it("refuses a backup file that exists, and a restore of a file that is not a spotdesk backup", async () => {
    const existing = join(scratch, "taken.sqlite");
    writeFileSync(existing, "keep me");
    const again = await spotdesk(["serve", "backup", existing, "--data", server.dataDir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already exists: give the name of a new file");

    const notBackup = await spotdesk(["serve", "restore", existing, "--data", join(scratch, "other")]);
    expect(notBackup.code).toBe(2);
    expect(notBackup.stderr).toContain("is not a SQLite database");
    expect(existsSync(join(scratch, "other", "spotdesk.sqlite"))).toBe(false);

    const empty = join(scratch, "empty.sqlite");
    new Database(empty).close();
    const foreign = await spotdesk(["serve", "restore", empty, "--data", join(scratch, "other")]);
    expect(foreign.stderr).toContain("is not a spotdesk backup: no table meta, users, api_keys, bots, token_pairs");
  });

  it("says a server on PostgreSQL is backed up with pg_dump", async () => {
    const result = await spotdesk(["serve", "backup", join(scratch, "pg.sqlite"), "--database", "postgres://u@db/x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("back it up with pg_dump");
  });
});
