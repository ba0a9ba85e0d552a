/**
 * The work of `spotdesk bot run` and `spotdesk bot types` (docs/bots.md): the same runner as
 * `serve` (server/bots/runner.ts) in the foreground. A bad config never starts a bot: exit 2
 * naming the field. One runner per bot name, with a state file and a start banner; Ctrl-C (or
 * SIGTERM) cancels the bot's orders, each confirmed, and exits 0, or names those left open and
 * exits non-zero (docs/bots.md#safety-net).
 */
import { appendFileSync } from "node:fs";
import { defaultDataDir, paperPair } from "../exchanges/paper/index.js";
import type { ExchangeAdapter } from "../exchanges/types.js";
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
import {
  DEFAULT_COUNTDOWN_SECONDS,
  DEFAULT_PULL_AFTER_MS,
  describeLeftOpen,
  OrdersLeftOpenError,
} from "../server/bots/safety.js";
import { isRunnable, type RunnableBotType } from "../server/bots/strategies/index.js";
import { takeOwnerLock } from "../server/owner-lock.js";
import { readBatchInput } from "./batch.js";
import {
  type BotFiles,
  botFiles,
  botNameOf,
  ensureBotsDir,
  fingerprintOf,
  readStoredBot,
  writeStoredBot,
} from "./bot-files.js";
import type { BotRunOptions } from "./commands/bot.js";
import { type Context, paperDataDir } from "./context.js";
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

/** "10" → 10 000 ms; whole seconds from `min` to a day. */
function parseSeconds(text: string, flag: string, min: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > 86_400)
    throw bad(`Invalid ${flag} '${text}': expected whole seconds from ${min} to 86400`);
  return value;
}

/** `--log FILE`: every line the run prints, its warnings and what it left open, with the time. */
function openLog(file: string | undefined): (line: string) => void {
  if (file === undefined) return () => {};
  try {
    appendFileSync(file, "", { mode: 0o600 });
  } catch (error) {
    throw new ExchangeError("spotdesk", `Cannot write --log '${file}' (${(error as NodeJS.ErrnoException).code})`, {
      kind: "config",
      cause: error,
    });
  }
  return (line) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // a full disk does not stop the bot
    }
  };
}

interface RunPlan {
  type: RunnableBotType;
  exchange: ExchangeId;
  account: string;
  pair: string;
  setup: unknown;
  decimals: { price: number; amount: number } | undefined;
  name: string;
  fingerprint: string;
  files: BotFiles;
  pullAfterMs: number;
  countdownSeconds: number;
}

/** Everything checked before anything starts: a bad flag or config never starts a bot (exit 2). */
async function planRun(ctx: Context, typeText: string, options: BotRunOptions): Promise<RunPlan> {
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
  const account = ctx.options.account;
  const identity = { exchange, account, type, setup };
  // docs/bots.md#safety-net: a name from the whole setup, account and exchange unless --name is given
  const name = botNameOf(options.name ?? options.id, identity);
  return {
    type,
    exchange,
    account,
    pair,
    setup,
    decimals,
    name,
    fingerprint: fingerprintOf(identity),
    files: botFiles(paperDataDir() ?? defaultDataDir(), name),
    pullAfterMs:
      options.pullAfter !== undefined
        ? parseSeconds(options.pullAfter, "--pull-after", 1) * 1000
        : DEFAULT_PULL_AFTER_MS,
    countdownSeconds:
      options.countdown !== undefined ? parseSeconds(options.countdown, "--countdown", 0) : DEFAULT_COUNTDOWN_SECONDS,
  };
}

/** The start banner (stderr and the log): what runs, where its state is, and how it stops. */
function banner(plan: RunPlan, resumed: string, countdown: string, options: BotRunOptions): string[] {
  return [
    `spotdesk bot run ${plan.type} '${plan.name}' on ${plan.exchange}:${plan.account} ${plan.pair} (pid ${process.pid})`,
    `  state   ${plan.files.state} (${resumed})`,
    `  safety  quotes pulled after ${plan.pullAfterMs / 1000} s without a live book; ${countdown}`,
    `  stop    Ctrl-C ${options.keepOrders ? "leaves its orders resting (--keep-orders)" : "cancels its orders, naming any left open"}`,
    ...(options.log !== undefined ? [`  log     ${options.log}`] : []),
  ];
}

function countdownText(adapter: ExchangeAdapter, seconds: number): string {
  if (seconds === 0) return "no exchange countdown (--countdown 0)";
  if (!adapter.cancelAllAfter || !adapter.countdown) return `${adapter.id} has no exchange-side countdown`;
  const armed = Math.min(adapter.countdown.maxSeconds, Math.max(adapter.countdown.minSeconds, seconds));
  return `${adapter.id} cancels them ${armed} s after this process stops renewing its countdown`;
}

export async function runBot(ctx: Context, typeText: string, options: BotRunOptions): Promise<void> {
  const plan = await planRun(ctx, typeText, options);
  const log = openLog(options.log);
  ensureBotsDir(plan.files);
  // docs/bots.md#safety-net: one runner per bot name; a second one stops here, naming the first
  const lock = takeOwnerLock(
    plan.files.lock,
    `spotdesk bot run ${plan.type} '${plan.name}'`,
    "one runner per bot; stop that one first, or give another --name",
  );
  try {
    await runLocked(ctx, plan, options, log);
  } finally {
    lock.release();
  }
}

async function runLocked(ctx: Context, plan: RunPlan, options: BotRunOptions, log: (line: string) => void) {
  const stored = readStoredBot(plan.files.state, plan.fingerprint);
  const resumed =
    stored === undefined
      ? "new"
      : stored === "other"
        ? "written by another setup under this name: not resumed; its own orders are adopted by their tag"
        : `resumed from ${stored.savedAt}`;
  // docs/bots.md "Risk limits and the kill switch": a bot a limit stopped stays stopped until a person resumes it
  const previous = stored !== undefined && stored !== "other" ? stored.state : undefined;
  const halted = previous?.halted as { reason: string } | undefined;
  if (halted && !options.resume)
    throw new ExchangeError(
      "spotdesk",
      `Bot ${plan.name} is stopped: ${halted.reason}. Run it again with --resume to start it anyway`,
      { kind: "bad-input" },
    );
  const { readStatus, writeStatus, STATUS_FILLS } = await import("./bot-status.js");
  const { resumedRunnerMemory } = await import("../server/bots/money.js");
  const adapter = await openExchange(ctx, plan.exchange);
  const feed = await openBookFeed(ctx, plan.exchange, plan.pair);
  // the handlers come before the banner: Ctrl-C right after it still stops cleanly; a risk limit
  // ends the run with its reason
  let stopNow: (reason?: string) => void = () => {};
  const stopped = new Promise<string | undefined>((resolve) => {
    const signal = () => stopNow();
    stopNow = (reason) => {
      process.off("SIGINT", signal);
      process.off("SIGTERM", signal);
      resolve(reason);
    };
    process.once("SIGINT", signal);
    process.once("SIGTERM", signal);
  });
  for (const text of banner(plan, resumed, countdownText(adapter, plan.countdownSeconds), options)) {
    process.stderr.write(`${text}\n`);
    log(text);
  }
  const botId = plan.name;
  const print = (state: BotState) => {
    const { runner: _memory, ...shown } = state;
    process.stdout.write(
      ctx.out.json ? `${JSON.stringify({ botId, botType: plan.type, ...shown })}\n` : `${line(state)}\n`,
    );
    log(line(state));
  };
  // `spotdesk bot status` reads what this run did (docs/bots.md "What each bot did")
  let fills = readStatus(botId)?.fills ?? [];
  const status = { botId, botType: plan.type, exchange: plan.exchange, account: plan.account, pair: plan.pair };
  const save = (state: BotState, running = true) => {
    try {
      writeStoredBot(plan.files.state, {
        name: plan.name,
        botType: plan.type,
        exchange: plan.exchange,
        account: plan.account,
        pair: plan.pair,
        fingerprint: plan.fingerprint,
        setup: plan.setup,
        savedAt: new Date().toISOString(),
        state,
      });
    } catch (error) {
      log(`state not saved: ${(error as Error).message}`);
    }
    const { runner: _memory, ...shown } = state;
    fills = [...fills, ...runner.drainFills()].slice(-STATUS_FILLS);
    try {
      const money = (state.runner as { money?: unknown } | undefined)?.money;
      writeStatus({ ...status, ...(running ? { pid: process.pid } : {}), state: shown, fills, money });
    } catch (error) {
      log(`bot status not saved: ${(error as Error).message}`);
    }
  };
  // a resume lifts the halt and counts the limits from here; the ledger goes on
  const state =
    previous && halted && options.resume
      ? (() => {
          const { halted: _halted, ...rest } = previous;
          return { ...rest, runner: resumedRunnerMemory(previous.runner, previous.pnl) } as BotState;
        })()
      : previous;
  const runner = new BotRunner({
    botId,
    type: plan.type,
    setup: plan.setup,
    exchange: plan.exchange,
    adapter,
    feed,
    ...(plan.decimals ? { decimals: plan.decimals } : {}),
    ...(state !== undefined ? { state } : {}),
    account: `${plan.exchange}:${plan.account}`,
    now: ctx.now,
    pullAfterMs: plan.pullAfterMs,
    countdownSeconds: plan.countdownSeconds,
    logger: { warn: (message, fields) => log(`${message}${fields ? ` ${JSON.stringify(fields)}` : ""}`) },
    onState: (state, published) => {
      save(state, !runner.halt);
      if (published) print(state);
    },
    onHalt: (halt) => stopNow(halt.reason),
  });
  feed.start();
  runner.start();
  const haltReason = await stopped;
  try {
    // a halt has cancelled the orders already (each confirmed)
    if (haltReason === undefined) await stopRun(runner, options, log);
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

/**
 * Ctrl-C: the orders are cancelled, each confirmed (docs/bots.md#safety-net); those that could not
 * be are named on stderr and in the log, and the run exits non-zero. --keep-orders leaves them.
 */
async function stopRun(runner: BotRunner, options: BotRunOptions, log: (line: string) => void): Promise<void> {
  if (options.keepOrders) {
    await runner.stop();
    const kept = runner.openOrders;
    const text = `stopped; ${kept.length} order${kept.length === 1 ? "" : "s"} left resting (--keep-orders)${kept.map((o) => `\n  ${o.id} ${o.side} ${o.amount} @ ${o.price}`).join("")}`;
    process.stderr.write(`${text}\n`);
    log(text);
    return;
  }
  try {
    // cancelled, each confirmed, and their last fills booked
    await runner.closeOut();
  } catch (error) {
    if (error instanceof OrdersLeftOpenError) {
      for (const order of error.orders) {
        const text = `left open: ${describeLeftOpen(order)}`;
        process.stderr.write(`${text}\n`);
        log(text);
      }
    }
    log(`stop failed: ${(error as Error).message}`);
    throw error;
  }
}
