import type { Command } from "commander";
import { ExchangeError } from "../../lib/errors.js";
import type { ExchangeId } from "../../lib/types.js";
import type { Context } from "../context.js";
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

const bad = (message: string) => new ExchangeError("spotdesk", message, { kind: "bad-input" });

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
    .action(action(async (ctx, options: ReportOptions) => runReport(ctx, options)));
}

async function runReport(ctx: Context, options: ReportOptions): Promise<void> {
  const format = reportFormat(ctx, options.format);
  const [{ PARTIAL_EXIT_CODE }, { printHistory, historyCsv }] = await Promise.all([
    import("../report/model.js"),
    import("../report/render.js"),
  ]);
  const { defaultDataDir } = await import("../../exchanges/paper/index.js");
  const { historyFile, ReportHistory } = await import("../report/history.js");
  const file = historyFile(defaultDataDir());

  if (options.history === true) {
    const since = options.since === undefined ? undefined : await sinceIso(ctx, options.since);
    const history = await ReportHistory.open(file);
    try {
      const runs = history.runs(since);
      if (format === "json") process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      else if (format === "csv") process.stdout.write(historyCsv(runs));
      else printHistory(ctx.out, runs);
    } finally {
      history.close();
    }
    return;
  }
  if (options.since !== undefined) throw bad("--since goes with --history");

  const quote = parseQuote(options.quote);
  const priceTimeoutMs = parseSeconds(options.priceTimeout, "--price-timeout");
  const { collect, parseAccountList, parseExchangeList, selectAccounts } = await import("../report/collect.js");
  const exchanges = ctx.exchangeGiven ? parseExchangeList(ctx.options.exchange) : undefined;
  const accounts = ctx.accountGiven ? parseAccountList(ctx.options.account) : undefined;
  const endpoints = endpointMap(ctx, options, exchanges, parseExchangeList);

  const selection = await selectAccounts({
    ...(exchanges ? { exchanges } : {}),
    ...(accounts ? { accounts } : {}),
  });
  const results = [
    ...selection.failed,
    ...(await collect(ctx, selection.refs, {
      quote,
      priceTimeoutMs,
      endpoints,
      onProgress: (done, total) => ctx.out.progress(`report: ${done}/${total} accounts`),
    })),
  ];
  ctx.out.clearProgress();

  const { buildReport } = await import("../report/model.js");
  const at = new Date(ctx.now()).toISOString();
  let historyProblem: string | undefined;
  let history: Awaited<ReturnType<typeof ReportHistory.open>> | undefined;
  if (options.history !== false) {
    try {
      history = await ReportHistory.open(file);
    } catch (error) {
      historyProblem = (error as Error).message;
    }
  }
  try {
    const report = buildReport(at, quote, results, history?.previous(quote));
    if (history) {
      try {
        history.record(report);
      } catch (error) {
        historyProblem = `Cannot keep this run in ${file}: ${(error as Error).message}`;
      }
    }
    const { printReport, reportCsv } = await import("../report/render.js");
    if (format === "json") process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else if (format === "csv") process.stdout.write(reportCsv(report));
    else printReport(ctx.out, report);
    for (const a of report.accounts) {
      if (a.status === "failed") ctx.out.note(`${a.exchange} ${a.account}: ${a.error?.kind}: ${a.error?.message}`);
    }
    if (historyProblem) ctx.out.note(`History not kept: ${historyProblem}`);
    // docs/report.md "Exit codes": 10 when an account failed or the run could not be kept.
    if (report.status === "partial" || historyProblem) process.exitCode = PARTIAL_EXIT_CODE;
  } finally {
    history?.close();
  }
}

function reportFormat(ctx: Context, format: string | undefined): "table" | "json" | "csv" {
  if (format === undefined) return ctx.out.json ? "json" : "table";
  if (format !== "table" && format !== "json" && format !== "csv")
    throw bad(`Invalid --format '${format}': expected table, json or csv`);
  if (ctx.out.json && format !== "json") throw bad(`--json and --format ${format} disagree: give one of them`);
  return format;
}

function parseQuote(text: string): string {
  if (!/^[A-Za-z0-9]{1,20}$/.test(text))
    throw bad(`Invalid --quote '${text}': expected a currency such as USDT or BTC`);
  return text.toUpperCase();
}

function parseSeconds(text: string, flag: string): number {
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0 || Number(text) > 600)
    throw bad(`Invalid ${flag} '${text}': expected seconds, more than 0 and at most 600`);
  return Math.round(Number(text) * 1000);
}

async function sinceIso(ctx: Context, text: string): Promise<string> {
  const { parseDuration } = await import("../../lib/duration.js");
  const parsed = parseDuration(text);
  if (!parsed.ok) throw bad(`Invalid --since '${text}': expected a duration such as 90m, 12h, 7d or 2w`);
  return new Date(ctx.now() - parsed.seconds * 1000).toISOString();
}

/** --base-url-of / --ws-url-of per exchange; the global --base-url / --ws-url when one real exchange is named. */
function endpointMap(
  ctx: Context,
  options: ReportOptions,
  exchanges: readonly string[] | undefined,
  parseExchangeList: (text: string) => ExchangeId[],
): Map<ExchangeId, { baseUrl?: string; wsUrl?: string }> {
  const map = new Map<ExchangeId, { baseUrl?: string; wsUrl?: string }>();
  const put = (flag: string, key: "baseUrl" | "wsUrl") => (entry: string) => {
    const eq = entry.indexOf("=");
    if (eq <= 0 || eq === entry.length - 1)
      throw bad(`Invalid ${flag} '${entry}': expected ID=URL, e.g. bybit=https://api-testnet.bybit.com`);
    const [id] = parseExchangeList(entry.slice(0, eq));
    const url = entry.slice(eq + 1);
    if (!/^(https?|wss?):\/\//.test(url))
      throw bad(`Invalid ${flag} '${entry}': the URL must start with http(s):// or ws(s)://`);
    map.set(id!, { ...map.get(id!), [key]: url });
  };
  options.baseUrlOf.forEach(put("--base-url-of", "baseUrl"));
  options.wsUrlOf.forEach(put("--ws-url-of", "wsUrl"));
  const { baseUrl, wsUrl } = ctx.options;
  if (baseUrl || wsUrl) {
    const real = (exchanges ?? []).filter((id) => id !== "paper");
    if (real.length !== 1)
      throw bad(
        "--base-url and --ws-url need exactly one exchange in --exchange; use --base-url-of ID=URL / --ws-url-of ID=URL",
      );
    const id = real[0] as ExchangeId;
    map.set(id, { ...map.get(id), ...(baseUrl ? { baseUrl } : {}), ...(wsUrl ? { wsUrl } : {}) });
  }
  return map;
}
