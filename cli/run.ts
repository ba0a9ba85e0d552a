import type { Command } from "commander";
import { EXIT_CODES, ExchangeError, isExchangeError } from "../lib/errors.js";
import { isExchangeId } from "../lib/types.js";
import { type Context, createContext } from "./context.js";
import { openedStream, sentSoFar, watchStdio } from "./output.js";

/** Exit code of a commander usage error (unknown option, missing argument, …). */
export const USAGE_EXIT_CODE = 2;
/** Exit code of an unexpected failure (a bug, not an exchange's answer). */
export const UNEXPECTED_EXIT_CODE = 1;

/**
 * Extra fields an error may carry into the --json error object, e.g. the orders a split batch
 * placed before it failed, so a script knows what is resting on the book.
 */
export interface ErrorDetails {
  placed?: unknown;
  /** the far-price guard's refusal (docs/orders.md "Far-price guard") */
  guard?: unknown;
  /** cancel-batch: what was cancelled and what was not (docs/orders.md "Cancels") */
  cancelled?: unknown;
  notCancelled?: unknown;
}

/** Commands that act on no exchange: their own errors keep the `spotdesk` label. */
const NO_EXCHANGE = new Set(["serve", "users", "exchanges", "completion", "report"]);

/**
 * The exchange a command acts on, for the `exchange` field of its errors (docs/cli.md "Errors"):
 * --exchange (paper by default); accounts commands only when --exchange was typed.
 */
export function commandExchange(command: Command): string | undefined {
  let top = command;
  while (top.parent?.parent) top = top.parent;
  if (NO_EXCHANGE.has(top.name())) return undefined;
  const exchange = command.optsWithGlobals<{ exchange?: string }>().exchange;
  if (top.name() === "accounts" && command.getOptionValueSourceWithGlobals("exchange") === "default") return undefined;
  return exchange !== undefined && isExchangeId(exchange) ? exchange : undefined;
}

/** The exchange of the running command, for errors raised outside it (a failed write on stdout). */
let runningExchange: string | undefined;

/**
 * Prints an error on stderr and returns its exit code (lib/errors.ts EXIT_CODES, 1 = unexpected).
 * Our own checks raise errors labelled `spotdesk`; they are reported under the exchange the
 * command acts on, and the JSON `message` is the text without the `ExchangeId: …, msg:` prefix.
 */
export function reportError(error: unknown, json: boolean, exchange: string | undefined = runningExchange): number {
  const exchangeError = isExchangeError(error);
  const code = exchangeError ? EXIT_CODES[error.kind] : UNEXPECTED_EXIT_CODE;
  const message = error instanceof Error ? error.message : String(error);
  const label = exchangeError ? (error.exchange === "spotdesk" && exchange ? exchange : error.exchange) : undefined;
  process.stderr.write(
    `${exchangeError ? `ExchangeId: ${label}, msg: ${error.detail}` : `Unexpected error: ${message}`}\n`,
  );
  if (json) {
    const details = (error as { details?: ErrorDetails } | null)?.details;
    const body = exchangeError
      ? {
          exchange: label,
          kind: error.kind,
          ...(error.code === undefined ? {} : { code: error.code }),
          message: error.detail,
          exitCode: code,
        }
      : { ...(exchange ? { exchange } : {}), kind: "unexpected", message, exitCode: code };
    process.stderr.write(`${JSON.stringify({ error: { ...body, ...(details ?? {}) } })}\n`);
  }
  if (!exchangeError && process.env.SPOTDESK_DEBUG && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  return code;
}

/**
 * A commander usage error (unknown option, missing argument, …): commander has printed its
 * message; with --json the JSON error line follows, like every other error (exit 2).
 */
export function reportUsageError(message: string, json: boolean, exchange: string | undefined): number {
  if (json) {
    const text = message.replace(/^error:\s*/, "").trim();
    process.stderr.write(
      `${JSON.stringify({ error: { ...(exchange ? { exchange } : {}), kind: "usage", message: text, exitCode: USAGE_EXIT_CODE } })}\n`,
    );
  }
  return USAGE_EXIT_CODE;
}

/**
 * Wraps a command's work: builds the context from the global options, reports any error with its
 * exit code. Commander passes (…arguments, options, command); the command is always last.
 */
export function action<A extends unknown[]>(
  work: (ctx: Context, ...args: A) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    await runAction(
      command.optsWithGlobals<{ json?: boolean }>().json === true,
      commandExchange(command),
      () => createContext(command),
      (ctx) => work(ctx, ...(args.slice(0, -1) as A)),
    );
  };
}

/**
 * A command's work with its errors reported (the body of `action`, also run without commander
 * by the read path, cli/read.ts): `json` and `exchange` say how an error is reported until the
 * context exists.
 */
export async function runAction(
  json: boolean,
  exchange: string | undefined,
  context: () => Context,
  work: (ctx: Context) => Promise<void>,
): Promise<void> {
  runningExchange = exchange;
  let ctx: Context | undefined;
  try {
    ctx = context();
    json = ctx.out.json;
    await work(ctx);
  } catch (error) {
    // --dry-run ends with the request it caught instead of sending (cli/dry-run.ts)
    if (ctx?.dryRun && error instanceof Error && error.name === "DryRun") {
      const { isDryRun, printDryRun } = await import("./dry-run.js");
      if (isDryRun(error)) return printDryRun(ctx, exchange ?? ctx.options.exchange, error);
    }
    process.exitCode = reportError(error, json, exchange);
  }
}

let stdoutFailed = false;

/**
 * stdout could not take the result (a full disk, a pipe closed by its reader). A reader that
 * closed the pipe of a read command early (`spotdesk orders … | head -1`) is not an error; any
 * other failure, or any failure after an order went out, exits with kind `output` (11) and names
 * on stderr what was done, so a script does not send it again (docs/cli.md "Exit codes").
 */
export function onStdoutError(error: NodeJS.ErrnoException): void {
  if (stdoutFailed) return;
  stdoutFailed = true;
  const sent = sentSoFar();
  if (error.code === "EPIPE" && sent.length === 0) process.exit(0);
  const done = sent.length === 0 ? "" : `; done before it failed: ${sent.join("; ")}`;
  const failure = new ExchangeError(
    "spotdesk",
    `Could not write the result to stdout (${error.code ?? error.message})${done}`,
    { kind: "output" },
  );
  process.exit(reportError(failure, process.argv.includes("--json")));
}

/** stdout's failures go to onStdoutError, whether written directly or through its stream (cli/output.ts). */
export function handleStdoutErrors(): void {
  watchStdio(onStdoutError);
}

/**
 * Waits until stdout and stderr have handed over what was written, then exits. A stream that was
 * never built has nothing pending (writeStdout wrote directly) and is not built for this.
 */
export async function flushAndExit(code: number): Promise<never> {
  const drain = (stream: NodeJS.WriteStream | undefined) =>
    new Promise<void>((resolve) => {
      if (!stream || stream.destroyed || !stream.writable) resolve();
      else stream.write("", () => resolve());
    });
  await Promise.all([drain(openedStream("stdout")), drain(openedStream("stderr"))]);
  // A failed write reports through stdout's 'error' event, which comes after the write's callback.
  await new Promise((resolve) => setImmediate(resolve));
  process.exit(code);
}
