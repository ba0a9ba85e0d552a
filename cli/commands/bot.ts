import type { Command } from "commander";
import { action } from "../run.js";

export interface BotRunOptions {
  pair: string;
  config?: string;
  name?: string;
  /** the older spelling of --name */
  id?: string;
  decimals?: string;
  keepOrders?: boolean;
  log?: string;
  pullAfter?: string;
  countdown?: string;
  resume?: boolean;
}

/**
 * `spotdesk bot run TYPE --pair PAIR [--config FILE|-]` runs one bot in the foreground on
 * --exchange/--account (docs/bots.md); `spotdesk bot types` lists the types and their parameters.
 */
export function registerBot(program: Command): void {
  const bot = program.command("bot").description("run a liquidity bot in the foreground, list bot types");
  bot
    .command("types")
    .description("bot types, their parameters, and whether they run (--json: an array)")
    .action(
      action(async (ctx) => {
        (await import("../bot-run.js")).printBotTypes(ctx);
      }),
    );
  bot
    .command("run")
    .description(
      "run a bot until Ctrl-C, which cancels its orders (naming any left open, exit non-zero); prints each state change (--json: one object a line)",
    )
    .argument("<type>", "floating-bot, grid-bot, spread-decompression-bot or liquidity-arranger-bot")
    .requiredOption("--pair <pair>", "trading pair, e.g. BTC/USDT")
    .option("--config <file>", "the setup as JSON, as the dashboard sends it; '-' reads stdin")
    .option(
      "--name <name>",
      "the bot's name: its id in client order ids, its state file and lock (default: derived from exchange, account, type and the whole setup)",
    )
    .option("--id <id>", "the older spelling of --name")
    .option("--decimals <price,amount>", "the pair's decimals (paper knows its own; else read from the book)")
    .option("--keep-orders", "Ctrl-C leaves the orders resting for a quick restart instead of cancelling them")
    .option("--log <file>", "append every line, warning and order left open to FILE, with the time")
    .option("--pull-after <seconds>", "cancel its orders after this long without a live book (default 10)")
    .option(
      "--countdown <seconds>",
      "the exchange-side cancel-all-after countdown, where the exchange has one (default 60; 0: none)",
    )
    .option("--resume", "start a bot that a risk limit or `bot stop` stopped (its limits count from here)")
    .action(
      action(async (ctx, type: string, options: BotRunOptions) => {
        await (await import("../bot-run.js")).runBot(ctx, type, options);
      }),
    );
  bot
    .command("status")
    .description(
      "the foreground bots of this machine: status, fills, inventory, PnL, fees; NAME (a bot id) adds its fills (--json: the files' content)",
    )
    .argument("[name]", "a bot id, as `bot run` printed it")
    .action(
      action(async (ctx, name: string | undefined) => {
        (await import("../bot-status.js")).printStatus(ctx, name);
      }),
    );
  bot
    .command("stop")
    .description("stop running foreground bots: each cancels its orders (each confirmed) and exits")
    .argument("[name]", "a bot id")
    .option("--all", "every running foreground bot of this machine")
    .action(
      action(async (ctx, name: string | undefined, options: { all?: boolean }) => {
        await (await import("../bot-status.js")).stopBots(ctx, name, options.all === true);
      }),
    );
}
