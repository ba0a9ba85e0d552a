import { randomHex } from "../../lib/random.js";
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ExchangeError } from "../../lib/errors.js";
import { acquireLock, type LockOptions } from "./lock.js";
import type { PaperOrderRecord, PaperState } from "./state.js";
import { STATE_VERSION } from "./state.js";

/**
 * Where and how a paper account lives on disk: `<dataDir>/paper/<account>.json`, changed only
 * under its lock file (`<account>.json.lock`) and only by atomic replacement (temp file, fsync,
 * rename), so a reader never sees half a file and a crash never loses the previous state.
 * A file that is not a paper state is an error naming it, and is never overwritten.
 */

/**
 * spotdesk's data directory: SPOTDESK_DATA_DIR, else the platform's user data directory
 * ($XDG_DATA_HOME/spotdesk or ~/.local/share/spotdesk; ~/Library/Application Support/spotdesk on
 * macOS; %LOCALAPPDATA%\spotdesk on Windows).
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SPOTDESK_DATA_DIR) return env.SPOTDESK_DATA_DIR;
  const home = homedir();
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "spotdesk");
  if (platform === "darwin") return join(home, "Library", "Application Support", "spotdesk");
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "spotdesk");
}

const ACCOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function assertAccountName(account: string): string {
  if (!ACCOUNT_RE.test(account)) {
    throw new ExchangeError(
      "paper",
      `Invalid paper account name '${account}': use letters, digits, '.', '_' or '-' (at most 64)`,
      {
        kind: "bad-input",
      },
    );
  }
  return account;
}

/** The state file of a paper account. */
export function paperStateFile(dataDir: string, account: string): string {
  return join(dataDir, "paper", `${assertAccountName(account)}.json`);
}

function corrupt(file: string, reason: string): ExchangeError {
  return new ExchangeError(
    "paper",
    `Corrupt paper state file '${file}': ${reason}. It was left untouched; move it away to start the account afresh.`,
    { kind: "bad-input" },
  );
}

const DECIMAL_RE = /^\d+(\.\d+)?$/;

/**
 * Checks a state file's text by hand (no schema library: every CLI call on paper reads this file,
 * and start-up time counts).
 */
export function parseState(text: string, file: string): PaperState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `not JSON (${(error as Error).message})`);
  }
  const fail = (what: string): never => {
    throw corrupt(file, what);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("not an object");
  const state = value as Record<string, unknown>;
  if (state.version !== STATE_VERSION) fail(`unknown version ${JSON.stringify(state.version)}`);
  for (const field of ["createdAt", "lastBucket", "nextId"] as const) {
    if (!Number.isSafeInteger(state[field])) fail(`'${field}' is not an integer`);
  }
  if (typeof state.account !== "string") fail("'account' is not a string");
  const balances = state.balances;
  if (typeof balances !== "object" || balances === null || Array.isArray(balances)) fail("'balances' is not an object");
  for (const [currency, row] of Object.entries(balances as Record<string, unknown>)) {
    const r = row as { free?: unknown; locked?: unknown } | null;
    if (
      !r ||
      typeof r.free !== "string" ||
      typeof r.locked !== "string" ||
      !DECIMAL_RE.test(r.free) ||
      !DECIMAL_RE.test(r.locked)
    ) {
      fail(`balance of '${currency}' is not {free, locked} as non-negative decimal strings`);
    }
  }
  if (!Array.isArray(state.orders)) fail("'orders' is not a list");
  (state.orders as unknown[]).forEach((order, i) => {
    if (!isOrderRecord(order)) fail(`order #${i + 1} is malformed`);
  });
  const taken = state.taken;
  if (typeof taken !== "object" || taken === null || Array.isArray(taken)) fail("'taken' is not an object");
  for (const [key, entry] of Object.entries(taken as Record<string, unknown>)) {
    if (!Array.isArray(entry) || entry.length !== 2 || !entry.every((n) => Number.isSafeInteger(n)))
      fail(`taken entry '${key}' is malformed`);
  }
  return value as PaperState;
}

function isOrderRecord(value: unknown): value is PaperOrderRecord {
  if (typeof value !== "object" || value === null) return false;
  const o = value as Record<string, unknown>;
  return (
    typeof o.id === "string" &&
    typeof o.clientOrderId === "string" &&
    typeof o.pair === "string" &&
    (o.side === "Buy" || o.side === "Sell") &&
    typeof o.price === "string" &&
    DECIMAL_RE.test(o.price) &&
    typeof o.amount === "string" &&
    DECIMAL_RE.test(o.amount) &&
    typeof o.filled === "string" &&
    DECIMAL_RE.test(o.filled) &&
    (o.status === "open" || o.status === "closed" || o.status === "canceled") &&
    Number.isSafeInteger(o.timestamp) &&
    Number.isSafeInteger(o.updatedAt) &&
    Number.isSafeInteger(o.bucket)
  );
}

/** Writes a file so that readers see either the old or the new content, never a part. */
export function writeFileAtomic(file: string, text: string): void {
  const temp = `${file}.${process.pid}.${randomHex(4)}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, file);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  // The rename itself must reach the disk too; not every platform can fsync a directory.
  try {
    const dir = openSync(dirname(file), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // best effort
  }
}

export interface AccountStoreOptions extends LockOptions {
  dataDir: string;
  account: string;
}

/** What a transaction returns: its result, the state, and whether that state must be saved. */
export interface Outcome<T> {
  result: T;
  state: PaperState;
  save: boolean;
}

export class AccountStore {
  readonly file: string;
  readonly lockFile: string;
  private readonly lockOptions: LockOptions;

  constructor(options: AccountStoreOptions) {
    this.file = paperStateFile(options.dataDir, options.account);
    this.lockFile = `${this.file}.lock`;
    this.lockOptions = {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.staleMs !== undefined ? { staleMs: options.staleMs } : {}),
    };
  }

  /** The state on disk, or undefined when the account does not exist yet. Reads need no lock. */
  read(): PaperState | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new ExchangeError("paper", `Cannot read paper state file '${this.file}': ${(error as Error).message}`, {
        kind: "bad-input",
        cause: error,
      });
    }
    return parseState(text, this.file);
  }

  /**
   * One read-modify-write under the account's lock. `work` gets the current state (undefined when
   * the account is new) and returns the state to keep; nothing is written when it throws or asks
   * not to save.
   */
  async transact<T>(work: (existing: PaperState | undefined) => Outcome<T>): Promise<T> {
    mkdirSync(dirname(this.file), { recursive: true });
    for (let attempt = 0; ; attempt++) {
      const lock = await acquireLock(this.lockFile, this.lockOptions);
      try {
        const outcome = work(this.read());
        if (outcome.save) {
          // Our lock was broken as stale (a pause longer than staleMs): start over rather than
          // overwrite what the new holder wrote.
          if (!lock.isHeld()) {
            if (attempt < 3) continue;
            throw new ExchangeError("paper", `Lost the lock on '${this.file}' repeatedly; nothing was saved`, {
              kind: "network",
              code: "ELOCKED",
            });
          }
          writeFileAtomic(this.file, JSON.stringify(outcome.state));
        }
        return outcome.result;
      } finally {
        lock.release();
      }
    }
  }
}
