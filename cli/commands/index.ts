import { type Command, Help, type HelpConfiguration, type Option } from "commander";
import { isExchangeId } from "../../lib/types.js";
import { registerAccounts } from "./accounts.js";
import { registerBalances } from "./balances.js";
import { registerBook } from "./book.js";
import { registerBot } from "./bot.js";
import { registerCancel } from "./cancel.js";
import { registerCompletion } from "./completion.js";
import { registerExchanges } from "./exchanges.js";
import { registerOrders } from "./orders.js";
import { registerReport } from "./report.js";
import { registerServer } from "./server.js";
import { registerTrade } from "./trade.js";
import { registerTui } from "./tui.js";

type Register = (program: Command) => void;

/** Every command group, in the order `--help` lists them (docs/product.md#cli-surface). */
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
  registerCompletion,
];

/** The group that declares each top-level command name (`completion` is absent: it needs every command declared). */
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

/** Commands that act on no exchange (their errors carry no exchange of a user's choice). */
const NO_EXCHANGE = new Set(["serve", "users", "exchanges", "completion", "accounts", "report"]);

/**
 * The exchange of a command line for a usage error's `exchange` field (docs/cli.md "Errors"):
 * the -e/--exchange value when it is an exchange id, paper when none is typed.
 */
export function argvExchange(argv: readonly string[]): string | undefined {
  const name = commandName(argv);
  let exchange: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg === "-e" || arg === "--exchange") exchange = argv[++i];
    else if (arg.startsWith("--exchange=")) exchange = arg.slice("--exchange=".length);
  }
  if (exchange === undefined) return name !== undefined && NO_EXCHANGE.has(name) ? undefined : "paper";
  return isExchangeId(exchange) ? exchange : undefined;
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

/** The global options each command reads; a command not listed shows them all (docs/cli.md "Help"). */
const EXCHANGE_CALL = ["--exchange", "--account", "--base-url", "--proxy", "--json"];
const ORDER_CALL = [...EXCHANGE_CALL, "--ws-url"];
const GLOBALS_USED: Record<string, readonly string[]> = {
  exchanges: ["--json"],
  "accounts add": ["--exchange", "--json"],
  "accounts list": ["--json"],
  "accounts set": ["--exchange", "--json"],
  "accounts remove": ["--exchange", "--json"],
  balances: EXCHANGE_CALL,
  orders: EXCHANGE_CALL,
  order: EXCHANGE_CALL,
  buy: ORDER_CALL,
  sell: ORDER_CALL,
  batch: ORDER_CALL,
  cancel: EXCHANGE_CALL,
  "cancel-batch": EXCHANGE_CALL,
  "cancel-all": EXCHANGE_CALL,
  book: ["--exchange", "--base-url", "--ws-url", "--json"],
  tui: ["--exchange", "--account", "--base-url", "--ws-url", "--proxy"],
  serve: ["--json"],
  "users grant-admin": ["--json"],
  completion: [],
};

/** `spotdesk COMMAND --help` lists, under "Global Options", the global options that command reads. */
export const HELP_CONFIGURATION: HelpConfiguration = {
  showGlobalOptions: true,
  visibleGlobalOptions(this: Help, command: Command): Option[] {
    const all = Help.prototype.visibleGlobalOptions.call(this, command).filter((o) => o.long !== "--version");
    const path = command.parent?.parent ? `${command.parent.name()} ${command.name()}` : command.name();
    const used = GLOBALS_USED[path];
    return used === undefined ? all : all.filter((o) => o.long !== undefined && used.includes(o.long));
  },
};
