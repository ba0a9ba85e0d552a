import type { Command } from "commander";
import { EXIT_CODES, isExchangeError } from "../lib/errors.js";
import { type Context, createContext } from "./context.js";

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

/** Prints an error on stderr and returns its exit code (lib/errors.ts EXIT_CODES, 1 = unexpected). */
export function reportError(error: unknown, json: boolean): number {
  const exchangeError = isExchangeError(error);
  const code = exchangeError ? EXIT_CODES[error.kind] : UNEXPECTED_EXIT_CODE;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${exchangeError ? message : `Unexpected error: ${message}`}\n`);
  if (json) {
    const details = (error as { details?: ErrorDetails } | null)?.details;
    const body = exchangeError
      ? { ...error.toJSON(), exitCode: code }
      : { kind: "unexpected", message, exitCode: code };
    process.stderr.write(`${JSON.stringify({ error: { ...body, ...(details ?? {}) } })}\n`);
  }
  if (!exchangeError && process.env.SPOTDESK_DEBUG && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  return code;
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
    let json = command.optsWithGlobals<{ json?: boolean }>().json === true;
    try {
      const ctx = createContext(command);
      json = ctx.out.json;
      await work(ctx, ...(args.slice(0, -1) as A));
    } catch (error) {
      process.exitCode = reportError(error, json);
    }
  };
}

/** Waits until stdout and stderr have handed over what was written, then exits. */
export async function flushAndExit(code: number): Promise<never> {
  const drain = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) resolve();
      else stream.write("", () => resolve());
    });
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}
