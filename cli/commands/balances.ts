import type { Command } from "commander";
import { withExchange } from "../exchange.js";
import { action } from "../run.js";

/** `spotdesk balances [--nonzero]`: the Balances map, {"BTC":{"f":"1.5","l":"0.5"}} with --json. */
export function registerBalances(program: Command): void {
  program
    .command("balances")
    .description("balances: Token, Total, Free, Locked (--json: the Balances map)")
    .option("--nonzero", "hide currencies whose free and locked are both zero")
    .action(
      action(async (ctx, options: { nonzero?: boolean }) => {
        let balances = await withExchange(ctx, (adapter) => adapter.fetchBalances());
        const { nonZero, printBalances } = await import("./render.js");
        if (options.nonzero) balances = nonZero(balances);
        if (ctx.out.json) return ctx.out.document(balances);
        printBalances(ctx.out, balances);
      }),
    );
}
