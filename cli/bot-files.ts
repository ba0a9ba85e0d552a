/**
 * A CLI bot's name, state file and lock (docs/bots.md#safety-net "One runner per bot"):
 * `<data dir>/bots/<name>.json` holds its last state (the runner's memory, resumed at the next
 * start of the same setup) and `<name>.lock` its one runner.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExchangeError } from "../lib/errors.js";
import type { BotState } from "../server/bots/runner.js";

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** JSON with sorted keys: the same setup always reads the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export interface BotIdentity {
  exchange: string;
  account: string;
  type: string;
  setup: unknown;
}

/** A hash of the whole setup, account and exchange: two different bots never share it. */
export function fingerprintOf(identity: BotIdentity): string {
  return createHash("sha256")
    .update(`${identity.exchange}\n${identity.account}\n${identity.type}\n${canonical(identity.setup)}`)
    .digest("hex");
}

/** `--name`, checked; when absent, `<type>-<12 hex of the fingerprint>`. */
export function botNameOf(given: string | undefined, identity: BotIdentity): string {
  if (given === undefined) return `${identity.type}-${fingerprintOf(identity).slice(0, 12)}`;
  if (!NAME_RE.test(given))
    throw new ExchangeError(
      "spotdesk",
      `Invalid --name '${given}': use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)`,
      { kind: "bad-input" },
    );
  return given;
}

export interface BotFiles {
  dir: string;
  state: string;
  lock: string;
}

export function botFiles(dataDir: string, name: string): BotFiles {
  const dir = join(dataDir, "bots");
  return { dir, state: join(dir, `${name}.json`), lock: join(dir, `${name}.lock`) };
}

/** What the state file holds. */
export interface StoredBot {
  name: string;
  botType: string;
  exchange: string;
  account: string;
  pair: string;
  fingerprint: string;
  setup: unknown;
  savedAt: string;
  state: BotState;
}

/**
 * The stored state when it is this bot's (same fingerprint), `other` when the file belongs to
 * another setup under the same name, undefined when there is none. An unreadable file is an error
 * naming it (it is never overwritten blindly).
 */
export function readStoredBot(file: string, fingerprint: string): StoredBot | "other" | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let stored: Partial<StoredBot>;
  try {
    stored = JSON.parse(text) as Partial<StoredBot>;
  } catch {
    throw new ExchangeError(
      "spotdesk",
      `The bot's state file '${file}' is not JSON: move it away to start the bot afresh`,
      { kind: "bad-input" },
    );
  }
  if (typeof stored !== "object" || stored === null || typeof stored.state !== "object" || stored.state === null)
    throw new ExchangeError("spotdesk", `The bot's state file '${file}' holds no state: move it away to start afresh`, {
      kind: "bad-input",
    });
  return stored.fingerprint === fingerprint ? (stored as StoredBot) : "other";
}

/** Replaces the state file (a temp file renamed over it: a reader never sees half of it). */
export function writeStoredBot(file: string, bot: StoredBot): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(bot)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

export function ensureBotsDir(files: BotFiles): void {
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
}
