/**
 * `spotdesk serve backup FILE` and `spotdesk serve restore FILE` (docs/operations.md#backup-and-restore).
 *
 * Backup opens the data directory's SQLite file itself, beside a running serve (never through it,
 * and without its serve.lock): SQLite's online backup copies every page in one step, inside one
 * read transaction of a WAL database, so the copy is the database as of one commit while serve
 * keeps writing. The paper accounts (`paper/<account>.json` and its journal, docs/paper-store.md),
 * which hold paper's order history, are read under each account's own lock and stored in the same
 * file (table `backup_files`). The data key and the token secret are not in the copy: they are
 * secrets, kept apart from the data they protect (docs/operations.md#what-a-backup-holds).
 *
 * Restore takes serve.lock (a running serve refuses it, and no serve starts while it works),
 * checks the copy, moves the current database aside and puts the copy and its paper files in place.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { acquireLock } from "../exchanges/paper/lock.js";
import { ExchangeError } from "../lib/errors.js";
import { takeOwnerLock } from "./owner-lock.js";

/** the data directory's database file (server/index.ts DATABASE_FILE) */
const DATABASE_FILE = "spotdesk.sqlite";
const SERVE_LOCK_FILE = "serve.lock";
/** the tables every spotdesk database has: a file without them is not a spotdesk backup */
const REQUIRED_TABLES = ["meta", "users", "api_keys", "bots", "token_pairs"] as const;

export interface BackupReport {
  file: string;
  bytes: number;
  users: number;
  apiKeys: number;
  bots: number;
  paperFiles: number;
}

function failure(message: string, kind: "config" | "bad-input" = "config"): ExchangeError {
  return new ExchangeError("spotdesk", message, { kind });
}

/** Paper's files of the data directory, relative to it: every account's snapshot and journal. */
function paperFiles(dataDir: string): string[] {
  const dir = join(dataDir, "paper");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => join("paper", name));
}

/** One account's snapshot and journal as they are between two of its calls (under its lock). */
async function readPaperAccountFiles(dataDir: string, stateFile: string): Promise<[string, Buffer][]> {
  const absolute = join(dataDir, stateFile);
  const lock = await acquireLock(`${absolute}.lock`);
  try {
    const out: [string, Buffer][] = [[stateFile, readFileSync(absolute)]];
    const journal = absolute.replace(/\.json$/, ".journal");
    if (existsSync(journal)) out.push([stateFile.replace(/\.json$/, ".journal"), readFileSync(journal)]);
    return out;
  } finally {
    lock.release();
  }
}

function countRows(db: Database.Database, table: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** Refuses a file that is not an intact spotdesk database, naming what is wrong. */
function checkCopy(db: Database.Database, file: string): void {
  let verdict: string;
  try {
    verdict = (db.pragma("integrity_check", { simple: true }) as string) ?? "";
  } catch (error) {
    throw failure(`'${file}' is not a SQLite database: ${(error as Error).message}`, "bad-input");
  }
  if (verdict !== "ok") throw failure(`'${file}' fails PRAGMA integrity_check: ${verdict}`, "bad-input");
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
  );
  const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
  if (missing.length > 0)
    throw failure(`'${file}' is not a spotdesk backup: no table ${missing.join(", ")}`, "bad-input");
}

function fsyncFile(file: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A consistent copy of the data directory's database (and paper accounts) in `file`, written to a
 * temporary name beside it and renamed when complete and checked: a failed backup leaves no file.
 */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupReport> {
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source)) throw failure(`No database in '${dataDir}' (${DATABASE_FILE}): give the server's --data`);
  const target = resolve(file);
  if (existsSync(target)) throw failure(`'${file}' already exists: give the name of a new file`, "bad-input");
  if (!existsSync(dirname(target))) throw failure(`The directory of '${file}' does not exist`, "bad-input");
  const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  // the copy holds password hashes and sealed credentials: owner-only from its first byte
  writeFileSync(partial, "", { mode: 0o600 });
  try {
    const db = new Database(source, { fileMustExist: true });
    try {
      db.pragma("busy_timeout = 5000");
      // every page in one step, so one read transaction: the copy is one commit's database
      await db.backup(partial, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    const files: [string, Buffer][] = [];
    for (const stateFile of paperFiles(dataDir)) files.push(...(await readPaperAccountFiles(dataDir, stateFile)));
    const copy = new Database(partial, { fileMustExist: true });
    let report: Omit<BackupReport, "file" | "bytes">;
    try {
      // a single file, not a WAL database that needs its -wal beside it
      copy.pragma("journal_mode = DELETE");
      copy.exec("CREATE TABLE IF NOT EXISTS backup_files (path TEXT PRIMARY KEY, content BLOB NOT NULL)");
      const insert = copy.prepare("INSERT OR REPLACE INTO backup_files (path, content) VALUES (?, ?)");
      copy.transaction(() => {
        for (const [path, content] of files) insert.run(path, content);
      })();
      checkCopy(copy, file);
      report = {
        users: countRows(copy, "users"),
        apiKeys: countRows(copy, "api_keys"),
        bots: countRows(copy, "bots"),
        paperFiles: files.length,
      };
    } finally {
      copy.close();
    }
    fsyncFile(partial);
    renameSync(partial, target);
    return { file: target, bytes: readFileSync(target).length, ...report };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

export interface RestoreReport {
  dataDir: string;
  /** the database that was there before, moved aside (absent when there was none) */
  previous?: string;
  users: number;
  apiKeys: number;
  bots: number;
  paperFiles: number;
}

/**
 * Puts a backup in place in `dataDir` while no serve runs there (it takes serve.lock). The current
 * database, if any, is moved aside as `spotdesk.sqlite.before-restore-<time>`, not deleted.
 */
export function restoreDataDir(dataDir: string, file: string, now = Date.now()): RestoreReport {
  const source = resolve(file);
  if (!existsSync(source)) throw failure(`No backup file '${file}'`, "bad-input");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = takeOwnerLock(
    join(dataDir, SERVE_LOCK_FILE),
    "spotdesk serve restore",
    "restore replaces the database of a stopped serve: stop that one first",
  );
  try {
    const backup = new Database(source, { readonly: true, fileMustExist: true });
    let files: { path: string; content: Buffer }[];
    let counts: Omit<RestoreReport, "dataDir" | "previous" | "paperFiles">;
    try {
      checkCopy(backup, file);
      counts = {
        users: countRows(backup, "users"),
        apiKeys: countRows(backup, "api_keys"),
        bots: countRows(backup, "bots"),
      };
      const hasFiles = backup.prepare("SELECT 1 FROM sqlite_master WHERE name = 'backup_files'").get() !== undefined;
      files = hasFiles
        ? (backup.prepare("SELECT path, content FROM backup_files ORDER BY path").all() as typeof files)
        : [];
    } finally {
      backup.close();
    }
    for (const { path } of files)
      if (!/^paper\/[^/]+\.(json|journal)$/.test(path))
        throw failure(`'${file}' holds an unexpected file '${path}': not a spotdesk backup`, "bad-input");

    const target = join(dataDir, DATABASE_FILE);
    const previous = existsSync(target) ? moveAside(target, now) : undefined;
    const partial = `${target}.restoring`;
    writeFileSync(partial, readFileSync(source), { mode: 0o600 });
    const restored = new Database(partial);
    try {
      restored.exec("DROP TABLE IF EXISTS backup_files");
      restored.pragma("journal_mode = WAL");
    } finally {
      restored.close();
    }
    fsyncFile(partial);
    renameSync(partial, target);
    restorePaperFiles(dataDir, files, now);
    return { dataDir, ...(previous ? { previous } : {}), ...counts, paperFiles: files.length };
  } finally {
    lock.release();
  }
}

/** The current database, its WAL folded in first, under a name of its own beside it. */
function moveAside(target: string, now: number): string {
  const db = new Database(target, { fileMustExist: true });
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.pragma("journal_mode = DELETE");
  } finally {
    db.close();
  }
  const aside = `${target}.before-restore-${now}`;
  renameSync(target, aside);
  for (const suffix of ["-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
  return aside;
}

/** The backup's paper accounts replace the data directory's (the old ones go to paper.before-restore-<time>). */
function restorePaperFiles(dataDir: string, files: readonly { path: string; content: Buffer }[], now: number): void {
  const paper = join(dataDir, "paper");
  if (existsSync(paper)) renameSync(paper, `${paper}.before-restore-${now}`);
  if (files.length === 0) return;
  mkdirSync(paper, { recursive: true, mode: 0o700 });
  for (const { path, content } of files) writeFileSync(join(dataDir, path), content, { mode: 0o600 });
}
