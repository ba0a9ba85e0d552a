/**
 * docs/server-limits.md "Limits that apply": every answer of a call limiter is acted on. The public
 * per-address limit (docs/decisions.md#d8, 604 past N calls in the window) applies to every public route,
 * the per-user limit to every signed-in call, and both limiter implementations (in memory, and
 * shared through Redis) refuse the call past the limit. Before issue 31 `limitPublic` tested the
 * limiter's Promise as a boolean, so no public call was ever refused.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ERROR } from "../../lib/api.js";
import { type CallLimiter, memoryLimiter } from "../../server/app.js";
import { redisLimiter } from "../../server/cluster/limits.js";
import { createJsonLogger } from "../../server/log.js";
import { call, registerFirstAdmin, startTestServer, type TestServer } from "./helpers.js";
import { callFrom } from "./raw.js";
import { servicesMissing, startRedis } from "./services.js";

const CALLS = 5;

describe('the public per-address limit (docs/server-limits.md "Limits that apply")', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: { calls: CALLS, windowMs: 60_000 } });
  });
  afterAll(() => server.cleanup());

  it("answers 604 past the limit on a public route, for that address only, until the window has passed", async () => {
    for (let i = 0; i < CALLS; i++) expect((await callFrom(server, "127.0.0.3", "GET", "/health")).status).toBe(200);
    const refused = await callFrom(server, "127.0.0.3", "GET", "/health");
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(API_ERROR.RATE_LIMIT);
    // another route shares the address's budget: the limit is the caller's, not the route's
    const candles = await callFrom(server, "127.0.0.3", "GET", "/candles/paper/BTC-USDT?interval=60&limit=2");
    expect(candles.body.code).toBe(API_ERROR.RATE_LIMIT);
    // a second address has its own budget
    expect((await callFrom(server, "127.0.0.4", "GET", "/health")).status).toBe(200);
    server.clock.now += 60_000;
    expect((await callFrom(server, "127.0.0.3", "GET", "/health")).status).toBe(200);
  });

  it("limits the e-mail look-up a stranger would use to list who has an account", async () => {
    const answers = [];
    for (let i = 0; i < CALLS + 3; i++)
      answers.push(
        (await callFrom(server, "127.0.0.5", "GET", "/credentials", { headers: { email: `u${i}@example.com` } })).body
          ?.code,
      );
    expect(answers.slice(CALLS)).toEqual([API_ERROR.RATE_LIMIT, API_ERROR.RATE_LIMIT, API_ERROR.RATE_LIMIT]);
    expect(answers.slice(0, CALLS)).not.toContain(API_ERROR.RATE_LIMIT);
  });

  it("answers 604 past the per-user limit on signed-in calls", async () => {
    const admin = await registerFirstAdmin(server);
    server.clock.now += 60_000; // /register was a public call of 127.0.0.1
    const codes = [];
    for (let i = 0; i < CALLS + 1; i++)
      codes.push((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

/** What `admit` does over `limit + 2` calls: "ok" or the 60x code it threw. */
async function admitted(limiter: CallLimiter, key: string, limit: number, now: number): Promise<(string | number)[]> {
  const out: (string | number)[] = [];
  for (let i = 0; i < limit + 2; i++) {
    try {
      await limiter.admit(key, limit, 60_000, now);
      out.push("ok");
    } catch (error) {
      out.push((error as { code: number }).code);
    }
  }
  return out;
}

describe("both call limiters refuse past the limit by throwing 604 (server/app.ts CallLimiter)", () => {
  it("in memory", async () => {
    expect(await admitted(memoryLimiter(), "k", 3, 1_000)).toEqual(["ok", "ok", "ok", 604, 604]);
  });

  const missing = servicesMissing({ redis: true });
  it.skipIf(missing)(`through Redis, and in this process's memory while Redis is down ${missing ?? ""}`, async () => {
    const service = await startRedis();
    const redis = new Redis(service.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    await redis.connect();
    try {
      const limiter = redisLimiter(redis, createJsonLogger({ write: () => {} }));
      expect(await admitted(limiter, "k", 3, Date.now())).toEqual(["ok", "ok", "ok", 604, 604]);
      await service.stop();
      expect(await admitted(limiter, "down", 2, Date.now())).toEqual(["ok", "ok", 604, 604]);
    } finally {
      redis.disconnect();
      await service.stop();
    }
  });
});

describe("the lint refuses a limiter call whose answer is not awaited (biome.json noFloatingPromises)", () => {
  it("flags `app.limiter.admit(...)` left floating", () => {
    const dir = mkdtempSync(join(process.cwd(), "server", "lint-probe-"));
    try {
      writeFileSync(
        join(dir, "probe.ts"),
        'import type { App } from "../app.js";\n\nexport function probe(app: App): void {\n  app.limiter.admit("ip:x", 1, 1, 1);\n}\n',
      );
      let output = "";
      try {
        execFileSync("node_modules/.bin/biome", ["lint", "--colors=off", join(dir, "probe.ts")], {
          encoding: "utf8",
          stdio: "pipe",
        });
      } catch (error) {
        const failed = error as { stdout: string; stderr: string };
        output = failed.stdout + failed.stderr;
      }
      expect(output).toContain("lint/nursery/noFloatingPromises");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
