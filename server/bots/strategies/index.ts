/** The runnable strategies by bot type (docs/decisions.md#d21–#d24); the other types are not run (docs/decisions.md#d16). */
import type { z } from "zod";
import { BOT_SCHEMAS, type BotType, formatIssues, NOT_RUN_BOT_TYPES } from "../../../lib/schemas.js";
import { floatingStrategy } from "./floating.js";
import { gridStrategy } from "./grid.js";
import { liquidityArrangerStrategy } from "./liquidity-arranger.js";
import { spreadDecompressionStrategy } from "./spread-decompression.js";
import type { Strategy } from "./types.js";

export type RunnableBotType = "floating-bot" | "grid-bot" | "spread-decompression-bot" | "liquidity-arranger-bot";
export const RUNNABLE_BOT_TYPES: readonly RunnableBotType[] = [
  "floating-bot",
  "grid-bot",
  "spread-decompression-bot",
  "liquidity-arranger-bot",
];

export function isRunnable(type: string): type is RunnableBotType {
  return (RUNNABLE_BOT_TYPES as readonly string[]).includes(type);
}

/** The start of the reason a bot whose stored setup fails validation is stopped with (docs/bots.md "Bounds"). */
export const INVALID_SETUP_REASON = "Not started: its stored setup fails validation";

/** The setup parsed with its type's schema; an Error naming each refused field and its bound otherwise. */
function parseSetup<S extends z.ZodType>(schema: S, setup: unknown): z.output<S> {
  const parsed = schema.safeParse(setup);
  if (!parsed.success)
    throw new Error(
      `${INVALID_SETUP_REASON}: ${formatIssues(parsed.error)
        .map((issue) => `setup.${issue}`)
        .join("; ")}`,
    );
  return parsed.data;
}

/**
 * The strategy of a stored or typed setup. The setup is parsed again with the type's schema (lib/
 * schemas.ts, shared with the web), so defaults apply and a stored row edited by hand (or stored
 * before a bound existed, such as the grid's size) cannot start a bot with a setup the API would
 * refuse: docs/bots.md "Bounds". It quotes post-only unless the setup says `postOnly: false`
 * (docs/bots.md "Post-only quotes").
 */
export function createStrategy(
  type: RunnableBotType,
  setup: unknown,
): { strategy: Strategy<unknown>; pair: string; postOnly: boolean } {
  switch (type) {
    case "floating-bot": {
      const parsed = parseSetup(BOT_SCHEMAS[type], setup);
      return {
        strategy: floatingStrategy(parsed) as Strategy<unknown>,
        pair: parsed.main.pair,
        postOnly: parsed.postOnly !== false,
      };
    }
    case "grid-bot": {
      const parsed = parseSetup(BOT_SCHEMAS[type], setup);
      return {
        strategy: gridStrategy(parsed) as Strategy<unknown>,
        pair: parsed.pair,
        postOnly: parsed.postOnly !== false,
      };
    }
    case "spread-decompression-bot": {
      const parsed = parseSetup(BOT_SCHEMAS[type], setup);
      return {
        strategy: spreadDecompressionStrategy(parsed) as Strategy<unknown>,
        pair: parsed.pair,
        postOnly: parsed.postOnly !== false,
      };
    }
    case "liquidity-arranger-bot": {
      const parsed = parseSetup(BOT_SCHEMAS[type], setup);
      return {
        strategy: liquidityArrangerStrategy(parsed) as Strategy<unknown>,
        pair: parsed.pair,
        postOnly: parsed.postOnly !== false,
      };
    }
  }
}

export function notRun(type: BotType): boolean {
  return NOT_RUN_BOT_TYPES.includes(type);
}

export type { Strategy };
