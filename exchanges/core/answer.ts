/**
 * Reading an exchange's answer: the zod pieces every adapter's schemas are made of, and the one
 * place a schema's refusal becomes an ExchangeError (docs/exchange-rules.md "Unexpected answers").
 *
 * An answer in a shape the adapter does not know is the exchange's failure, not ours: it reads
 * `Unexpected answer from gate: orders[0].id expected string or number, got undefined` under the
 * exchange's name, with kind `invalid-order` like an answer without the exchange's envelope, so
 * the CLI exits 5 and never prints a schema library's dump under "Unexpected error".
 */
import { z } from "zod";
import { ExchangeError } from "../../lib/errors.js";
import type { Order } from "../../lib/types.js";

/** A number as exchanges write it, text or JSON number; read it with toDecimalString. */
export const num = z.union([z.string(), z.number()]);

/** An id as exchanges write it, text or JSON number, read as text (long ids arrive as text, docs/exchange-rules.md#limits). */
export const id = z.union([z.string(), z.number()]).transform(String);

/** A zod issue path as a reader writes it: `orders[0].id`, `[2].price`, `data.list`. */
export function answerPath(path: readonly PropertyKey[], root = ""): string {
  let out = root;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** What was found where the schema expected something else, in a few words. */
function found(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return value.length > 40 ? "a long text" : JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return String(value);
}

/** The value at a zod path inside the answer, for the message (undefined when the path is gone). */
function valueAt(answer: unknown, path: readonly PropertyKey[]): unknown {
  let value = answer;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** What the schema wanted at that place, without zod's own wording. */
function expected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_union":
      return "expected text or a number";
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return `expected at least ${String(issue.minimum)}`;
    case "too_big":
      return `expected at most ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

/**
 * The one translation of a schema refusal into an ExchangeError: the exchange, the field path of
 * the first problem (under `root`, the name the adapter gives the answer) and what was there.
 * `answer` is the value parsed, when the caller has it (a stray ZodError caught by the adapter base
 * has only zod's own record of the input, when it kept one).
 */
export function unexpectedAnswer(
  exchange: string,
  error: z.ZodError,
  root = "",
  answer?: { value: unknown },
): ExchangeError {
  const issue = error.issues[0];
  let what = "unreadable";
  if (issue) {
    const got = answer
      ? { value: valueAt(answer.value, issue.path) }
      : "input" in issue
        ? { value: issue.input }
        : undefined;
    what = got ? `${expected(issue)}, got ${found(got.value)}` : expected(issue);
  }
  const path = issue ? answerPath(issue.path, root) : root;
  return new ExchangeError(exchange, `Unexpected answer from ${exchange}: ${path ? `${path} ` : ""}${what}`, {
    kind: "invalid-order",
    unclear: true,
    cause: error,
  });
}

/** True for a zod refusal, without importing zod's classes (one may come from another copy of zod). */
export function isSchemaError(error: unknown): error is z.ZodError {
  return error instanceof Error && error.name === "ZodError" && Array.isArray((error as z.ZodError).issues);
}

/**
 * Parses an answer with a schema; a shape it does not know throws unexpectedAnswer. `root` names
 * the answer in the message ("orders" gives `orders[0].id`).
 */
export function parseAnswer<S extends z.ZodType>(exchange: string, schema: S, answer: unknown, root = ""): z.output<S> {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  throw unexpectedAnswer(exchange, parsed.error, root, { value: answer });
}

/** The batch failure of docs/exchange-rules.md#validation: "One of orders threw an error (code, msg)", with the count placed when known. */
export function batchFailureMessage(
  causes: readonly (string | number | undefined)[],
  counts?: { placed: number; total: number },
): string {
  const tail = counts ? `; ${counts.placed} of ${counts.total} placed` : "";
  return `One of orders threw an error (${causes.map((c) => c ?? "").join(", ")})${tail}`;
}

/** A batch answer that names fewer orders than were sent: "One of orders was not placed (2 of 3 placed)". */
export function notPlacedMessage(counts?: { placed: number; total: number }): string {
  return `One of orders was not placed${counts ? ` (${counts.placed} of ${counts.total} placed)` : ""}`;
}

/**
 * A batch create the exchange took in part (docs/orders.md "Partly placed batches"): the error
 * carries the orders it did place as `details.placed`, so a caller shows them and never sends
 * them again.
 */
export function partlyPlaced(error: ExchangeError, placed: readonly Order[]): ExchangeError {
  return Object.assign(error, { details: { placed: [...placed] } });
}
