import type { Command } from "commander";
import { action } from "../run.js";

export interface ReportOptions {
  quote: string;
  format?: string;
  /** undefined: report and keep it; false (--no-history): report only; true (--history): print the kept runs */
  history?: boolean;
  since?: string;
  priceTimeout: string;
  baseUrlOf: string[];
  wsUrlOf: string[];
}

const collectList = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * `spotdesk report`: every account valued in one quote currency, with the change since the last
 * run, for cron (docs/report.md). Everything it needs loads when it runs.
 */
export function registerReport(program: Command): void {
  program
    .command("report")
    .description(
      "every stored and paper account valued in one currency, with totals, allocation and the change since the last run (exit 10: some accounts failed)",
    )
    .option("--quote <currency>", "the currency values are in", "USDT")
    .option("--format <format>", "table, json or csv (--json is --format json)")
    .option("--history", "print the kept runs (at, quote, total, change) instead of a new report")
    .option("--no-history", "do not keep this run in the history")
    .option("--since <duration>", "with --history: only runs of the last DURATION (90m, 12h, 7d, 2w)")
    .option("--price-timeout <seconds>", "how long a book may take before its pair counts as absent", "5")
    .option("--base-url-of <id=url>", "REST base URL of one exchange (repeatable)", collectList, [])
    .option("--ws-url-of <id=url>", "websocket URL of one exchange's public feed (repeatable)", collectList, [])
    .addHelpText(
      "after",
      "\n--exchange and --account take comma-separated lists to narrow the report (default: every account).",
    )
    .action(
      action(async (ctx, options: ReportOptions) => {
        const { runReport } = await import("../report/run.js");
        await runReport(ctx, options);
      }),
    );
}
