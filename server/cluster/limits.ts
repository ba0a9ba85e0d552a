/**
 * The call limits shared by every server process (docs/decisions.md#d8 604, docs/server-limits.md,
 * docs/scale-out.md): each key is a Redis sorted set of its calls' times, trimmed and counted in
 * one Lua script, so the check and the record are atomic across processes. The same sliding
 * window as the in-process RateLimiter (server/app.ts): a call leaves the window `windowMs` after
 * it was made.
 *
 * While Redis cannot be reached the limits fall back to this process's memory (logged once), so
 * the server keeps answering with per-process limits instead of failing every call.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { API_ERROR } from "../../lib/api.js";
import type { Logger } from "../../lib/log.js";
import { type CallLimiter, memoryLimiter } from "../app.js";
import { ApiError } from "../errors.js";

const PREFIX = "spotdesk:limit:";

/** mode 0 count, 1 take (refuse at the limit), 2 record; answers the count after, or -1 refused */
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local mode = ARGV[4]
if mode == '0' then return n end
if mode == '1' and n >= tonumber(ARGV[3]) then return -1 end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], window)
return n + 1`;

export function redisLimiter(redis: Redis, logger: Logger): CallLimiter {
  redis.defineCommand("spotdeskLimit", { numberOfKeys: 1, lua: SCRIPT });
  const run = redis as unknown as {
    spotdeskLimit(
      key: string,
      now: number,
      window: number,
      limit: number,
      mode: string,
      member: string,
    ): Promise<number>;
  };
  // members must differ for calls in the same millisecond
  let sequence = 0;
  const prefix = randomBytes(4).toString("hex");
  const member = (now: number) => `${now}:${prefix}:${++sequence}`;
  const local = memoryLimiter();
  let degraded = false;
  const shared = async <T>(work: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      if (degraded) logger.info("limits shared through redis again", {});
      degraded = false;
      return result;
    } catch (error) {
      if (!degraded) logger.warn("redis unreachable: limits kept per process meanwhile", { error: String(error) });
      degraded = true;
      return fallback();
    }
  };
  return {
    admit: async (key, limit, windowMs, now) => {
      const refused = await shared(
        async () => (await run.spotdeskLimit(PREFIX + key, now, windowMs, limit, "1", member(now))) < 0,
        () => local.admit(key, limit, windowMs, now).then(() => false),
      );
      if (refused) throw new ApiError(API_ERROR.RATE_LIMIT);
    },
    count: (key, windowMs, now) =>
      shared(
        () => run.spotdeskLimit(PREFIX + key, now, windowMs, 0, "0", ""),
        () => local.count(key, windowMs, now),
      ),
    record: (key, windowMs, now) =>
      shared(
        async () => {
          await run.spotdeskLimit(PREFIX + key, now, windowMs, 0, "2", member(now));
        },
        () => local.record(key, windowMs, now),
      ),
  };
}
