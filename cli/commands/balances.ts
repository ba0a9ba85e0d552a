import type { Command } from "commander";
import { Decimal } from "../../lib/decimal.js";
import type { Balances } from "../../lib/types.js";
import { withExchange } from "../exchange.js";
import { action } from "../run.js";
import { printBalances } from "./render.js";

/** Drops currencies whose free and locked are both zero (some exchanges already do, seed 001 §3). */
export function nonZero(balances: Balances): Balances {
  const out: Balances = {};
  for (const [token, b] of Object.entries(balances)) {
    if (!new Decimal(b.f).isZero() || !new Decimal(b.l).isZero()) out[token] = b;
  }
  return out;
}

/** `spotdesk balances [--nonzero]`: the Balances map, {"BTC":{"f":"1.5","l":"0.5"}} with --json. */
export function registerBalances(program: Command): void {
  program
    .command("balances")
    .description("balances: Token, Total, Free, Locked (--json: the Balances map)")
    .option("--nonzero", "hide currencies whose free and locked are both zero")
    .action(
      action(async (ctx, options: { nonzero?: boolean }) => {
        let balances = await withExchange(ctx, (adapter) => adapter.fetchBalances());
        if (options.nonzero) balances = nonZero(balances);
        if (ctx.out.json) return ctx.out.document(balances);
        printBalances(ctx.out, balances);
      }),
    );
}
