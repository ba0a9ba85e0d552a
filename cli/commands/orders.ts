import type { Command } from "commander";
import { normalizePair } from "../../lib/pair.js";
import { checkOrderId } from "../args.js";
import type { Context } from "../context.js";
import { labelOrders, resolveExchangeId, withExchange } from "../exchange.js";
import { action } from "../run.js";
import { printOrders } from "./render.js";

/** `spotdesk orders PAIR` (open orders) and `spotdesk order PAIR ID` (one order). */
export function registerOrders(program: Command): void {
  program
    .command("orders")
    .description("open orders of PAIR (--json: an array of Orders)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .action(action(openOrders));

  program
    .command("order")
    .description("one order of PAIR by id (--json: one Order)")
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<id>", "order id")
    .action(action(oneOrder));
}

/** The work of `order PAIR ID`, for commander and for the read path (cli/read.ts). */
export async function oneOrder(ctx: Context, pairText: string, orderId: string): Promise<void> {
  const id = await resolveExchangeId(ctx);
  const pair = normalizePair(pairText, id);
  const order = await withExchange(ctx, (adapter) => adapter.fetchOrder(pair, checkOrderId(orderId, id)), id);
  if (ctx.out.json) return ctx.out.document(labelOrders(ctx, id, [order])[0]);
  printOrders(ctx.out, [order]);
}

/** The work of `orders PAIR`, for commander and for the read path (cli/read.ts). */
export async function openOrders(ctx: Context, pairText: string): Promise<void> {
  const id = await resolveExchangeId(ctx);
  const pair = normalizePair(pairText, id);
  // docs/decisions.md#d10: paging past the open-orders limit is the adapter's job where it supports it.
  const orders = await withExchange(ctx, (adapter) => adapter.fetchOpenOrders(pair), id);
  if (ctx.out.json) return ctx.out.document(labelOrders(ctx, id, orders));
  printOrders(ctx.out, orders);
}
