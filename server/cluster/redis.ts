/**
 * The Redis connections of a server process started with `--redis` (docs/scale-out.md): one for
 * commands (limits, leases, publishing) and one subscribed to the cluster channel (a subscribed
 * connection can issue no other command). A lost connection reconnects with a capped backoff
 * (ioredis subscribes again by itself); meanwhile commands fail at once.
 */
import { Redis } from "ioredis";
import type { Logger } from "../../lib/log.js";

/** The URL without its password, for logs and error messages. */
export function redactRedisUrl(url: string): string {
  return url.replace(/^(\w+:\/\/[^:/@]*):[^@]*@/, "$1:***@");
}

export function connectRedis(url: string, logger: Logger, role: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    // a command while disconnected fails at once (the limits fall back to memory, a lease
    // renewal counts as missed) instead of waiting in a queue behind the reconnection
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    retryStrategy: (times) => Math.min(100 * 2 ** times, 2000),
  });
  let warned = false;
  // an error event without a listener would crash the process: a lost Redis is logged instead
  redis.on("error", (error: Error) => {
    if (warned) return;
    warned = true;
    logger.warn("redis connection failed", { role, url: redactRedisUrl(url), error: error.message });
  });
  redis.on("ready", () => {
    if (warned) logger.info("redis connection back", { role });
    warned = false;
  });
  return redis;
}

/** Connects, or throws an error that names the (redacted) URL. */
export async function openRedis(url: string, logger: Logger, role: string): Promise<Redis> {
  const redis = connectRedis(url, logger, role);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis at ${redactRedisUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
  return redis;
}
