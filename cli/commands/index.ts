import type { Command } from "commander";
import { registerAccounts } from "./accounts.js";
import { registerBalances } from "./balances.js";
import { registerBook } from "./book.js";
import { registerBot } from "./bot.js";
import { registerCancel } from "./cancel.js";
import { registerExchanges } from "./exchanges.js";
import { registerOrders } from "./orders.js";
import { registerReport } from "./report.js";
import { registerServer } from "./server.js";
import { registerTrade } from "./trade.js";
import { registerTui } from "./tui.js";

type Register = (program: Command) => void;

/** Every command group, in the order `--help` lists them (PRODUCT "The CLI surface"). */
export const ALL_COMMANDS: readonly Register[] = [
  registerExchanges,
  registerAccounts,
  registerBalances,
  registerOrders,
  registerTrade,
  registerCancel,
  registerBook,
  registerReport,
  registerTui,
  registerServer,
  registerBot,
];

/** The group that declares each top-level command name. */
const GROUP_OF: Record<string, Register> = {
  exchanges: registerExchanges,
  accounts: registerAccounts,
  balances: registerBalances,
  orders: registerOrders,
  order: registerOrders,
  buy: registerTrade,
  sell: registerTrade,
  batch: registerTrade,
  cancel: registerCancel,
  "cancel-batch": registerCancel,
  "cancel-all": registerCancel,
  book: registerBook,
  report: registerReport,
  tui: registerTui,
  serve: registerServer,
  users: registerServer,
  bot: registerBot,
};

/** Global options that take a value (the value is not the command name). */
const VALUE_OPTIONS = new Set(["-e", "--exchange", "-a", "--account", "--base-url", "--ws-url", "--proxy"]);

/** The command name in argv (after the global options), or undefined when there is none. */
export function commandName(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return argv[i + 1];
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/**
 * Declares the commands. Declaring twenty commands with commander costs a few milliseconds of
 * cold start, so a run that names a known command declares only that command's group; help, an
 * unknown command or none at all declare everything (so help and suggestions stay complete).
 */
export function registerCommands(program: Command, argv: readonly string[]): void {
  const name = commandName(argv);
  const group = name === undefined ? undefined : GROUP_OF[name];
  const wantsHelp = argv.includes("-h") || argv.includes("--help");
  if (group && !wantsHelp) group(program);
  else for (const register of ALL_COMMANDS) register(program);
}
