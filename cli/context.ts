import type { Command } from "commander";
import { ExchangeError } from "../lib/errors.js";
import { Output } from "./output.js";

/** The options every command accepts (docs/product.md#cli-surface). */
export interface GlobalOptions {
  exchange: string;
  account: string;
  baseUrl?: string;
  wsUrl?: string;
  proxy?: string;
  json?: boolean;
}

export interface Context {
  options: GlobalOptions;
  /** true when --exchange was typed (or came from somewhere other than the default) */
  exchangeGiven: boolean;
  /** true when --account was typed: it then wins over SPOTDESK_API_* (docs/orders.md "Which account") */
  accountGiven: boolean;
  out: Output;
  /** the CLI's clock; paper takes its time from it (see cliClock) */
  now: () => number;
  /** --dry-run: build and sign the request, print it masked, send nothing (cli/dry-run.ts) */
  dryRun: boolean;
}

export function createContext(command: Command): Context {
  return newContext(
    command.optsWithGlobals<GlobalOptions>(),
    command.getOptionValueSourceWithGlobals("exchange") !== "default",
    command.getOptionValueSourceWithGlobals("account") !== "default",
    command.opts<{ dryRun?: boolean }>().dryRun === true,
  );
}

/** The context of parsed options, by commander or by the read path's parser (cli/quick.ts). */
export function newContext(
  options: GlobalOptions,
  exchangeGiven: boolean,
  accountGiven: boolean,
  dryRun = false,
): Context {
  return { options, exchangeGiven, accountGiven, out: new Output(options.json === true), now: cliClock(), dryRun };
}

/**
 * The clock handed to paper. Two knobs exist for tests and demos, so a test can move the
 * simulated market forward without waiting: SPOTDESK_PAPER_NOW pins the time (ms since the epoch
 * or an ISO date); SPOTDESK_CLOCK_OFFSET_MS shifts the real clock.
 */
export function cliClock(env: NodeJS.ProcessEnv = process.env): () => number {
  const pinned = env.SPOTDESK_PAPER_NOW;
  if (pinned !== undefined && pinned !== "") {
    const ms = /^\d+$/.test(pinned) ? Number(pinned) : Date.parse(pinned);
    if (!Number.isFinite(ms)) {
      throw new ExchangeError(
        "spotdesk",
        `Invalid SPOTDESK_PAPER_NOW '${pinned}': expected ms since the epoch or an ISO date`,
        {
          kind: "bad-input",
        },
      );
    }
    return () => ms;
  }
  const offset = env.SPOTDESK_CLOCK_OFFSET_MS;
  if (offset !== undefined && offset !== "") {
    const ms = Number(offset);
    if (!Number.isFinite(ms)) {
      throw new ExchangeError("spotdesk", `Invalid SPOTDESK_CLOCK_OFFSET_MS '${offset}': expected a number of ms`, {
        kind: "bad-input",
      });
    }
    return () => Date.now() + ms;
  }
  return Date.now;
}

/** docs/decisions.md#d12: --proxy, else SPOTDESK_PROXY, else the standard HTTPS_PROXY. */
export function proxyUrl(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [options.proxy, env.SPOTDESK_PROXY, env.HTTPS_PROXY, env.https_proxy];
  return candidates.find((value) => value !== undefined && value !== "");
}

/** Where paper keeps its state: SPOTDESK_DATA_DIR, else paper's own default. */
export function paperDataDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.SPOTDESK_DATA_DIR;
  return dir === undefined || dir === "" ? undefined : dir;
}
