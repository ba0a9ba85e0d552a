/**
 * Client order ids of bot orders (docs/decisions.md#d11, #d25, docs/bots.md "The runner"): hexadecimal,
 * tag (8) + slot (4) + generation (6) + random hex, shaped to the exchange's documented rule, so a
 * restarted runner recognises its own open orders and adopts them instead of placing them again.
 */
import { createHash } from "node:crypto";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { randomHex } from "../../lib/random.js";
import { isExchangeId } from "../../lib/types.js";

export interface ClientIdRule {
  prefix?: string;
  length: number;
}

/**
 * The exchange's rule as its adapter applies it, from its info.ts (gate: "t-" and 30 in all; xt:
 * 22; the rest: 32); an id the catalogue does not know gets the common 32.
 */
export function clientIdRule(exchange: string): ClientIdRule {
  const rule = isExchangeId(exchange) ? CATALOGUE[exchange].clientOrderId : {};
  return { ...(rule.prefix ? { prefix: rule.prefix } : {}), length: rule.length ?? 32 };
}

/** The 8 hex characters that mark a bot's orders. */
export function botTag(botId: string): string {
  return createHash("sha256").update(botId).digest("hex").slice(0, 8);
}

export const MAX_SLOT = 0xffff;
const GENERATIONS = 0x1000000;

export function botClientOrderId(tag: string, slot: number, generation: number, rule: ClientIdRule): string {
  if (!Number.isInteger(slot) || slot < 0 || slot > MAX_SLOT) throw new Error(`Bot slot ${slot} is out of range`);
  const prefix = rule.prefix ?? "";
  const head = `${tag}${slot.toString(16).padStart(4, "0")}${(generation % GENERATIONS).toString(16).padStart(6, "0")}`;
  const rest = rule.length - prefix.length - head.length;
  if (rest < 4) throw new Error(`Client order id rule leaves too few characters (${rest})`);
  return prefix + head + randomHex(Math.ceil(rest / 2)).slice(0, rest);
}

/** Reads tag, slot and generation back; undefined for an id that is not a bot's. */
export function parseBotClientOrderId(
  id: string,
  rule: ClientIdRule,
): { tag: string; slot: number; generation: number } | undefined {
  const prefix = rule.prefix ?? "";
  if (!id.startsWith(prefix)) return undefined;
  const body = id.slice(prefix.length);
  if (body.length < 22 || !/^[0-9a-f]+$/.test(body)) return undefined;
  return {
    tag: body.slice(0, 8),
    slot: Number.parseInt(body.slice(8, 12), 16),
    generation: Number.parseInt(body.slice(12, 18), 16),
  };
}
