/**
 * Issue 31, docs/scale-out.md "When Redis goes away": a logout reaches the live sockets of every
 * process even while Redis is down. Two servers (as two processes hold them) on one PostgreSQL
 * and one Redis, both started on loopback ports by the harness (test/server/services.ts): while
 * the bus is down each server checks its sockets' sessions in the database; when it is back it
 * checks at once; what it cannot confirm it closes (4503).
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pathHeader, type SessionAnswer } from "../../lib/api.js";
import {
  call,
  cookieOf,
  type LiveClient,
  openLive,
  outboxCode,
  PASSWORD,
  registerFirstAdmin,
  type SignedIn,
  startTestServer,
  type TestServer,
} from "./helpers.js";
import { type PostgresService, type RedisService, servicesMissing, startPostgres, startRedis } from "./services.js";

const skip = servicesMissing({ postgres: true, redis: true });

/** The socket's close, or "still open" after a generous bounded wait (no timing is asserted). */
const closedWithin = (live: LiveClient) =>
  Promise.race([live.closed, new Promise<"still open">((r) => setTimeout(() => r("still open"), 15_000))]);

const subscribeTo = async (server: TestServer, who: { session: SessionAnswer }) => {
  const live = await openLive(server.wsUrl);
  live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: who.session.uuid, token: who.session.accessToken }));
  expect((await live.next(2))[0]).toEqual({ purpose: "sub_for_bots", result: true });
  return live;
};

describe.skipIf(skip !== undefined)(`logout while Redis is down${skip ? ` (${skip})` : ""}`, () => {
  let postgres: PostgresService;
  let redis: RedisService;
  let servers: TestServer[] = [];

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  });
  afterAll(async () => {
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.cleanup()));
    servers = [];
  });

  /** servers A and B on one database and Redis (docs/scale-out.md), the admin signed in twice on A */
  const twoServers = async (sessionCheckMs: number) => {
    const shared = {
      database: await postgres.createDatabase(),
      redis: redis.url,
      tokenSecret: randomBytes(32).toString("hex"),
      dataKey: randomBytes(32).toString("hex"),
      websocket: { sessionCheckMs },
    };
    const a = await startTestServer(shared);
    servers.push(a);
    const admin = await registerFirstAdmin(a);
    const b = await startTestServer(shared);
    servers.push(b);
    expect((await call(a, "POST", "/code", { headers: { email: admin.email } })).status).toBe(200);
    const login = await call<SessionAnswer>(a, "POST", "/login/password", {
      headers: {
        email: admin.email,
        password: PASSWORD,
        code: outboxCode(a.dataDir, admin.email),
        timestamp: String(a.clock.now),
      },
    });
    expect(login.status).toBe(200);
    const second: SignedIn = { session: login.body, cookie: cookieOf(login.setCookie), email: admin.email };
    return { a, b, admin, second };
  };

  it("closes B's socket of a session logged out on A while Redis is down (4607); B's other sessions go on", async () => {
    const { a, b, admin, second } = await twoServers(200);
    const gone = await subscribeTo(b, admin);
    const kept = await subscribeTo(b, second);
    await redis.down();
    try {
      expect((await call(a, "POST", "/user/logout", { cookie: admin.cookie })).status).toBe(200);
      expect(await closedWithin(gone)).toEqual({ code: 4607, reason: "session ended" });
      expect(gone.messages.at(-1)).toMatchObject({ purpose: "sub_for_bots", result: false, code: 607 });
      // B's bot updates reach the session still signed in, and nothing more the ended one
      const bot = await call(b, "POST", "/token/bot", {
        token: second.session.accessToken,
        headers: { path: pathHeader(["Demo", "paper", "main"]) },
        body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } },
      });
      expect(bot.status).toBe(200);
      expect((await kept.next())[0]).toMatchObject({ type: "delta", data: { botId: bot.body.botId } });
      expect(gone.messages.filter((m) => m.type === "delta")).toEqual([]);
    } finally {
      await redis.up();
    }
    kept.ws.close();
  });

  it("checks the sessions at once when Redis is back: a logout on a process that stopped meanwhile (4607)", async () => {
    const { a, b, admin } = await twoServers(600_000); // no check while down within this test
    const gone = await subscribeTo(b, admin);
    await redis.down();
    try {
      expect((await call(a, "POST", "/user/logout", { cookie: admin.cookie })).status).toBe(200);
      await a.close(); // A is gone: it cannot tell anyone later
    } finally {
      await redis.up();
    }
    expect(await closedWithin(gone)).toEqual({ code: 4607, reason: "session ended" });
  });

  it("closes the sockets whose session it cannot read while Redis and the database are down (4503)", async () => {
    const { b, admin } = await twoServers(200);
    const live = await subscribeTo(b, admin);
    await redis.down();
    await postgres.down();
    try {
      expect(await closedWithin(live)).toEqual({ code: 4503, reason: "session not confirmed" });
    } finally {
      await postgres.up();
      await redis.up();
    }
  });
});
