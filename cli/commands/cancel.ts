import type { Command } from "commander";
import { assertBatchSize, assertSupported } from "../../exchanges/core/limits.js";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { ExchangeError } from "../../lib/errors.js";
import { normalizePair } from "../../lib/pair.js";
import { checkOrderId } from "../args.js";
import type { Context } from "../context.js";
import { accountLabel, resolveExchangeId, withExchange } from "../exchange.js";
import { action } from "../run.js";
import { DRY_RUN_FLAG, DRY_RUN_HELP } from "./trade.js";

/** Every cancel prints the ids cancelled: a JSON array of strings with --json, one id a line otherwise. */
function printCancelled(ctx: Context, ids: readonly string[]): void {
  if (ids.length > 0) ctx.out.sent(`cancelled ${ids.join(", ")}`);
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

/** What became of an order a cancel did not cancel: its status, or "not found" (docs/orders.md "Cancels"). */
async function statusOf(
  adapter: ExchangeAdapter,
  pair: string,
  orderId: string,
): Promise<{ status: string; orderId?: string }> {
  try {
    const order = await adapter.fetchOrder(pair, orderId);
    return { status: order.status ?? order.rawStatus ?? "unknown", orderId: order.id };
  } catch (error) {
    if (error instanceof ExchangeError && error.kind === "order-not-found") return { status: "not found" };
    return { status: `unknown: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const FINAL: Record<string, string> = { canceled: "already canceled", closed: "already filled" };

/** `cancel PAIR ID`, `cancel-batch PAIR ID...`, `cancel-all PAIR`. */
export function registerCancel(program: Command): void {
  program
    .command("cancel")
    .description("cancel one order (--json: the ids cancelled)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<id>", "order id")
    .option(DRY_RUN_FLAG, DRY_RUN_HELP)
    .action(
      action(async (ctx, pairText: string, orderId: string) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const key = checkOrderId(orderId, id);
        const cancelled = await withExchange(
          ctx,
          async (adapter) => {
            try {
              return [await adapter.cancelOrder(pair, key)];
            } catch (error) {
              // docs/orders.md "Cancels": a repeated cancel of an order already canceled or
              // filled is done, not an error; anything else stays the exchange's error.
              if (
                !(error instanceof ExchangeError) ||
                (error.kind !== "invalid-order" && error.kind !== "order-not-found")
              )
                throw error;
              const { status } = await statusOf(adapter, pair, key);
              const final = FINAL[status];
              if (!final) throw error;
              ctx.out.note(`Order ${key} is ${final}: nothing to cancel`);
              return [];
            }
          },
          id,
        );
        printCancelled(ctx, cancelled);
      }),
    );

  program
    .command("cancel-batch")
    .description("cancel several orders at once, up to the exchange's maximum (--json: the ids cancelled)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<ids...>", "order ids")
    .option(DRY_RUN_FLAG, DRY_RUN_HELP)
    .action(
      action(async (ctx, pairText: string, orderIds: string[]) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const ids = orderIds.map((o) => checkOrderId(o, id));
        // docs/exchange-rules.md#validation "Maximum for 'cancelBatch' is: {max}", before anything is sent.
        assertBatchSize(id, "cancelBatch", ids.length);
        const cancelled = await withExchange(
          ctx,
          async (adapter) => {
            const done = await adapter.cancelBatch(pair, ids);
            // docs/orders.md "Cancels": every id not cancelled is named with what became of it;
            // any that may still be open (or is unknown) makes the command fail.
            const missed = ids.filter((o) => !done.includes(o));
            const notCancelled: { id: string; status: string }[] = [];
            for (const orderId of missed) {
              const found = await statusOf(adapter, pair, orderId);
              // paper also takes a client order id and answers with the exchange id it cancelled
              if (found.orderId !== undefined && done.includes(found.orderId)) continue;
              notCancelled.push({ id: orderId, status: found.status });
            }
            for (const { id: orderId, status } of notCancelled) {
              ctx.out.note(`Not cancelled: ${orderId} (${FINAL[status] ?? status})`);
            }
            const left = notCancelled.filter((o) => FINAL[o.status] === undefined);
            if (left.length > 0) {
              const error = new ExchangeError(
                id,
                `${left.length} of ${ids.length} orders not cancelled: ${left.map((o) => `${o.id} (${o.status})`).join(", ")}; cancelled: ${done.length === 0 ? "none" : done.join(", ")}`,
                { kind: left.every((o) => o.status === "not found") ? "order-not-found" : "invalid-order" },
              );
              throw Object.assign(error, { details: { cancelled: done, notCancelled } });
            }
            return done;
          },
          id,
        );
        printCancelled(ctx, cancelled);
      }),
    );

  program
    .command("cancel-all")
    .description("cancel every open order of PAIR; asks first on a terminal (--json: the ids cancelled)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .option(DRY_RUN_FLAG, DRY_RUN_HELP)
    .option("-y, --yes", "do not ask for confirmation")
    .action(
      action(async (ctx, pairText: string, options: { yes?: boolean }) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        assertSupported(id, "cancelAll");
        // docs/cli.md "Confirmations": a person at a terminal says yes first; scripts and --yes do not
        if (!ctx.dryRun) {
          const { confirmed } = await import("../prompt.js");
          if (
            !(await confirmed(
              `Cancel every open ${pair} order on ${id} (account '${accountLabel(ctx, id)}')?`,
              options.yes,
            ))
          ) {
            throw new ExchangeError(id, `Not confirmed: nothing cancelled`, { kind: "bad-input" });
          }
        }
        const cancelled = await withExchange(ctx, (adapter) => adapter.cancelAll(pair), id);
        printCancelled(ctx, cancelled);
      }),
    );
}
