/**
 * docs/operations.md#readiness in cluster mode: "`/health/ready` says whether storage (and Redis in
 * cluster mode) answers". A server on PostgreSQL and Redis (test/server/services.ts) is ready
 * while both answer, 503 naming Redis while it is down, and ready again once it is back; `/health`
 * (liveness) answers 200 all along.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer } from "./helpers.js";
import { type PostgresService, type RedisService, servicesMissing, startPostgres, startRedis } from "./services.js";

const skip = servicesMissing({ postgres: true, redis: true });

/** /health/ready until it answers `status` (a bounded wait; no timing is asserted). */
async function readyUntil(server: { url: string }, status: number) {
  let last = await call(server, "GET", "/health/ready");
  for (let i = 0; i < 100 && last.status !== status; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await call(server, "GET", "/health/ready");
  }
  return last;
}

describe.skipIf(skip !== undefined)(`readiness with Redis${skip ? ` (${skip})` : ""}`, () => {
  let postgres: PostgresService;
  let redis: RedisService;
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  });
  afterAll(async () => {
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  it("is ready with PostgreSQL and Redis answering, 503 naming Redis while it is down, ready when it is back", async () => {
    const server = await startTestServer({ database: await postgres.createDatabase(), redis: redis.url });
    try {
      const ready = await call(server, "GET", "/health/ready");
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: "ready",
        storage: { kind: "postgres", state: "ok" },
        redis: { state: "ok" },
      });
      await redis.down();
      const down = await readyUntil(server, 503);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: "not ready", storage: { state: "ok" } });
      expect(["failed", "timed out"]).toContain(down.body.redis.state);
      expect((await call(server, "GET", "/health")).status).toBe(200);
      await redis.up();
      const back = await readyUntil(server, 200);
      expect(back.body).toMatchObject({ status: "ready", redis: { state: "ok" } });
    } finally {
      await server.cleanup();
    }
  });
});
