/**
 * The foreground bots of this machine (docs/bots.md "What each bot did", "Risk limits and the kill
 * switch"): `spotdesk bot run` keeps `<data dir>/bots/<name>.status.json` with its state, PnL, last fills
 * and process id; `spotdesk bot status [NAME]` reads them, `spotdesk bot stop --all|NAME` asks each
 * running one to stop (SIGTERM: it cancels its orders, each confirmed, and exits). A bot stopped by
 * a risk limit stays stopped: `bot run` refuses it until `--resume`.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultDataDir } from "../exchanges/paper/index.js";
import { ExchangeError } from "../lib/errors.js";
import type { BotFill } from "../server/bots/fills.js";
import type { BotState } from "../server/bots/runner.js";
import type { Context } from "./context.js";
import { paperDataDir } from "./context.js";
import { formatTable } from "./output.js";

/** The last fills kept in a status file (all of them are in its ledger). */
export const STATUS_FILLS = 200;

export interface BotStatusFile {
  botId: string;
  botType: string;
  exchange: string;
  account: string;
  pair: string;
  /** the process running it; absent once it stopped */
  pid?: number;
  state: Omit<BotState, "runner">;
  /** the newest last */
  fills: BotFill[];
  /** the runner's money memory (ledger, fills booked): the next run of the same bot goes on from it */
  money?: unknown;
}

export function botsDir(): string {
  return join(paperDataDir() ?? defaultDataDir(), "bots");
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,100}$/;
const STATUS_SUFFIX = ".status.json";

function fileOf(botId: string): string {
  if (!SAFE_ID.test(botId))
    throw new ExchangeError("spotdesk", `Invalid bot name '${botId}': letters, digits, '.', '_' or '-'`, {
      kind: "bad-input",
    });
  // beside the runner's own state file `<name>.json` and its lock (cli/bot-files.ts)
  return join(botsDir(), `${botId}${STATUS_SUFFIX}`);
}

export function readStatus(botId: string): BotStatusFile | undefined {
  try {
    return JSON.parse(readFileSync(fileOf(botId), "utf8")) as BotStatusFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (error instanceof ExchangeError) throw error;
    return undefined; // a torn or foreign file: shown as absent
  }
}

export function writeStatus(status: BotStatusFile): void {
  mkdirSync(botsDir(), { recursive: true });
  const file = fileOf(status.botId);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(status), { mode: 0o600 });
  renameSync(temp, file);
}

export function listStatuses(): BotStatusFile[] {
  let names: string[];
  try {
    names = readdirSync(botsDir()).filter((n) => n.endsWith(STATUS_SUFFIX));
  } catch {
    return [];
  }
  return names
    .map((n) => readStatus(n.slice(0, -STATUS_SUFFIX.length)))
    .filter((s): s is BotStatusFile => s !== undefined)
    .sort((a, b) => a.botId.localeCompare(b.botId));
}

/** Whether the process that wrote the file still runs it. */
export function isRunning(status: BotStatusFile): boolean {
  if (status.pid === undefined) return false;
  try {
    process.kill(status.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function row(s: BotStatusFile): string[] {
  const pnl = s.state.pnl as { fills?: number; inventory?: string; pnl?: string; feesInQuote?: string } | undefined;
  const status = isRunning(s) ? String(s.state.status) : "stopped";
  return [
    s.botId,
    s.botType,
    `${s.exchange}/${s.account}`,
    s.pair,
    status,
    String(pnl?.fills ?? 0),
    pnl?.inventory ?? "0",
    pnl?.pnl ?? "0",
    pnl?.feesInQuote ?? "0",
    typeof s.state.reason === "string" ? s.state.reason : "",
  ];
}

/** `spotdesk bot status [NAME]`: every foreground bot, or one with its fills. */
export function printStatus(ctx: Context, name: string | undefined): void {
  const all = listStatuses();
  const chosen = name === undefined ? all : all.filter((s) => s.botId === name);
  if (name !== undefined && chosen.length === 0)
    throw new ExchangeError("spotdesk", `No bot '${name}' in ${botsDir()} (see \`spotdesk bot status\`)`, {
      kind: "bad-input",
    });
  const shown = chosen.map((s) => ({ ...s, running: isRunning(s) }));
  if (ctx.out.json) {
    ctx.out.document(name === undefined ? shown : shown[0]);
    return;
  }
  if (shown.length === 0) {
    ctx.out.text(`No foreground bots (${botsDir()})`);
    return;
  }
  const headers = ["BOT", "TYPE", "ACCOUNT", "PAIR", "STATUS", "FILLS", "INVENTORY", "PNL", "FEES", "REASON"];
  const align = ["left", "left", "left", "left", "left", "right", "right", "right", "right", "left"] as const;
  process.stdout.write(formatTable(headers, shown.map(row), align, ctx.out.color));
  if (name === undefined) return;
  const fills = [...shown[0]!.fills].reverse();
  process.stdout.write(
    formatTable(
      ["TIME", "ORDER", "SIDE", "PRICE", "AMOUNT", "FEE", "LIQUIDITY"],
      fills.map((f) => [
        new Date(f.at).toISOString().slice(0, 19).replace("T", " "),
        f.orderId,
        f.side,
        f.price,
        f.amount,
        `${f.fee} ${f.feeCurrency}`,
        f.liquidity,
      ]),
      ["left", "left", "left", "right", "right", "right", "left"],
      ctx.out.color,
    ),
  );
}

/** `spotdesk bot stop --all|NAME`: each running foreground bot cancels its orders and exits; waits for them. */
export async function stopBots(
  ctx: Context,
  name: string | undefined,
  all: boolean,
  timeoutMs = 30_000,
): Promise<void> {
  if (!all && name === undefined)
    throw new ExchangeError("spotdesk", "Name the bot to stop, or give --all", { kind: "bad-input" });
  const chosen = listStatuses().filter((s) => (all || s.botId === name) && isRunning(s));
  if (!all && chosen.length === 0)
    throw new ExchangeError("spotdesk", `No running bot '${name}' (see \`spotdesk bot status\`)`, {
      kind: "bad-input",
    });
  for (const s of chosen) process.kill(s.pid!, "SIGTERM");
  const deadline = Date.now() + timeoutMs;
  let left = chosen;
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = left.filter((s) => {
      const now = readStatus(s.botId);
      return now !== undefined && now.pid !== undefined && isRunning(now);
    });
  }
  const stopped = chosen.filter((s) => !left.includes(s)).map((s) => s.botId);
  ctx.out.sent(`stopped ${stopped.length} bot(s)`);
  if (left.length > 0)
    throw new ExchangeError(
      "spotdesk",
      `Not stopped within ${timeoutMs / 1000} s: ${left.map((s) => s.botId).join(", ")} (their orders may still rest)`,
      { kind: "network" },
    );
  if (ctx.out.json) {
    ctx.out.document({ stopped });
    return;
  }
  ctx.out.text(
    stopped.length === 0 ? "No running foreground bots" : `Stopped (orders cancelled): ${stopped.join(", ")}`,
  );
}
