/**
 * Printing `spotdesk report` (docs/report.md "Output"): a table for people, JSON and CSV for
 * machines. JSON and CSV carry the exact decimal strings; only the table rounds, for reading.
 */
import { Decimal } from "../../lib/decimal.js";
import type { Align, Cell, Output } from "../output.js";
import type { HistoryRun } from "./history.js";
import type { Report } from "./model.js";

export type ReportFormat = "table" | "json" | "csv";

/** The CSV columns of a report, in order (README "spotdesk report": a contract). */
export const REPORT_CSV_COLUMNS = [
  "type",
  "at",
  "quote",
  "exchange",
  "account",
  "asset",
  "free",
  "locked",
  "amount",
  "price",
  "value",
  "allocation",
  "amount_change",
  "value_change",
  "error_kind",
  "error_message",
] as const;

/** The CSV columns of `report --history`. */
export const HISTORY_CSV_COLUMNS = [
  "at",
  "quote",
  "total",
  "change",
  "added",
  "removed",
  "accounts",
  "failed",
] as const;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(fields: readonly (string | number | null | undefined)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

export function reportCsv(report: Report): string {
  type Row = Partial<Record<(typeof REPORT_CSV_COLUMNS)[number], string | number | null>>;
  const rows: Row[] = [];
  const base = { at: report.at, quote: report.quote };
  for (const a of report.accounts) {
    if (a.status === "failed") {
      rows.push({
        type: "failed",
        ...base,
        exchange: a.exchange,
        account: a.account,
        error_kind: a.error?.kind,
        error_message: a.error?.message,
      });
      continue;
    }
    for (const line of a.assets) {
      rows.push({
        type: "asset",
        ...base,
        exchange: a.exchange,
        account: a.account,
        asset: line.asset,
        free: line.free,
        locked: line.locked,
        amount: line.amount,
        price: line.price,
        value: line.value,
        allocation: line.allocation,
        amount_change: line.change?.amount,
        value_change: line.change?.value,
      });
    }
    rows.push({
      type: "account",
      ...base,
      exchange: a.exchange,
      account: a.account,
      value: a.total,
      allocation: a.allocation,
      value_change: a.change,
    });
  }
  for (const e of report.exchanges)
    rows.push({ type: "exchange", ...base, exchange: e.exchange, value: e.total, allocation: e.allocation });
  rows.push({ type: "total", ...base, value: report.total, allocation: "100", value_change: report.change });
  return [csvLine(REPORT_CSV_COLUMNS), ...rows.map((row) => csvLine(REPORT_CSV_COLUMNS.map((c) => row[c])))].join("");
}

export function historyCsv(runs: readonly HistoryRun[]): string {
  return [csvLine(HISTORY_CSV_COLUMNS), ...runs.map((r) => csvLine(HISTORY_CSV_COLUMNS.map((c) => r[c])))].join("");
}

const STABLE = new Set(["USDT", "USDC", "USD", "FDUSD", "DAI", "TUSD", "EUR"]);

/** A value for reading: two decimals in a dollar-like quote, eight otherwise. */
function shown(value: string | null, quote: string): string {
  if (value === null) return "no price";
  return new Decimal(value).toFormat(STABLE.has(quote) ? 2 : 8, Decimal.ROUND_HALF_UP, {
    decimalSeparator: ".",
    groupSeparator: "",
    groupSize: 0,
  });
}

function signed(value: string | null | undefined, quote: string): Cell {
  if (value === null || value === undefined) return "";
  const text = shown(value, quote);
  const d = new Decimal(value);
  if (d.isZero()) return text;
  return d.isPositive() ? { text: `+${text}`, style: "green" } : { text, style: "red" };
}

const pct = (value: string | null): string => (value === null ? "" : `${value}%`);

export function printReport(out: Output, report: Report): void {
  const q = report.quote;
  out.text(`Balances at ${report.at}, valued in ${q}${report.since ? `; change since ${report.since}` : ""}`);
  if (report.accounts.length === 0) {
    out.text("No accounts: add one with `spotdesk accounts add NAME --exchange ID`, or use paper");
    return;
  }
  const headers = ["Exchange", "Account", "Asset", "Amount", "Price", `Value (${q})`, "Alloc", "Change"];
  const align: Align[] = ["left", "left", "left", "right", "right", "right", "right", "right"];
  const rows: Cell[][] = [];
  for (const a of report.accounts) {
    if (a.status === "failed") {
      rows.push([a.exchange, a.account, { text: "FAILED", style: "red" }]);
      continue;
    }
    for (const line of a.assets) {
      rows.push([
        a.exchange,
        a.account,
        line.asset,
        line.amount,
        line.price ?? "",
        line.value === null ? { text: "no price", style: "yellow" } : shown(line.value, q),
        pct(line.allocation),
        line.change === null
          ? ""
          : line.change.value !== null
            ? signed(line.change.value, q)
            : amountChange(line.change.amount, line.asset),
      ]);
    }
    rows.push([
      a.exchange,
      a.account,
      { text: "total", style: "bold" },
      "",
      "",
      { text: shown(a.total, q), style: "bold" },
      pct(a.allocation),
      signed(a.change, q),
    ]);
  }
  out.table(headers, rows, align);
  const failedAccounts = report.accounts.filter((a) => a.status === "failed");
  if (failedAccounts.length > 0) {
    out.text("");
    out.table(
      ["Failed", "Account", "Kind", "Message"],
      failedAccounts.map((a) => [
        a.exchange,
        a.account,
        { text: a.error?.kind ?? "", style: "red" },
        a.error?.message ?? "",
      ]),
      ["left", "left", "left", "left"],
    );
  }
  out.text("");
  out.table(
    ["Exchange", "Accounts", "Failed", `Total (${q})`, "Alloc"],
    report.exchanges.map((e) => [
      e.exchange,
      String(e.accounts),
      e.failed > 0 ? { text: String(e.failed), style: "red" } : "0",
      e.total === null ? { text: "no data", style: "red" } : shown(e.total, q),
      pct(e.allocation),
    ]),
    ["left", "right", "right", "right", "right"],
  );
  out.text("");
  const changeCell = signed(report.change, q);
  const change =
    report.change === null ? "" : `  (change ${typeof changeCell === "string" ? changeCell : changeCell.text})`;
  out.text(`Total ${shown(report.total, q)} ${q}${change}`);
  const failed = report.accounts.filter((a) => a.status === "failed").length;
  if (failed > 0)
    out.text(`PARTIAL: ${failed} of ${report.accounts.length} accounts failed (their value is not in the totals)`);
  const unpriced = [...new Set(report.accounts.flatMap((a) => a.unpriced))];
  if (unpriced.length > 0) out.text(`No price for ${unpriced.join(", ")} (not in the totals)`);
}

function amountChange(amount: string, asset: string): Cell {
  const d = new Decimal(amount);
  if (d.isZero()) return "0";
  return { text: `${d.isPositive() ? "+" : ""}${amount} ${asset}`, style: d.isPositive() ? "green" : "red" };
}

export function printHistory(out: Output, runs: readonly HistoryRun[]): void {
  if (runs.length === 0) {
    out.text("No kept reports");
    return;
  }
  out.table(
    ["At (UTC)", "Quote", "Total", "Change", "Added", "Removed", "Accounts", "Failed"],
    runs.map((r) => [
      r.at,
      r.quote,
      shown(r.total, r.quote),
      signed(r.change, r.quote),
      r.added === null ? "" : shown(r.added, r.quote),
      r.removed === null ? "" : shown(r.removed, r.quote),
      String(r.accounts),
      String(r.failed),
    ]),
    ["left", "left", "right", "right", "right", "right", "right", "right"],
  );
}
