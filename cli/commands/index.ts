import type { Command } from "commander";
import { registerAccounts } from "./accounts.js";
import { registerBalances } from "./balances.js";
import { registerBook } from "./book.js";
import { registerCancel } from "./cancel.js";
import { registerExchanges } from "./exchanges.js";
import { registerOrders } from "./orders.js";
import { registerServer } from "./server.js";
import { registerTrade } from "./trade.js";
import { registerTui } from "./tui.js";

/** Every command group, in the order `--help` lists them (PRODUCT "The CLI surface"). */
export const ALL_COMMANDS: readonly ((program: Command) => void)[] = [
  registerExchanges,
  registerAccounts,
  registerBalances,
  registerOrders,
  registerTrade,
  registerCancel,
  registerBook,
  registerTui,
  registerServer,
];
