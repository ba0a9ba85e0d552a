/**
 * The work of `spotdesk bot run` and `spotdesk bot types` (docs/bots.md): the same runner as
 * `serve` (server/bots/runner.ts) in the foreground. A bad config never starts a bot: exit 2
 * naming the field. Ctrl-C (or SIGTERM) cancels the bot's orders, each confirmed, and exits 0.
 */
import { createHash } from "node:crypto";
import { paperPair } from "../exchanges/paper/index.js";
import { ExchangeError } from "../lib/errors.js";
import { normalizePair } from "../lib/pair.js";
import {
  BOT_SCHEMAS,
  BOT_TYPES,
  type BotType,
  botLimitsSchema,
  FLOATING_MODULE_PARAMS,
  formatIssues,
  NOT_RUN_BOT_TYPES,
  WASH_TRADING_REASON,
} from "../lib/schemas.js";
import type { ExchangeId } from "../lib/types.js";
import { BotRunner, type BotState } from "../server/bots/runner.js";
import { isRunnable } from "../server/bots/strategies/index.js";
import { readBatchInput } from "./batch.js";
import type { BotRunOptions } from "./commands/bot.js";
import type { Context } from "./context.js";
import { openBookFeed, openExchange, resolveExchangeId } from "./exchange.js";
import { formatTable } from "./output.js";

const bad = (message: string) => new ExchangeError("spotdesk", message, { kind: "bad-input" });

/** The parameters of each type, from its schema (docs/api.md#calls payloads); `limits` by its fields (docs/bots.md "Risk limits and the kill switch"). */
function parametersOf(type: BotType): string[] {
  const shape = (BOT_SCHEMAS[type] as unknown as { shape: Record<string, { shape?: Record<string, unknown> }> }).shape;
  const limits = shape.limits ? Object.keys(botLimitsSchema.shape).map((k) => `limits.${k}`) : [];
  if (type === "floating-bot") {
    const main = Object.keys(shape.main?.shape ?? {}).map((k) => `main.${k}`);
    const modules = Object.entries(FLOATING_MODULE_PARAMS).map(([m, params]) => `modules.${m}{${params.join(",")}}`);
    return [...main, ...modules, ...limits];
  }
  return [...Object.keys(shape).filter((k) => k !== "limits"), ...limits];
}

export function printBotTypes(ctx: Context): void {
  const types = BOT_TYPES.map((type) => ({
    type,
    runs: !NOT_RUN_BOT_TYPES.includes(type),
    parameters: parametersOf(type),
    ...(NOT_RUN_BOT_TYPES.includes(type) ? { reason: WASH_TRADING_REASON } : {}),
  }));
  if (ctx.out.json) {
    ctx.out.document(types);
    return;
  }
  const rows = types.map((t) => [t.type, t.runs ? "yes" : "not run", t.parameters.join(" ")]);
  process.stdout.write(formatTable(["TYPE", "RUNS", "PARAMETERS"], rows, ["left", "left", "left"], ctx.out.color));
}

/** "2,6" → {price: 2, amount: 6}. */
function parseDecimals(text: string): { price: number; amount: number } {
  const match = /^\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$/.exec(text);
  if (!match) throw bad(`Invalid --decimals '${text}': write PRICE,AMOUNT, for example 2,6`);
  return { price: Number(match[1]), amount: Number(match[2]) };
}

/** The setup from --config (or {}), its pair set from --pair, validated with the web's schema. */
export async function readSetup(type: BotType, pair: string, file: string | undefined): Promise<unknown> {
  let config: unknown = {};
  if (file !== undefined) {
    const text = await readBatchInput(file);
    try {
      config = JSON.parse(text);
    } catch {
      throw bad(`Invalid --config: not JSON (${file === "-" ? "stdin" : file})`);
    }
  }
  if (typeof config !== "object" || config === null || Array.isArray(config))
    throw bad("Invalid --config: expected a JSON object");
  const withPair = (target: Record<string, unknown>) => {
    if (target.pair !== undefined && typeof target.pair === "string" && normalizePair(target.pair) !== pair)
      throw bad(`Invalid config: pair '${target.pair}' differs from --pair ${pair}`);
    return { ...target, pair };
  };
  const object = config as Record<string, unknown>;
  const setup =
    type === "floating-bot"
      ? { ...object, main: withPair((object.main ?? {}) as Record<string, unknown>) }
      : withPair(object);
  const parsed = BOT_SCHEMAS[type].safeParse(setup);
  if (!parsed.success) throw bad(`Invalid config: ${formatIssues(parsed.error).join("; ")}`);
  return parsed.data;
}

function line(state: BotState): string {
  const time = new Date(state.updatedAt).toISOString().slice(11, 19);
  const parts: string[] = [time, state.status];
  const order = state.order as { side: string; price: string; amount: string } | null | undefined;
  if (order !== undefined) parts.push(order ? `order ${order.side} ${order.amount} @ ${order.price}` : "order none");
  if (typeof state.onBuy === "number") parts.push(`onBuy ${state.onBuy} onSell ${state.onSell}`);
  const orders = state.orders as unknown[] | undefined;
  if (orders) parts.push(`orders ${orders.length}`);
  if (state.reason) parts.push(`(${state.reason})`);
  if (state.note) parts.push(`note: ${state.note}`);
  if (state.lastError && state.status === "backing-off") parts.push(`error: ${state.lastError}`);
  return parts.join("  ");
}

export async function runBot(ctx: Context, typeText: string, options: BotRunOptions): Promise<void> {
  if (!(BOT_TYPES as readonly string[]).includes(typeText))
    throw bad(`Unknown bot type '${typeText}'. Types: ${BOT_TYPES.join(", ")}`);
  const type = typeText as BotType;
  if (!isRunnable(type))
    throw new ExchangeError("spotdesk", `${type}: ${WASH_TRADING_REASON}`, { kind: "unsupported" });
  const exchange: ExchangeId = await resolveExchangeId(ctx);
  const pair = normalizePair(options.pair, exchange);
  const setup = await readSetup(type, pair, options.config);
  let decimals = options.decimals !== undefined ? parseDecimals(options.decimals) : undefined;
  if (!decimals && exchange === "paper") {
    const spec = paperPair(pair);
    decimals = { price: spec.priceDecimals, amount: spec.amountDecimals };
  }
  // a stable id: the same command started again adopts the orders the previous run left (docs/decisions.md#d25)
  const botId =
    options.id ??
    `cli-${createHash("sha256").update(`${exchange}\n${ctx.options.account}\n${type}\n${pair}`).digest("hex").slice(0, 16)}`;
  // docs/bots.md "Risk limits and the kill switch": a bot a limit stopped stays stopped until a person resumes it
  const { readStatus, writeStatus, STATUS_FILLS } = await import("./bot-status.js");
  const previous = readStatus(botId);
  const halted = previous?.state.halted as { reason: string } | undefined;
  if (halted && !options.resume)
    throw bad(`Bot ${botId} is stopped: ${halted.reason}. Run it again with --resume to start it anyway`);
  const adapter = await openExchange(ctx, exchange);
  const feed = await openBookFeed(ctx, exchange, pair);
  const status = {
    botId,
    botType: type,
    exchange,
    account: ctx.options.account,
    pair,
    fills: previous?.fills ?? [],
  };
  let fills = status.fills;
  const save = (state: BotState, running: boolean) => {
    const { runner: _memory, ...shown } = state;
    fills = [...fills, ...runner.drainFills()].slice(-STATUS_FILLS);
    try {
      const money = (state.runner as { money?: unknown } | undefined)?.money;
      writeStatus({ ...status, ...(running ? { pid: process.pid } : {}), state: shown, fills, money });
    } catch (error) {
      ctx.out.note(`bot status not saved: ${(error as Error).message}`);
    }
  };
  const print = (state: BotState) => {
    const { runner: _memory, ...shown } = state;
    process.stdout.write(ctx.out.json ? `${JSON.stringify({ botId, botType: type, ...shown })}\n` : `${line(state)}\n`);
  };
  // the previous run's ledger goes on (the strategy starts afresh); a resume lifts the halt and
  // counts the limits from here
  const { resumedRunnerMemory } = await import("../server/bots/money.js");
  const { halted: _halted, ...previousState } = previous?.state ?? {};
  const memory = { money: previous?.money };
  const stored = previous
    ? {
        ...previousState,
        ...(halted && !options.resume ? { halted } : {}),
        runner: options.resume ? resumedRunnerMemory(memory, previous.state.pnl) : memory,
      }
    : undefined;
  const runner = new BotRunner({
    botId,
    type,
    setup,
    exchange,
    adapter,
    feed,
    ...(decimals ? { decimals } : {}),
    account: `${exchange}:${ctx.options.account}`,
    now: ctx.now,
    ...(stored ? { state: stored } : {}),
    onState: (state, published) => {
      save(state, !runner.halt);
      if (published) print(state);
    },
    onHalt: (halt) => stopNow(halt.reason),
  });
  let stopNow: (reason?: string) => void = () => {};
  feed.start();
  runner.start();
  const haltReason = await new Promise<string | undefined>((resolve) => {
    stopNow = (reason) => {
      process.off("SIGINT", signal);
      process.off("SIGTERM", signal);
      resolve(reason);
    };
    const signal = () => stopNow();
    process.once("SIGINT", signal);
    process.once("SIGTERM", signal);
  });
  try {
    if (haltReason === undefined) await runner.closeOut();
  } finally {
    feed.stop();
    await adapter.close();
    save(runner.state(), false);
  }
  if (haltReason !== undefined)
    throw new ExchangeError("spotdesk", `${haltReason} (its orders were cancelled; --resume starts it again)`, {
      kind: "bad-input",
    });
}
