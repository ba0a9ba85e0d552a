import type { Command } from "commander";
import { ExchangeError } from "../../lib/errors.js";
import { normalizePair } from "../../lib/pair.js";
import type { Side } from "../../lib/types.js";
import { resolveExchangeId, withExchange } from "../exchange.js";
import { action } from "../run.js";

interface TradeOptions {
  quote?: string;
}

/**
 * `buy|sell PAIR AMOUNT PRICE`, or `buy|sell PAIR PRICE --quote TOTAL` where the amount is
 * TOTAL / PRICE (seed 000 §5). Numbers are checked before anything is sent.
 */
function registerSide(program: Command, side: Side): void {
  const verb = side === "Buy" ? "buy" : "sell";
  program
    .command(verb)
    .description(
      `place a limit ${verb} order: ${verb} PAIR AMOUNT PRICE, or ${verb} PAIR PRICE --quote TOTAL (--json: one Order)`,
    )
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<amount-or-price>", "AMOUNT (in the base currency), or PRICE with --quote")
    .argument("[price]", "limit PRICE (in the quote currency)")
    .option("--quote <total>", "spend or receive this TOTAL in the quote currency instead of giving AMOUNT")
    .action(
      action(async (ctx, pairText: string, first: string, second: string | undefined, options: TradeOptions) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const withQuote = options.quote !== undefined;
        if (withQuote && second !== undefined) {
          throw new ExchangeError(id, `With --quote give PAIR and PRICE only: ${verb} ${pair} PRICE --quote TOTAL`, {
            kind: "bad-input",
          });
        }
        if (!withQuote && second === undefined) {
          throw new ExchangeError(
            id,
            `Missing PRICE: ${verb} ${pair} AMOUNT PRICE (or ${verb} ${pair} PRICE --quote TOTAL)`,
            { kind: "bad-input" },
          );
        }
        const { resolveOrderAmount } = await import("../../lib/decimal.js");
        const { amount, price } = withQuote
          ? resolveOrderAmount({ price: first, quote: options.quote })
          : resolveOrderAmount({ price: second as string, amount: first });
        const order = await withExchange(
          ctx,
          (adapter) => adapter.createOrder({ pair, side, amount: amount.toFixed(), price: price.toFixed() }),
          id,
        );
        if (ctx.out.json) return ctx.out.document(order);
        (await import("./render.js")).printOrders(ctx.out, [order]);
      }),
    );
}

export function registerTrade(program: Command): void {
  registerSide(program, "Buy");
  registerSide(program, "Sell");

  program
    .command("batch")
    .description(
      "place many limit orders from a JSON array of {side, amount, price} in FILE or stdin (--json: an array of Orders)",
    )
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("[file]", "JSON file, or '-' (the default) for stdin")
    .option("--split", "send a list longer than the exchange's batch maximum in several batches")
    .action(
      action(async (ctx, pairText: string, file: string | undefined, options: { split?: boolean }) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const { readBatchInput, parseBatch, placeBatch } = await import("../batch.js");
        const items = await parseBatch(await readBatchInput(file), id);
        const orders = await placeBatch(ctx, id, pair, items, options.split === true);
        if (ctx.out.json) return ctx.out.document(orders);
        (await import("./render.js")).printOrders(ctx.out, orders);
      }),
    );
}
