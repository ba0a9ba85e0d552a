/**
 * The directories the CLI writes: paper's data directory and the credential store's. One that
 * cannot be created or written is a `config` error (exit 2) that names the variable to set
 * (docs/cli.md "Exit codes"), never an unexpected failure or a wait on a lock that cannot exist.
 */
import { accessSync, constants, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { ExchangeError } from "../lib/errors.js";

/** File-system failures that mean "this place cannot be written", not a bug. */
const FS_CODES = new Set(["EACCES", "EPERM", "ENOTDIR", "EROFS", "ENOENT", "EEXIST", "ENOSPC", "EDQUOT", "ELOOP"]);

export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && FS_CODES.has(String((error as NodeJS.ErrnoException).code));
}

export interface DirVariables {
  /** what the directory is, in the user's words: "paper's data directory" */
  what: string;
  /** the variable that sets it: SPOTDESK_DATA_DIR */
  variable: string;
  /** the variable its default hangs from besides HOME: XDG_DATA_HOME */
  xdg: string;
}

export const DATA_DIR: DirVariables = {
  what: "the data directory",
  variable: "SPOTDESK_DATA_DIR",
  xdg: "XDG_DATA_HOME",
};
export const CONFIG_DIR: DirVariables = {
  what: "the credential store's directory",
  variable: "SPOTDESK_CONFIG_DIR",
  xdg: "XDG_CONFIG_HOME",
};

/** The `config` error for a directory that cannot be created or written. */
export function dirError(
  dir: string,
  error: NodeJS.ErrnoException,
  vars: DirVariables,
  exchange = "spotdesk",
  env: NodeJS.ProcessEnv = process.env,
): ExchangeError {
  const set = env[vars.variable];
  const why = error.code ?? error.message;
  const fix =
    set !== undefined && set !== ""
      ? `set ${vars.variable} (now '${set}') to a writable directory`
      : `set ${vars.variable} to a writable directory (the default follows HOME${env[vars.xdg] ? ` and ${vars.xdg}` : ""}; HOME is '${env.HOME ?? homedir()}')`;
  return new ExchangeError(exchange, `Cannot write ${vars.what} '${dir}' (${why}): ${fix}`, {
    kind: "config",
    cause: error,
  });
}

/** Creates `dir` when missing and checks it can be written; else dirError. */
export function ensureWritableDir(dir: string, vars: DirVariables, exchange?: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    if (isFsError(error)) throw dirError(dir, error, vars, exchange);
    throw error;
  }
}
