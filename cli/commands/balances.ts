import type { Command } from "commander";
import type { Context } from "../context.js";
import { accountLabel, resolveExchangeId, withExchange } from "../exchange.js";
import { action } from "../run.js";
import { nonZero, printBalances } from "./render.js";

/** `spotdesk balances [--nonzero]`: with --json the Balances map {"BTC":{"f":"1.5","l":"0.5"}} plus "exchange" and "account". */
export function registerBalances(program: Command): void {
  program
    .command("balances")
    .description("balances: Token, Total, Free, Locked (--json: the Balances map)")
    .option("--nonzero", "hide currencies whose free and locked are both zero")
    .action(action(balances));
}

/** The work of `balances`, for commander and for the read path (cli/read.ts). */
export async function balances(ctx: Context, options: { nonzero?: boolean }): Promise<void> {
  const id = await resolveExchangeId(ctx);
  let balances = await withExchange(ctx, (adapter) => adapter.fetchBalances(), id);
  if (options.nonzero) balances = nonZero(balances);
  // docs/orders.md "Which account": "exchange" and "account" beside the (upper-case) tokens,
  // so `jq .BTC.f` still reads the map.
  if (ctx.out.json) return ctx.out.document({ exchange: id, account: accountLabel(ctx, id), ...balances });
  printBalances(ctx.out, balances);
}
