/** The `batch` command's work: read, validate every item, check the limit, then send. */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { CATALOGUE } from "../exchanges/catalogue.js";
import { newClientOrderId } from "../exchanges/core/client-order-id.js";
import { assertBatchSize, assertSupported } from "../exchanges/core/limits.js";
import type { ExchangeAdapter } from "../exchanges/types.js";
import { resolveTypedOrder } from "../lib/decimal.js";
import { ExchangeError, isExchangeError, placedBefore } from "../lib/errors.js";
import { MAX_NUMBER, MAX_NUMBER_TEXT } from "../lib/schemas.js";
import type { BatchItem, ExchangeId, Order } from "../lib/types.js";
import type { Context } from "./context.js";
import { withExchange } from "./exchange.js";
import { assertSameTerms, type GuardFlags, guardPrices } from "./order-guard.js";

const bad = (exchange: string, message: string) => new ExchangeError(exchange, message, { kind: "bad-input" });

/** FILE, or stdin for '-' or no FILE; stdin must be a pipe or a file (no typing JSON at a prompt). */
export async function readBatchInput(file: string | undefined): Promise<string> {
  if (file !== undefined && file !== "-") {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      throw bad(
        "spotdesk",
        `Cannot read batch file '${file}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  if (process.stdin.isTTY)
    throw bad("spotdesk", "batch reads a JSON array from FILE or from stdin: give a FILE or pipe the JSON in");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A number may come as a JSON string ("0.1") or a JSON number (0.1); both go through the user-number
 * parser. Bounded like the server's numbers (docs/server-limits.md "Bounded work"): a text of at most
 * MAX_NUMBER_TEXT characters, a number within ±MAX_NUMBER.
 */
const numberField = z.union([
  z.string().max(MAX_NUMBER_TEXT, `at most ${MAX_NUMBER_TEXT} characters`),
  z
    .number()
    .finite()
    .transform((n, ctx) => {
      if (Math.abs(n) <= MAX_NUMBER) return String(n);
      // continue: the union reports this message rather than its own "Invalid input"
      ctx.addIssue({ code: "custom", message: `must lie between -${MAX_NUMBER} and ${MAX_NUMBER}`, continue: true });
      return z.NEVER;
    }),
]);

const itemSchema = z.object({
  // docs/exchange-rules.md#entities batch item: side, amount, price. Side is case-insensitive: buy, BUY, Buy.
  side: z
    .string()
    .max(10, "side must be Buy or Sell")
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(["buy", "sell"], { message: "side must be Buy or Sell" }))
    .transform((s): BatchItem["side"] => (s === "buy" ? "Buy" : "Sell")),
  amount: numberField,
  price: numberField,
  // docs/orders.md "Client order ids": checked against the exchange's rule by the adapter.
  clientOrderId: z
    .string()
    .min(1, "clientOrderId must not be empty")
    .max(100, "clientOrderId has at most 100 characters")
    .optional(),
});

/** Parses and validates the whole list before anything is sent; an error names the item (1-based) and the field. */
export async function parseBatch(
  text: string,
  exchange: ExchangeId,
  decimals?: { priceDecimals: number; amountDecimals: number; label?: string },
): Promise<BatchItem[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw bad(exchange, `The batch is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(raw)) throw bad(exchange, "The batch must be a JSON array of {side, amount, price}");
  const seen = new Set<string>();
  return raw.map((value, index) => {
    const parsed = itemSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "item";
      throw bad(
        exchange,
        `Batch item ${index + 1}: invalid ${field}: ${issue?.message ?? "expected {side, amount, price}"}`,
      );
    }
    const clientOrderId = parsed.data.clientOrderId;
    if (clientOrderId !== undefined) {
      if (seen.has(clientOrderId)) {
        throw bad(exchange, `Batch item ${index + 1}: clientOrderId '${clientOrderId}' is used twice in the batch`);
      }
      seen.add(clientOrderId);
    }
    try {
      // docs/orders.md "Numbers on the command line": the same rules as buy and sell.
      const { amount, price } = resolveTypedOrder({
        price: parsed.data.price,
        amount: parsed.data.amount,
        priceDecimals: decimals?.priceDecimals,
        amountDecimals: decimals?.amountDecimals,
        pair: decimals?.label,
      });
      for (const [field, value] of [
        ["amount", amount],
        ["price", price],
      ] as const)
        if (value.gt(MAX_NUMBER))
          throw bad("spotdesk", `Invalid ${field} '${value.toFixed()}': it must be at most ${MAX_NUMBER}`);
      return {
        side: parsed.data.side,
        amount: amount.toFixed(),
        price: price.toFixed(),
        ...(clientOrderId === undefined ? {} : { clientOrderId }),
      };
    } catch (error) {
      if (isExchangeError(error)) throw bad(exchange, `Batch item ${index + 1}: ${error.detail}`);
      throw error;
    }
  });
}

/**
 * A batch that failed part way (docs/cli.md "Partial results", docs/orders.md "Partly placed
 * batches"): the message says exactly how many orders were placed and numbers the items by their
 * position in the input list; the error carries the orders on the exchange (placed now or found by
 * client order id), in input order, for stdout and the --json error object.
 */
function withPlaced(
  error: unknown,
  done: Order[],
  placedNow: Order[],
  /** input positions (1-based) of the items not placed, the failed batch first */
  notPlaced: number[],
  /** input positions (1-based) of the failed batch */
  failedBatch: number[],
  /** the exchange said which items of the failed batch it placed (or placed none of them: paper) */
  known: boolean,
): unknown {
  if (!isExchangeError(error)) return error;
  const ids = placedNow.length === 0 ? "" : ` (${placedNow.map((o) => o.id).join(", ")})`;
  const span = (positions: number[]) => {
    const sorted = [...positions].sort((a, b) => a - b);
    const contiguous = sorted.every((p, i) => i === 0 || p === sorted[i - 1]! + 1);
    if (sorted.length === 1) return `item ${sorted[0]}`;
    return contiguous ? `items ${sorted[0]}-${sorted[sorted.length - 1]}` : `items ${sorted.join(", ")}`;
  };
  // The exchange's "Batch item N" counts within the failed batch: say the item's input position.
  const detail = error.detail.replace(/^Batch item (\d+):/, (whole, n: string) => {
    const position = failedBatch[Number(n) - 1];
    return position === undefined ? whole : `Batch item ${position}:`;
  });
  // Unless the exchange said which items it took, it may hold part of the failed batch.
  const check = known ? "" : `; the exchange may hold part of ${span(failedBatch)}: check \`spotdesk orders\``;
  const wrapped = new ExchangeError(
    error.exchange,
    `${placedNow.length} of ${placedNow.length + notPlaced.length} orders placed${ids}; ${span(notPlaced)} not placed: the batch of ${span(failedBatch)} failed: ${detail}${check}`,
    { kind: error.kind, ...(error.code === undefined ? {} : { code: error.code }), cause: error },
  );
  return Object.assign(wrapped, { details: { placed: done } });
}

/**
 * The orders of one batch answer in the places of the items sent: by client order id (every item
 * has one, see placeBatch), or by position when the answer names every item.
 */
function byItem(sent: readonly BatchItem[], orders: readonly Order[]): (Order | undefined)[] {
  const byId = new Map(orders.map((o) => [o.clientOrderId, o]));
  return sent.map(
    (item, i) =>
      (item.clientOrderId === undefined ? undefined : byId.get(item.clientOrderId)) ??
      (orders.length === sent.length ? orders[i] : undefined),
  );
}

/**
 * docs/exchange-rules.md#validation: a list over the exchange's maximum is refused with "Maximum for 'createBatch' is:
 * {max}" before anything is sent — unless --split asks for several batches of the maximum.
 */
export async function placeBatch(
  ctx: Context,
  exchange: ExchangeId,
  pair: string,
  items: BatchItem[],
  split: boolean,
  flags: GuardFlags = {},
  /** run first with the open exchange: the items against the pair's decimals (docs/orders.md) */
  check?: (adapter: ExchangeAdapter) => Promise<void>,
): Promise<Order[]> {
  const max = CATALOGUE[exchange].limits.createBatch;
  if (split && items.length > max) {
    assertSupported(exchange, "createBatch");
    if (max === 0) assertBatchSize(exchange, "createBatch", items.length);
  } else {
    assertBatchSize(exchange, "createBatch", items.length);
  }
  return withExchange(
    ctx,
    async (adapter) => {
      await check?.(adapter);
      // docs/orders.md "Client order ids": items whose id the exchange already knows are not sent again.
      const existing = new Map<number, Order>();
      for (const [index, item] of items.entries()) {
        if (item.clientOrderId === undefined || ctx.dryRun) continue;
        const found = await adapter.findOrderByClientOrderId(pair, item.clientOrderId);
        if (found) {
          try {
            assertSameTerms(exchange, item.clientOrderId, found, { pair, ...item });
          } catch (error) {
            if (isExchangeError(error)) throw bad(exchange, `Batch item ${index + 1}: ${error.detail}`);
            throw error;
          }
          existing.set(index, found);
          ctx.out.note(
            `Batch item ${index + 1}: order ${found.id} with client order id '${item.clientOrderId}' already exists (${found.status ?? "unknown"}): not sent again`,
          );
        }
      }
      // Every item sent carries a client order id (the exchange's rule, as the adapter would make
      // it), so the orders of a partly placed batch are matched to their items (docs/orders.md
      // "Partly placed batches").
      const rule = CATALOGUE[exchange].clientOrderId;
      const toSend = items.flatMap((item, index) =>
        existing.has(index)
          ? []
          : [item.clientOrderId === undefined ? { ...item, clientOrderId: newClientOrderId(rule) } : item],
      );
      if (!ctx.dryRun) await guardPrices(ctx, exchange, pair, toSend, flags);
      /** the order of each item of toSend, once the exchange placed it */
      const sent: (Order | undefined)[] = [];
      const placedCount = () => sent.filter(Boolean).length;
      if (toSend.length > 0) {
        if (existing.size > 0 && !(split && toSend.length > max))
          assertBatchSize(exchange, "createBatch", toSend.length);
        let start = 0;
        try {
          for (; start < toSend.length; start += max) {
            ctx.out.progress(`batch ${pair}: ${placedCount()}/${toSend.length} placed`);
            const chunk = toSend.slice(start, start + max);
            let orders: Order[];
            try {
              orders = await adapter.createBatch(pair, chunk);
            } catch (error) {
              sent.push(...byItem(chunk, placedBefore(error) ?? []));
              throw error;
            }
            const matched = byItem(chunk, orders);
            sent.push(...matched);
            ctx.out.sent(`batch orders placed: ${orders.map((o) => o.id).join(", ")}`);
            if (orders.length < chunk.length) {
              // xt skips the items it rejects and answers the others (docs/exchange-rules.md#validation).
              const missing = matched.flatMap((o, i) => (o ? [] : [i + 1]));
              throw new ExchangeError(
                exchange,
                `Batch item ${missing[0]}: rejected by ${exchange} (it answered ${orders.length} of ${chunk.length} orders)`,
                { kind: "invalid-order" },
              );
            }
          }
        } catch (error) {
          // input positions (1-based) of the items sent, so every number names the input list
          const positions = items.flatMap((_, index) => (existing.has(index) ? [] : [index + 1]));
          const done = items.flatMap((_, index) => {
            const found = existing.get(index);
            if (found) return [found];
            const order = sent[positions.indexOf(index + 1)];
            return order ? [order] : [];
          });
          const failedBatch = positions.slice(start, start + max);
          const taken = sent.slice(start).some(Boolean);
          if (!(split && toSend.length > max) && !taken) throw error;
          const known = exchange === "paper" || placedBefore(error) !== undefined || taken;
          const notPlaced = positions.filter((_, i) => i >= start && !sent[i]);
          throw withPlaced(
            error,
            done,
            sent.filter((o): o is Order => o !== undefined),
            notPlaced,
            failedBatch,
            known,
          );
        } finally {
          ctx.out.clearProgress();
        }
      }
      // In the order of the input: the orders found by client order id in their places.
      let next = 0;
      return items.map((_, index) => existing.get(index) ?? sent[next++]!);
    },
    exchange,
  );
}
