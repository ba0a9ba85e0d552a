/**
 * `report --history` (docs/report.md "History"): the change of value of the accounts present in
 * both runs, apart from the value of accounts added or removed, on a real SQLite file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ReportHistory } from "../../cli/report/history.js";
import type { Report } from "../../cli/report/model.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A kept run of ok accounts with the given totals (the fields the history keeps). */
function run(at: string, totals: Record<string, string>): Report {
  const accounts = Object.entries(totals).map(([key, total]) => {
    const [exchange, account] = key.split("/") as [string, string];
    return { exchange, account, status: "ok", total, error: null, assets: [] };
  });
  const total = Object.values(totals)
    .reduce((sum, t) => sum + Number(t), 0)
    .toFixed(2);
  return { at, quote: "USDT", total, accounts } as unknown as Report;
}

describe("report --history with an account added and one removed", () => {
  it("counts +36.51 for the accounts in both runs, not +958,692.51: the added account's value is apart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "spotdesk-history-"));
    dirs.push(dir);
    const history = await ReportHistory.open(join(dir, "report-history.sqlite"));
    try {
      history.record(run("2026-01-01T00:00:00.000Z", { "paper/alice": "1000.00", "gate/old": "5.00" }));
      history.record(run("2026-01-02T00:00:00.000Z", { "paper/alice": "1036.51", "okx/desk": "958661.00" }));
      const [first, second] = history.runs();
      expect(first).toMatchObject({ change: null, added: null, removed: null });
      expect(second).toMatchObject({ change: "36.51", added: "958661", removed: "5" });
    } finally {
      history.close();
    }
  });
});
