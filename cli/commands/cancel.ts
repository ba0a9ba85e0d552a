import type { Command } from "commander";
import { assertBatchSize, assertSupported } from "../../lib/limits.js";
import { normalizePair } from "../../lib/pair.js";
import { checkOrderId } from "../args.js";
import type { Context } from "../context.js";
import { resolveExchangeId, withExchange } from "../exchange.js";
import { action } from "../run.js";

/** Every cancel prints the ids cancelled: a JSON array of strings with --json, one id a line otherwise. */
function printCancelled(ctx: Context, ids: readonly string[]): void {
  if (ctx.out.json) {
    ctx.out.document(ids);
    return;
  }
  if (ids.length === 0) {
    ctx.out.text("Nothing cancelled");
    return;
  }
  ctx.out.text(ids.join("\n"));
}

/** `cancel PAIR ID`, `cancel-batch PAIR ID...`, `cancel-all PAIR`. */
export function registerCancel(program: Command): void {
  program
    .command("cancel")
    .description("cancel one order (--json: the ids cancelled)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<id>", "order id")
    .action(
      action(async (ctx, pairText: string, orderId: string) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const cancelled = await withExchange(
          ctx,
          (adapter) => adapter.cancelOrder(pair, checkOrderId(orderId, id)),
          id,
        );
        printCancelled(ctx, [cancelled]);
      }),
    );

  program
    .command("cancel-batch")
    .description("cancel several orders at once, up to the exchange's maximum (--json: the ids cancelled)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<ids...>", "order ids")
    .action(
      action(async (ctx, pairText: string, orderIds: string[]) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const ids = orderIds.map((o) => checkOrderId(o, id));
        // Seed 001 §5 "Maximum for 'cancelBatch' is: {max}", before anything is sent.
        assertBatchSize(id, "cancelBatch", ids.length);
        const cancelled = await withExchange(ctx, (adapter) => adapter.cancelBatch(pair, ids), id);
        printCancelled(ctx, cancelled);
      }),
    );

  program
    .command("cancel-all")
    .description("cancel every open order of PAIR (--json: the ids cancelled)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .action(
      action(async (ctx, pairText: string) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        assertSupported(id, "cancelAll");
        const cancelled = await withExchange(ctx, (adapter) => adapter.cancelAll(pair), id);
        printCancelled(ctx, cancelled);
      }),
    );
}
