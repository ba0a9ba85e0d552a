/** The `batch` command's work: read, validate every item, check the limit, then send. */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { resolveOrderAmount } from "../lib/decimal.js";
import { ExchangeError, isExchangeError } from "../lib/errors.js";
import { assertBatchSize, assertSupported, LIMITS } from "../lib/limits.js";
import type { BatchItem, ExchangeId, Order } from "../lib/types.js";
import type { Context } from "./context.js";
import { withExchange } from "./exchange.js";

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

/** A number may come as a JSON string ("0.1") or a JSON number (0.1); both go through the user-number parser. */
const numberField = z
  .union([z.string(), z.number().finite()])
  .transform((v) => (typeof v === "number" ? String(v) : v));

const itemSchema = z.object({
  // Seed 001 §3 batch item: side, amount, price. Side is case-insensitive: buy, BUY, Buy.
  side: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(["buy", "sell"], { message: "side must be Buy or Sell" }))
    .transform((s): BatchItem["side"] => (s === "buy" ? "Buy" : "Sell")),
  amount: numberField,
  price: numberField,
});

/** Parses and validates the whole list before anything is sent; an error names the item (1-based) and the field. */
export async function parseBatch(text: string, exchange: ExchangeId): Promise<BatchItem[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw bad(exchange, `The batch is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(raw)) throw bad(exchange, "The batch must be a JSON array of {side, amount, price}");
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
    try {
      const { amount, price } = resolveOrderAmount({ price: parsed.data.price, amount: parsed.data.amount });
      return { side: parsed.data.side, amount: amount.toFixed(), price: price.toFixed() };
    } catch (error) {
      if (isExchangeError(error)) throw bad(exchange, `Batch item ${index + 1}: ${error.detail}`);
      throw error;
    }
  });
}

/** An error that also carries the orders placed before it, for the --json error object. */
function withPlaced(error: unknown, placed: Order[]): unknown {
  if (placed.length === 0 || !isExchangeError(error)) return error;
  const wrapped = new ExchangeError(
    error.exchange,
    `${error.detail} (after ${placed.length} orders were placed: ${placed.map((o) => o.id).join(", ")})`,
    { kind: error.kind, ...(error.code === undefined ? {} : { code: error.code }), cause: error },
  );
  return Object.assign(wrapped, { details: { placed } });
}

/**
 * Seed 001 §5: a list over the exchange's maximum is refused with "Maximum for 'createBatch' is:
 * {max}" before anything is sent — unless --split asks for several batches of the maximum.
 */
export async function placeBatch(
  ctx: Context,
  exchange: ExchangeId,
  pair: string,
  items: BatchItem[],
  split: boolean,
): Promise<Order[]> {
  const max = LIMITS[exchange].createBatch;
  if (split && items.length > max) {
    assertSupported(exchange, "createBatch");
    if (max === 0) assertBatchSize(exchange, "createBatch", items.length);
  } else {
    assertBatchSize(exchange, "createBatch", items.length);
  }
  return withExchange(
    ctx,
    async (adapter) => {
      const placed: Order[] = [];
      try {
        for (let start = 0; start < items.length; start += max) {
          ctx.out.progress(`batch ${pair}: ${placed.length}/${items.length} placed`);
          placed.push(...(await adapter.createBatch(pair, items.slice(start, start + max))));
        }
      } catch (error) {
        throw withPlaced(error, placed);
      } finally {
        ctx.out.clearProgress();
      }
      return placed;
    },
    exchange,
  );
}
