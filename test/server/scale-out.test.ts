/**
 * Issue 15, docs/scale-out.md: three `spotdesk serve` processes (the built CLI) on one PostgreSQL
 * and one Redis, started on loopback ports by the harness (test/server/services.ts). Limits,
 * e-mail code attempts and refresh rotation hold across the processes; under a scripted load
 * spread over them, one process is killed with SIGKILL mid-way: no acknowledged write is lost,
 * no bot ever has two orders resting at once (no bot runs twice on paper), the killed process's
 * bots are taken over, and the live messages reach the subscribers of both survivors alike.
 * The processes are the built CLI: `node scripts/build.mjs` first (the root vitest config does it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader, type SessionAnswer } from "../../lib/api.js";
import { botTag } from "../../server/bots/client-ids.js";
import { type Cluster, type ServerProcess, startCluster } from "./cluster.js";
import { call, cookieOf, type LiveClient, openLive, outboxCode, PASSWORD } from "./helpers.js";
import { type PostgresService, type Service, servicesMissing, startPostgres, startRedis } from "./services.js";

const skip = servicesMissing({ postgres: true, redis: true });
const DEMO: AccountPath = ["Demo", "paper", "main"];
/** the lease of a bot (docs/scale-out.md): short, so the takeover fits a test */
const LEASE_MS = 2000;
/** calls per user per 30 s: the load stays under it; the limit test reaches it (a long window: a loaded machine may take 10 s for its 180 calls) */
const CALLS = 150;
/** the grace of refreshes with one cookie (docs/server-limits.md "Refresh"): short, so a replay past it fits a test */
const GRACE_MS = 1000;

interface Signed {
  session: SessionAnswer;
  cookie: string;
  email: string;
}

const waitFor = async <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};

describe.skipIf(skip !== undefined)(`three server processes on PostgreSQL and Redis${skip ? ` (${skip})` : ""}`, () => {
  let postgres: PostgresService;
  let redis: Service;
  let cluster: Cluster;
  let admin: Signed;
  const procs = () => cluster.processes;

  /** admin permits `email` on one process; the user asks a code on another and registers on a third */
  const register = async (email: string, scope: "all" | string[]): Promise<Signed> => {
    const [a, b, c] = procs();
    expect(
      (
        await call(a!, "POST", "/token/admin/user", {
          token: admin.session.accessToken,
          body: { userId: email, scope },
        })
      ).status,
    ).toBe(200);
    expect((await call(b!, "POST", "/code", { headers: { email } })).status).toBe(200);
    const code = outboxCode(cluster.dataDir, email);
    const res = await call<SessionAnswer>(c!, "POST", "/register", { headers: { email, password: PASSWORD, code } });
    expect(res.status).toBe(200);
    return { session: res.body, cookie: cookieOf(res.setCookie), email };
  };

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    cluster = await startCluster(3, {
      database: await postgres.createDatabase(),
      redis: redis.url,
      config: {
        botLeaseMs: LEASE_MS,
        rateLimit: { calls: CALLS, windowMs: 30_000 },
        refreshGraceMs: GRACE_MS,
        // the address's 10 failures, not its 5 for one e-mail, so only a code's own 5 attempts stop the sixth check
        signIn: { failuresPerEmailAndAddress: 10 },
      },
      async first(p, setupCode) {
        const res = await call<SessionAnswer>(p, "POST", "/register", {
          headers: { email: "admin@example.com", password: PASSWORD, code: setupCode },
        });
        expect(res.status).toBe(200);
        admin = { session: res.body, cookie: cookieOf(res.setCookie), email: "admin@example.com" };
      },
    });
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await Promise.allSettled([postgres?.stop(), redis?.stop()]);
  }, 60_000);

  it("serves one database: a token from one process works on the others, /health says postgres", async () => {
    for (const p of procs()) {
      expect((await call(p, "GET", "/health")).body).toMatchObject({ status: "ok", storage: "postgres" });
      expect((await call(p, "GET", "/token/me", { token: admin.session.accessToken })).body).toMatchObject({
        email: "admin@example.com",
        admin: true,
      });
    }
  });

  it("counts one user's calls across the processes: the limit is reached once, not once per process (docs/decisions.md#d8)", async () => {
    const user = await register("limited@example.com", ["Demo"]);
    let ok = 0;
    let limited = 0;
    for (let i = 0; i < CALLS + 30; i++) {
      const res = await call(procs()[i % 3]!, "GET", "/token/me", { token: user.session.accessToken });
      if (res.status === 200) ok++;
      else if (res.body?.code === 604) limited++;
    }
    expect(ok).toBe(CALLS);
    expect(limited).toBe(30);
  });

  it("answers a refresh with the same cookie on another process within the grace; refuses a later replay and ends the session everywhere (docs/decisions.md#d7)", async () => {
    const user = await register("refresh@example.com", ["Demo"]);
    const [a, b, c] = procs();
    const headers = () => ({ "user-id": user.session.uuid, timestamp: String(Date.now()) });
    const first = await call(a!, "POST", "/user/refresh", { headers: headers(), cookie: user.cookie });
    expect(first.status).toBe(200);
    // a second tab's refresh with the same cookie, on another process: the same new cookie (docs/server-limits.md "Refresh")
    const tab = await call(b!, "POST", "/user/refresh", { headers: headers(), cookie: user.cookie });
    expect(tab.status).toBe(200);
    expect(cookieOf(tab.setCookie)).toBe(cookieOf(first.setCookie));
    await new Promise((r) => setTimeout(r, GRACE_MS + 100));
    const replay = await call(b!, "POST", "/user/refresh", { headers: headers(), cookie: user.cookie });
    expect(replay.body.code).toBe(607);
    // the replay revoked the session: the rotated token fails too, on a third process
    const rotated = await call(c!, "POST", "/user/refresh", { headers: headers(), cookie: cookieOf(first.setCookie) });
    expect(rotated.body.code).toBe(607);
    expect((await call(a!, "GET", "/token/me", { token: first.body.accessToken })).body.code).toBe(607);
  });

  it("a logout on one process closes the session's live sockets on the others at once (4607)", async () => {
    const user = await register("logout@example.com", ["Demo"]);
    const [a, b, c] = procs() as [ServerProcess, ServerProcess, ServerProcess];
    const sockets = [await openLive(b.wsUrl), await openLive(c.wsUrl)];
    for (const live of sockets) {
      live.ws.send(
        JSON.stringify({ purpose: "sub_for_bots", userId: user.session.uuid, token: user.session.accessToken }),
      );
      await live.next(2);
    }
    expect((await call(a, "POST", "/user/logout", { cookie: user.cookie })).status).toBe(200);
    for (const live of sockets) expect(await live.closed).toEqual({ code: 4607, reason: "session ended" });
  });

  it("spends a code's 5 attempts across the processes: the sixth check is refused wherever it lands (docs/decisions.md#d8)", async () => {
    const user = await register("attempts@example.com", ["Demo"]);
    expect((await call(procs()[0]!, "POST", "/code", { headers: { email: user.email } })).status).toBe(200);
    const code = outboxCode(cluster.dataDir, user.email);
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(procs()[i % 3]!, "POST", "/login/password", {
        headers: { email: user.email, password: "wrong password", code, timestamp: String(Date.now()) },
      });
      answers.push(res.body.msg);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill("Wrong e-mail code or password"));
    expect(answers[5]).toBe("This code was tried 5 times: request a new one");
  });

  it("loses no acknowledged write, runs no bot twice and keeps the live channel whole when a process is killed", async () => {
    const token = admin.session.accessToken;
    const path = { path: pathHeader(DEMO) };
    // each reader has its own call budget (docs/decisions.md#d8 counts per user, across the processes)
    const watcherToken = (await register("watcher@example.com", "all")).session.accessToken;
    const pollerToken = (await register("poller@example.com", "all")).session.accessToken;
    const [victim, ...survivors] = procs() as [ServerProcess, ServerProcess, ServerProcess];
    // a browser on each process
    const live: LiveClient[] = [];
    /** when each message arrived, beside live[i].messages */
    const received: number[][] = [];
    for (const p of procs()) {
      const client = await openLive(p.wsUrl);
      const times: number[] = [];
      client.ws.on("message", () => times.push(Date.now()));
      received.push(times);
      client.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token }));
      await client.next(2); // the answer and the snapshot
      live.push(client);
    }
    // three floating bots created on the victim: it takes their leases at once
    const bots: string[] = [];
    for (const percent of [1, 2, 3]) {
      const res = await call(victim, "POST", "/token/bot", {
        token,
        headers: path,
        body: {
          botType: "floating-bot",
          // busy bots: every move of the mid replaces the order (a second runner would double it)
          setup: {
            main: { pair: "BTC/USDT", side: "Buy", quote: 20, percent, marginOfError: 0 },
            modules: { "dynamic-delay": { min: 0.05, max: 0.1 } },
          },
        },
      });
      expect(res.status).toBe(200);
      bots.push(res.body.botId);
    }
    const tags = new Map(bots.map((id) => [botTag(id), id]));
    const openOrders = async (p: ServerProcess, as = pollerToken) => {
      const res = await call(p, "GET", "/token/trade/orders", { token: as, headers: path });
      return res.status === 200 ? (res.body as { id: string; clientOrderId?: string }[]) : undefined;
    };
    const perBot = (orders: { clientOrderId?: string }[]) => {
      const counts = new Map<string, number>();
      for (const o of orders) {
        const bot = tags.get((o.clientOrderId ?? "").slice(0, 8));
        if (bot) counts.set(bot, (counts.get(bot) ?? 0) + 1);
      }
      return counts;
    };
    await waitFor(async () => {
      const orders = await openOrders(survivors[0]);
      return orders && perBot(orders).size === 3;
    }, "every bot's order on paper");

    // a watcher samples the account's open orders all along: never two orders of one bot
    let watching = true;
    let samples = 0;
    const doubled: string[] = [];
    const watcher = (async () => {
      while (watching) {
        const orders = await openOrders(survivors[1], watcherToken);
        if (orders) {
          samples++;
          for (const [bot, n] of perBot(orders)) if (n > 1) doubled.push(`${bot}: ${n} orders`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    // the scripted load: permits and resting paper orders, round robin; the victim dies at the middle
    const permitted: string[] = [];
    const placed: string[] = [];
    let sent = 0;
    const WRITES = 60;
    let killed = false;
    let killedAt = 0;
    const worker = async () => {
      while (sent < WRITES) {
        const i = sent++;
        if (i === WRITES / 2 && !killed) {
          killed = true;
          killedAt = Date.now();
          await victim.kill();
        }
        const target = procs()[i % 3]!;
        try {
          if (i % 2 === 0) {
            const email = `load-${i}@example.com`;
            const res = await call(target, "POST", "/token/admin/user", {
              token,
              body: { userId: email, scope: ["Demo"] },
            });
            if (res.status === 200) permitted.push(email);
          } else {
            const res = await call(target, "POST", "/token/trade/order/create", {
              token,
              headers: path,
              body: { side: "Buy", price: "1000", amount: "0.001" },
            });
            if (res.status === 200) placed.push(res.body.id);
          }
        } catch {
          // the killed process: no answer, nothing acknowledged (a balancer would retry elsewhere)
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(killed).toBe(true);

    // the killed process's bots are taken over within about 1.3 lease times and keep one order each
    await waitFor(
      async () => {
        const listed = (await call(survivors[0], "GET", "/token/bots", { token: pollerToken })).body as {
          botId: string;
          status: string;
          order?: { id: string };
        }[];
        const orders = await openOrders(survivors[0]);
        if (!orders) return false;
        const counts = perBot(orders);
        return listed.every((b) => b.status === "running" && b.order && counts.get(b.botId) === 1);
      },
      "the bots running again on the survivors",
      LEASE_MS * 4 + 10_000,
    );
    // a while longer, so each bot's new owner shows it is the only one
    await new Promise((r) => setTimeout(r, LEASE_MS * 2));
    watching = false;
    await watcher;
    expect(samples).toBeGreaterThan(10);
    expect(doubled).toEqual([]);

    // every acknowledged write is there, read through either survivor
    expect(permitted.length + placed.length).toBeGreaterThan(WRITES / 2);
    const users = (await call(survivors[1], "GET", "/token/admin/users", { token })).body as { email: string }[];
    const emails = new Set(users.map((u) => u.email));
    expect(permitted.filter((e) => !emails.has(e))).toEqual([]);
    const resting = new Set(((await openOrders(survivors[0])) ?? []).map((o) => o.id));
    expect(placed.filter((id) => !resting.has(id))).toEqual([]);

    // the live channel: both survivors' browsers got the same deltas (a bot's deltas reach the
    // browsers of the processes that do not run it), including the new owners' after the takeover.
    // What one received up to two seconds before the end, the other has received by the end.
    const cutoff = Date.now();
    await new Promise((r) => setTimeout(r, 2000));
    const deltas = (i: number, until = Number.POSITIVE_INFINITY) =>
      live[i]!.messages.filter((m, n) => m.type === "delta" && received[i]![n]! <= until).map((m) =>
        JSON.stringify(m.data),
      );
    for (const [x, y] of [
      [1, 2],
      [2, 1],
    ] as const) {
      const other = new Set(deltas(y));
      expect(deltas(x, cutoff).filter((d) => !other.has(d))).toEqual([]);
    }
    const afterKill = deltas(1, cutoff)
      .map((d) => JSON.parse(d) as { botId: string; updatedAt?: number })
      .filter((d) => bots.includes(d.botId) && (d.updatedAt ?? 0) > killedAt);
    expect(new Set(afterKill.map((d) => d.botId)).size).toBe(3);
    // bounded takeover: the victim's leases expire at most LEASE_MS after its last renewal and
    // the survivors sweep every third of it (docs/scale-out.md); the rest is slack for a busy machine
    const backAt = new Map<string, number>();
    live[1]!.messages.forEach((m, n) => {
      if (m.type === "delta" && bots.includes(m.data.botId) && (m.data.updatedAt ?? 0) > killedAt)
        if (!backAt.has(m.data.botId)) backAt.set(m.data.botId, received[1]![n]!);
    });
    const takeover = Math.max(...[...backAt.values()].map((t) => t - killedAt));
    process.stderr.write(`[scale-out] every bot back ${takeover} ms after the kill (lease ${LEASE_MS} ms)\n`);
    expect(takeover).toBeLessThan((LEASE_MS * 4) / 3 + 8000);
    for (const client of live) client.ws.close();
  }, 120_000);

  it("removes a bot that another process runs: its owner cancels its orders first, and nobody places it again (docs/decisions.md#d25)", async () => {
    const token = admin.session.accessToken;
    const headers = { path: pathHeader(DEMO) };
    const [, owner, other] = procs() as [ServerProcess, ServerProcess, ServerProcess];
    const created = await call(owner, "POST", "/token/bot", {
      token,
      headers,
      body: { botType: "floating-bot", setup: { main: { pair: "BTC/USDT", side: "Sell", quote: 20, percent: 2 } } },
    });
    expect(created.status).toBe(200);
    const botId = created.body.botId as string;
    const ownOrders = async () => {
      const res = await call(other, "GET", "/token/trade/orders", { token, headers });
      return (res.body as { clientOrderId?: string }[]).filter((o) => o.clientOrderId?.startsWith(botTag(botId)));
    };
    await waitFor(async () => (await ownOrders()).length === 1, "the bot's order on paper");
    // asked on the process that does not run it
    const removed = await call(other, "DELETE", "/token/bot", { token, body: { botId } });
    expect(removed.body).toEqual({ removed: true, botId });
    expect(await ownOrders()).toEqual([]);
    await new Promise((r) => setTimeout(r, LEASE_MS * 2)); // sweeps on every process
    expect(await ownOrders()).toEqual([]);
    const listed = (await call(owner, "GET", "/token/bots", { token })).body as { botId: string }[];
    expect(listed.map((b) => b.botId)).not.toContain(botId);
  });

  it("keeps answering when Redis goes away: limits fall back to each process, nothing crashes", async () => {
    await redis.stop();
    for (const p of procs().slice(1)) {
      expect((await call(p, "GET", "/health")).status).toBe(200);
      const me = await call(p, "GET", "/token/me", { token: admin.session.accessToken });
      expect(me.body).toMatchObject({ email: "admin@example.com" });
    }
    for (const p of procs().slice(1)) expect(p.child.exitCode).toBeNull();
  });
});
