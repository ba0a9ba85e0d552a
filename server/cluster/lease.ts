/**
 * Bot ownership by lease (docs/scale-out.md "Bots run once"): a bot runs only in the process that
 * holds its lease, a Redis key `spotdesk:bot-lease:<botId>` whose value names the holder and a
 * fencing token (a counter that grows with every acquisition). The holder renews it every third
 * of its time; a process that dies stops renewing, the key expires, and another process takes the
 * bot over (its runner reconciles with the exchange's open orders, docs/bots.md).
 *
 * The holder stops trading before the key can expire: it counts the lease valid until the time it
 * *sent* the last successful renewal plus the lease time minus a fifth (clock-rate drift and the
 * round trip), and the bot's adapter refuses to place orders after that (`fencedAdapter`). So the
 * old holder's last placement is over before a new holder can acquire the key.
 */
import type { Redis } from "ioredis";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { ExchangeError } from "../../lib/errors.js";

const KEY = "spotdesk:bot-lease:";
const FENCE = "spotdesk:bot-fence:";

/** KEYS: lease, fence; ARGV: holder, ms → the fencing token, or 0 when someone holds the lease */
const ACQUIRE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
return token`;
/** KEYS: lease; ARGV: holder:token, ms → 1 renewed, 0 lost */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
/** KEYS: lease; ARGV: holder:token → 1 released */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface Lease {
  botId: string;
  /** the fencing token: a later holder always has a larger one */
  token: number;
  /** local time (performance clock, ms) until which this process may trade for the bot */
  validUntil: number;
}

interface LeaseCommands {
  spotdeskAcquire(lease: string, fence: string, holder: string, ms: number): Promise<number>;
  spotdeskRenew(lease: string, value: string, ms: number): Promise<number>;
  spotdeskRelease(lease: string, value: string): Promise<number>;
}

export class BotLeases {
  private readonly run: LeaseCommands;
  private readonly held = new Map<string, Lease>();

  constructor(
    private readonly redis: Redis,
    /** this process's name (ClusterBus.instanceId) */
    readonly holder: string,
    readonly leaseMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    redis.defineCommand("spotdeskAcquire", { numberOfKeys: 2, lua: ACQUIRE });
    redis.defineCommand("spotdeskRenew", { numberOfKeys: 1, lua: RENEW });
    redis.defineCommand("spotdeskRelease", { numberOfKeys: 1, lua: RELEASE });
    this.run = redis as unknown as LeaseCommands;
  }

  /** the margin kept before the key's own expiry */
  private get margin(): number {
    return Math.ceil(this.leaseMs / 5);
  }

  /** Takes the bot's lease when nobody holds it; the lease, or undefined. */
  async acquire(botId: string): Promise<Lease | undefined> {
    const mine = this.held.get(botId);
    if (mine && this.valid(botId)) return mine;
    const sent = this.clock();
    const token = await this.run.spotdeskAcquire(KEY + botId, FENCE + botId, this.holder, this.leaseMs);
    if (!token) return undefined;
    const lease = { botId, token, validUntil: sent + this.leaseMs - this.margin };
    this.held.set(botId, lease);
    return lease;
  }

  /** Extends a held lease; false when it was lost (expired and taken, or removed). */
  async renew(botId: string): Promise<boolean> {
    const lease = this.held.get(botId);
    if (!lease) return false;
    const sent = this.clock();
    let renewed = false;
    try {
      renewed = (await this.run.spotdeskRenew(KEY + botId, this.value(lease), this.leaseMs)) === 1;
    } catch {
      // Redis out of reach: the lease stays valid only until its deadline
      return this.valid(botId);
    }
    if (!renewed) {
      this.held.delete(botId);
      return false;
    }
    lease.validUntil = sent + this.leaseMs - this.margin;
    return true;
  }

  async release(botId: string): Promise<void> {
    const lease = this.held.get(botId);
    if (!lease) return;
    this.held.delete(botId);
    await this.run.spotdeskRelease(KEY + botId, this.value(lease)).catch(() => undefined);
  }

  /** May this process trade for the bot now? */
  valid(botId: string): boolean {
    const lease = this.held.get(botId);
    return lease !== undefined && this.clock() < lease.validUntil;
  }

  /** The holder named in the bot's lease key (another process), or undefined when none. */
  async holderOf(botId: string): Promise<string | undefined> {
    const value = await this.redis.get(KEY + botId);
    return value ? value.slice(0, value.lastIndexOf(":")) : undefined;
  }

  heldBots(): string[] {
    return [...this.held.keys()];
  }

  private value(lease: Lease): string {
    return `${this.holder}:${lease.token}`;
  }
}

/**
 * The bot's adapter under a lease: orders are placed only while the lease is valid. A refused
 * placement is an error of kind `network` (the runner backs off and places nothing); cancels,
 * reads and look-ups stay allowed, so a holder that lost its lease never leaves a half-done
 * cancel behind.
 */
export function fencedAdapter(adapter: ExchangeAdapter, botId: string, leases: BotLeases): ExchangeAdapter {
  const check = () => {
    if (!leases.valid(botId))
      throw new ExchangeError(adapter.id, "this process no longer holds the bot's lease: it places nothing", {
        kind: "network",
      });
  };
  return new Proxy(adapter, {
    get(target, property, receiver) {
      if (property === "createOrder" || property === "createBatch") {
        const original = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        // a refusal is a rejected promise, as the exchange's own errors are
        return async (...args: unknown[]) => {
          check();
          return original.apply(target, args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
