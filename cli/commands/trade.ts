import type { Command } from "commander";
import { assertPostOnly } from "../../exchanges/core/limits.js";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { resolveTypedOrder } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { normalizePair } from "../../lib/pair.js";
import type { Order, Side } from "../../lib/types.js";
import { labelOrders, resolveExchangeId, withExchange } from "../exchange.js";
import { action } from "../run.js";
import { farPricePercentOption } from "./accounts.js";
import { printOrders } from "./render.js";

interface TradeOptions {
  quote?: string;
  clientOrderId?: string;
  allowFarPrice?: boolean;
  farPricePercent?: string;
  postOnly?: boolean;
}

/** The options every order-placing command takes (docs/orders.md). */
function guardOptions(command: Command): Command {
  return command
    .option("--allow-far-price", "send even when the price is far through the book, or no live book is available")
    .option("--far-price-percent <n>", "the far-price limit in percent (else the account's setting, else 5)")
    .option("--post-only", "maker only: refused instead of taking; an exchange without a post-only form refuses it")
    .option(DRY_RUN_FLAG, DRY_RUN_HELP);
}

/** docs/cli.md "Dry run": shared by every command that places or cancels. */
export const DRY_RUN_FLAG = "--dry-run";
export const DRY_RUN_HELP =
  "print the signed request (method, URL, headers, body; key and signature masked) and send nothing";
const DRY_RUN_NOTE =
  "Dry run: the far-price guard and the client order id look-up are skipped, the pair's decimals come from the cache only; nothing is sent";

/** How a --quote amount was rounded: "htx BTC/USDT lot 0.000001", or paper's "BTC/USDT amounts allow 6 decimals". */
function roundingRule(rules: { label: string; amountDecimals: number; lot?: string | undefined }): string {
  return rules.lot === undefined
    ? `${rules.label} amounts allow ${rules.amountDecimals} decimals`
    : `${rules.label} lot ${rules.lot}`;
}

async function guardFlags(options: TradeOptions) {
  return {
    allowFarPrice: options.allowFarPrice === true,
    ...(options.farPricePercent === undefined
      ? {}
      : { farPricePercent: await farPricePercentOption(options.farPricePercent) }),
  };
}

/**
 * `buy|sell PAIR AMOUNT PRICE`, or `buy|sell PAIR PRICE --quote TOTAL` where the amount is
 * TOTAL / PRICE (docs/dashboard-rules.md#validation). Numbers, the far-price guard and a retried client order id are
 * checked before anything is sent (docs/orders.md).
 */
function registerSide(program: Command, side: Side): void {
  const verb = side === "Buy" ? "buy" : "sell";
  const command = program
    .command(verb)
    .description(
      `place a limit ${verb} order: ${verb} PAIR AMOUNT PRICE, or ${verb} PAIR PRICE --quote TOTAL (--json: one Order)`,
    )
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("<amount-or-price>", "AMOUNT (in the base currency), or PRICE with --quote")
    .argument("[price]", "limit PRICE (in the quote currency)")
    .option("--quote <total>", "spend or receive this TOTAL in the quote currency instead of giving AMOUNT")
    .option("--client-order-id <id>", "your id for this order: a retry with the same id places nothing twice");
  guardOptions(command).action(
    action(async (ctx, pairText: string, first: string, second: string | undefined, options: TradeOptions) => {
      const id = await resolveExchangeId(ctx);
      const pair = normalizePair(pairText, id);
      const postOnly = options.postOnly === true;
      // docs/orders.md "Post-only": refused before keys, book or request where the exchange has no form
      if (postOnly) assertPostOnly(id);
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
      const flags = await guardFlags(options);
      const guard = await import("../order-guard.js");
      const { pairRules, isPrecisionRefusal, forgetPairRules } = await import("../pair-rules.js");
      const typedInput = {
        price: withQuote ? first : (second as string),
        ...(withQuote ? { quote: options.quote } : { amount: first }),
      };
      // the numbers' own form first (exit 2 before keys or calls); the pair's decimals once the
      // exchange is open (docs/orders.md "Numbers on the command line")
      resolveTypedOrder({ pair, ...typedInput });
      const clientOrderId = options.clientOrderId;
      const order = await withExchange(
        ctx,
        async (adapter) => {
          // the id is checked (and looked up) before anything else is read from the exchange
          const existing =
            clientOrderId !== undefined && !ctx.dryRun
              ? await adapter.findOrderByClientOrderId(pair, clientOrderId)
              : undefined;
          const rules = await pairRules(ctx, id, pair, adapter);
          const typed = resolveTypedOrder({
            ...typedInput,
            pair: rules?.label ?? pair,
            priceDecimals: rules?.priceDecimals,
            amountDecimals: rules?.amountDecimals,
            amountLot: rules?.lot,
          });
          const amount = typed.amount.toFixed();
          const price = typed.price.toFixed();
          if (typed.roundedFrom && rules) {
            ctx.out.note(
              `Note: amount ${typed.roundedFrom.toFixed()} rounded down to ${amount} (${roundingRule(rules)})`,
            );
          }
          if (ctx.dryRun) ctx.out.note(DRY_RUN_NOTE);
          if (existing && clientOrderId !== undefined) {
            guard.assertSameTerms(id, clientOrderId, existing, { pair, side, price, amount });
            ctx.out.note(
              `Order ${existing.id} with client order id '${clientOrderId}' already exists (${existing.status ?? "unknown"}): nothing sent`,
            );
            return existing;
          }
          if (!ctx.dryRun) await guard.guardPrices(ctx, id, pair, [{ side, price, amount }], flags);
          try {
            const placed = await adapter.createOrder({
              pair,
              side,
              amount,
              price,
              ...(clientOrderId ? { clientOrderId } : {}),
              ...(postOnly ? { postOnly } : {}),
            });
            ctx.out.sent(`${verb} order ${placed.id} placed (client order id ${placed.clientOrderId})`);
            return placed;
          } catch (error) {
            // Another process placed the same client order id between our look-up and our create:
            // the exchange refused the duplicate, and the order it holds is the answer.
            const raced =
              clientOrderId === undefined ? undefined : await guard.raceWinner(adapter, pair, clientOrderId, error);
            if (!raced) {
              if (isPrecisionRefusal(error)) forgetPairRules(ctx, id);
              const taken =
                clientOrderId === undefined
                  ? undefined
                  : guard.usedElsewhere(id, clientOrderId, { pair, side, price, amount }, error);
              throw taken ?? error;
            }
            guard.assertSameTerms(id, clientOrderId as string, raced, { pair, side, price, amount });
            ctx.out.note(`Order ${raced.id} with client order id '${clientOrderId}' already exists: nothing sent`);
            return raced;
          }
        },
        id,
      );
      if (ctx.out.json) return ctx.out.document(labelOrders(ctx, id, [order])[0]);
      printOrders(ctx.out, [order]);
    }),
  );
}

export function registerTrade(program: Command): void {
  registerSide(program, "Buy");
  registerSide(program, "Sell");

  const batch = program
    .command("batch")
    .description(
      "place many limit orders from a JSON array of {side, amount, price, clientOrderId?} in FILE or stdin (--json: an array of Orders)",
    )
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .argument("[file]", "JSON file, or '-' (the default) for stdin")
    .option("--split", "send a list longer than the exchange's batch maximum in several batches");
  guardOptions(batch).action(
    action(async (ctx, pairText: string, file: string | undefined, options: TradeOptions & { split?: boolean }) => {
      const id = await resolveExchangeId(ctx);
      const pair = normalizePair(pairText, id);
      if (options.postOnly === true) assertPostOnly(id);
      const flags = await guardFlags(options);
      const { readBatchInput, parseBatch, placeBatch } = await import("../batch.js");
      const { pairRules, isPrecisionRefusal, forgetPairRules } = await import("../pair-rules.js");
      const input = await readBatchInput(file);
      // the items' own form first; the pair's decimals once the exchange is open (placeBatch's check)
      const parsed = await parseBatch(input, id, id === "paper" ? await pairRules(ctx, id, pair) : undefined);
      /** set once the items passed the venue's decimals: a precision refusal after it is the venue's */
      let checked = false;
      const checkDecimals = async (adapter: ExchangeAdapter) => {
        await parseBatch(input, id, await pairRules(ctx, id, pair, adapter));
        checked = true;
      };
      // --post-only makes every item maker only (docs/orders.md "Post-only")
      const items = options.postOnly === true ? parsed.map((item) => ({ ...item, postOnly: true })) : parsed;
      if (ctx.dryRun) ctx.out.note(DRY_RUN_NOTE);
      const print = async (orders: Order[]) => {
        if (ctx.out.json) return ctx.out.document(labelOrders(ctx, id, orders));
        printOrders(ctx.out, orders);
      };
      let orders: Order[];
      try {
        orders = await placeBatch(ctx, id, pair, items, options.split === true, flags, checkDecimals);
      } catch (error) {
        if (checked && isPrecisionRefusal(error)) forgetPairRules(ctx, id);
        // docs/cli.md "Partial results": a split batch that failed part way still prints on
        // stdout the orders that are on the exchange, as on success, then fails.
        const details = (error as { details?: { placed?: Order[] } }).details;
        if (details?.placed !== undefined) {
          await print(details.placed);
          details.placed = labelOrders(ctx, id, details.placed);
        }
        throw error;
      }
      await print(orders);
    }),
  );
}
