/**
 * The history of `spotdesk report` (docs/report.md "History"): one SQLite file,
 * `report-history.sqlite` in the data directory. better-sqlite3 is loaded only here, and this
 * module only by `report`, so no other command's start pays for it. Amounts and values are kept as
 * decimal strings (TEXT), times as UTC ISO 8601.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { Decimal } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { accountKey, type PreviousRun, type Report } from "./model.js";

export const HISTORY_FILE = "report-history.sqlite";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS report_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  quote TEXT NOT NULL,
  total TEXT NOT NULL,
  accounts INTEGER NOT NULL,
  failed INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS report_runs_at ON report_runs (at);
CREATE TABLE IF NOT EXISTS report_accounts (
  run_id INTEGER NOT NULL REFERENCES report_runs (id) ON DELETE CASCADE,
  exchange TEXT NOT NULL,
  account TEXT NOT NULL,
  status TEXT NOT NULL,
  total TEXT,
  error_kind TEXT,
  error_message TEXT,
  PRIMARY KEY (run_id, exchange, account)
);
CREATE TABLE IF NOT EXISTS report_assets (
  run_id INTEGER NOT NULL REFERENCES report_runs (id) ON DELETE CASCADE,
  exchange TEXT NOT NULL,
  account TEXT NOT NULL,
  asset TEXT NOT NULL,
  amount TEXT NOT NULL,
  value TEXT,
  PRIMARY KEY (run_id, exchange, account, asset)
);
`;

/** One kept run, as `report --history` prints it. */
export interface HistoryRun {
  at: string;
  quote: string;
  total: string;
  /**
   * change of value of the accounts valued in both this run and the previous kept run in the same
   * quote (docs/report.md "History"); null for the first
   */
  change: string | null;
  /** value of the accounts valued now but not in the previous run (not a gain); null for the first */
  added: string | null;
  /** value the previous run had in accounts not valued now (not a loss); null for the first */
  removed: string | null;
  accounts: number;
  failed: number;
}

export function historyFile(dataDir: string): string {
  return join(dataDir, HISTORY_FILE);
}

export class ReportHistory {
  private constructor(private readonly db: BetterSqlite3.Database) {}

  static async open(file: string): Promise<ReportHistory> {
    const { default: Database } = await import("better-sqlite3");
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      // Balances are nobody else's business: the file (and SQLite's -wal and -shm, which take
      // its mode) is readable by the user only. An empty file is an empty database.
      if (!existsSync(file)) writeFileSync(file, "", { mode: 0o600 });
      const db = new Database(file);
      db.pragma("journal_mode = WAL");
      db.pragma("busy_timeout = 5000");
      db.pragma("foreign_keys = ON");
      db.exec(SCHEMA);
      return new ReportHistory(db);
    } catch (error) {
      throw new ExchangeError("spotdesk", `Cannot open the report history ${file}: ${(error as Error).message}`, {
        kind: "bad-input",
      });
    }
  }

  /** The latest kept run in this quote, with what each account held then. */
  previous(quote: string): PreviousRun | undefined {
    const run = this.db.prepare("SELECT id, at FROM report_runs WHERE quote = ? ORDER BY id DESC LIMIT 1").get(quote) as
      | { id: number; at: string }
      | undefined;
    if (!run) return undefined;
    const accountTotals = new Map<string, string>();
    for (const row of this.db
      .prepare("SELECT exchange, account, total FROM report_accounts WHERE run_id = ? AND status = 'ok'")
      .all(run.id) as { exchange: string; account: string; total: string }[]) {
      accountTotals.set(accountKey(row.exchange, row.account), row.total);
    }
    const assets = new Map<string, { amount: string; value: string | null }>();
    for (const row of this.db
      .prepare("SELECT exchange, account, asset, amount, value FROM report_assets WHERE run_id = ?")
      .all(run.id) as { exchange: string; account: string; asset: string; amount: string; value: string | null }[]) {
      assets.set(`${accountKey(row.exchange, row.account)}/${row.asset}`, { amount: row.amount, value: row.value });
    }
    return { at: run.at, accountTotals, assets };
  }

  /** Keeps a run in one transaction: all of it or nothing. Assets at zero are not kept. */
  record(report: Report): void {
    const insertRun = this.db.prepare(
      "INSERT INTO report_runs (at, quote, total, accounts, failed) VALUES (?, ?, ?, ?, ?)",
    );
    const insertAccount = this.db.prepare(
      "INSERT INTO report_accounts (run_id, exchange, account, status, total, error_kind, error_message) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const insertAsset = this.db.prepare(
      "INSERT INTO report_assets (run_id, exchange, account, asset, amount, value) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.db.transaction(() => {
      const failed = report.accounts.filter((a) => a.status === "failed").length;
      const { lastInsertRowid } = insertRun.run(report.at, report.quote, report.total, report.accounts.length, failed);
      for (const a of report.accounts) {
        insertAccount.run(
          lastInsertRowid,
          a.exchange,
          a.account,
          a.status,
          a.total,
          a.error?.kind ?? null,
          a.error?.message ?? null,
        );
        for (const line of a.assets) {
          if (new Decimal(line.amount).isZero()) continue;
          insertAsset.run(lastInsertRowid, a.exchange, a.account, line.asset, line.amount, line.value);
        }
      }
    })();
  }

  /** Kept runs at or after `sinceIso` (all when undefined), oldest first. */
  runs(sinceIso?: string): HistoryRun[] {
    const rows = this.db
      .prepare("SELECT id, at, quote, total, accounts, failed FROM report_runs ORDER BY id")
      .all() as (Omit<HistoryRun, "change" | "added" | "removed"> & { id: number })[];
    const valued = this.db.prepare(
      "SELECT exchange, account, total FROM report_accounts WHERE run_id = ? AND status = 'ok' AND total IS NOT NULL",
    );
    const lastAccounts = new Map<string, Map<string, string>>();
    const out: HistoryRun[] = [];
    for (const { id, ...row } of rows) {
      const now = new Map(
        (valued.all(id) as { exchange: string; account: string; total: string }[]).map((r) => [
          accountKey(r.exchange, r.account),
          r.total,
        ]),
      );
      const before = lastAccounts.get(row.quote);
      lastAccounts.set(row.quote, now);
      if (sinceIso !== undefined && row.at < sinceIso) continue;
      out.push({ ...row, ...(before ? compareRuns(before, now) : { change: null, added: null, removed: null }) });
    }
    return out;
  }

  close(): void {
    this.db.close();
  }
}

/** docs/report.md "History": the change of the accounts in both runs, apart from those added or removed. */
function compareRuns(
  before: ReadonlyMap<string, string>,
  now: ReadonlyMap<string, string>,
): { change: string; added: string; removed: string } {
  let change = new Decimal(0);
  let added = new Decimal(0);
  let removed = new Decimal(0);
  for (const [key, total] of now) {
    const then = before.get(key);
    if (then === undefined) added = added.plus(total);
    else change = change.plus(new Decimal(total).minus(then));
  }
  for (const [key, total] of before) if (!now.has(key)) removed = removed.plus(total);
  return { change: change.toFixed(), added: added.toFixed(), removed: removed.toFixed() };
}
