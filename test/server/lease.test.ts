/**
 * Bot leases on a real redis-server (server/cluster/lease.ts, docs/scale-out.md "Bots run once"):
 * one holder at a time, fencing tokens that grow, a renewal or release by a former holder that
 * changes nothing, and an adapter that refuses to place orders once its holder's lease ran out.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { BotLeases, fencedAdapter } from "../../server/cluster/lease.js";
import { type Service, servicesMissing, startRedis } from "./services.js";

const skip = servicesMissing({ redis: true });

describe.skipIf(skip !== undefined)(`bot leases in Redis${skip ? ` (${skip})` : ""}`, () => {
  let redis: Service;
  const connections: Redis[] = [];
  const connect = () => {
    const c = new Redis(redis.url);
    connections.push(c);
    return c;
  };
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    for (const c of connections) c.disconnect();
    await redis?.stop();
  });

  it("gives a bot's lease to one process at a time, each holder a larger fencing token", async () => {
    const a = new BotLeases(connect(), "process-a", 1000);
    const b = new BotLeases(connect(), "process-b", 1000);
    const [first, second] = await Promise.all([a.acquire("bot-1"), b.acquire("bot-1")]);
    expect([first, second].filter((l) => l !== undefined)).toHaveLength(1);
    const [holder, other] = first ? [a, b] : [b, a];
    const token = (first ?? second)!.token;
    expect(await other.holderOf("bot-1")).toBe(holder.holder);
    expect(await other.renew("bot-1")).toBe(false); // it never held it
    expect(await holder.renew("bot-1")).toBe(true);
    await holder.release("bot-1");
    const next = await other.acquire("bot-1");
    expect(next?.token).toBeGreaterThan(token);
    // the former holder's late release does not free the new holder's lease
    await holder.release("bot-1");
    expect(await holder.holderOf("bot-1")).toBe(other.holder);
  });

  it("lets another process take a lease only once it expired, and the old holder's renewal then fails", async () => {
    const a = new BotLeases(connect(), "process-a", 1000);
    const b = new BotLeases(connect(), "process-b", 1000);
    expect(await a.acquire("bot-2")).toBeDefined();
    expect(await b.acquire("bot-2")).toBeUndefined(); // a holds it (no renewal: a "died")
    await new Promise((r) => setTimeout(r, 1100));
    expect(await b.acquire("bot-2")).toBeDefined();
    expect(await a.renew("bot-2")).toBe(false);
    expect(a.valid("bot-2")).toBe(false);
  });

  it("places orders only while the holder's lease is valid: a fifth of the lease before the key can expire", async () => {
    let now = 0;
    const leases = new BotLeases(connect(), "process-a", 10_000, () => now);
    expect(await leases.acquire("bot-3")).toBeDefined();
    const placed: string[] = [];
    const adapter = {
      id: "paper",
      createOrder: async () => {
        placed.push("create");
        return {} as never;
      },
      createBatch: async () => {
        placed.push("batch");
        return [];
      },
      cancelOrder: async (_pair: string, id: string) => id,
    } as unknown as ExchangeAdapter;
    const fenced = fencedAdapter(adapter, "bot-3", leases);
    await fenced.createOrder({} as never);
    now = 7999;
    await fenced.createBatch("BTC/USDT", []);
    now = 8000; // 10 s lease, 2 s margin: no placement from here on, the key lives until 10 s
    await expect(fenced.createOrder({} as never)).rejects.toThrow("no longer holds the bot's lease");
    await expect(fenced.createBatch("BTC/USDT", [])).rejects.toThrow("no longer holds the bot's lease");
    expect(await fenced.cancelOrder("BTC/USDT", "42")).toBe("42"); // cancels stay allowed
    expect(placed).toEqual(["create", "batch"]);
    expect(await leases.renew("bot-3")).toBe(true); // renewed at "8000": valid until 16000
    await fenced.createOrder({} as never);
    expect(placed).toEqual(["create", "batch", "create"]);
  });
});
