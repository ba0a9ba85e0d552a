/** The work of `spotdesk report` (docs/report.md), loaded only when the command runs. */
import { defaultDataDir } from "../../exchanges/paper/index.js";
import { parseDuration } from "../../lib/duration.js";
import { ExchangeError } from "../../lib/errors.js";
import type { ExchangeId } from "../../lib/types.js";
import type { ReportOptions } from "../commands/report.js";
import type { Context } from "../context.js";
import { collect, parseAccountList, parseExchangeList, selectAccounts } from "./collect.js";
import { historyFile, ReportHistory } from "./history.js";
import { buildReport, PARTIAL_EXIT_CODE } from "./model.js";
import { historyCsv, printHistory, printReport, reportCsv } from "./render.js";

const bad = (message: string) => new ExchangeError("spotdesk", message, { kind: "bad-input" });

export async function runReport(ctx: Context, options: ReportOptions): Promise<void> {
  const format = reportFormat(ctx, options.format);
  const file = historyFile(defaultDataDir());

  if (options.history === true) {
    const since = options.since === undefined ? undefined : sinceIso(ctx, options.since);
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
  const exchanges = ctx.exchangeGiven ? parseExchangeList(ctx.options.exchange) : undefined;
  const accounts = ctx.accountGiven ? parseAccountList(ctx.options.account) : undefined;
  const endpoints = endpointMap(ctx, options, exchanges);

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
  let previous: ReturnType<NonNullable<typeof history>["previous"]>;
  try {
    previous = history?.previous(quote);
  } catch (error) {
    historyProblem = `Cannot read ${file}: ${(error as Error).message}`;
    history?.close();
    history = undefined;
  }
  try {
    const report = buildReport(at, quote, results, previous);
    assertPriceable(report);
    if (history) {
      try {
        history.record(report);
      } catch (error) {
        historyProblem = `Cannot keep this run in ${file}: ${(error as Error).message}`;
      }
    }
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

function sinceIso(ctx: Context, text: string): string {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw bad(`Invalid --since '${text}': expected a duration such as 90m, 12h, 7d or 2w`);
  return new Date(ctx.now() - parsed.seconds * 1000).toISOString();
}

/** --base-url-of / --ws-url-of per exchange; the global --base-url / --ws-url when one real exchange is named. */
function endpointMap(
  ctx: Context,
  options: ReportOptions,
  exchanges: readonly string[] | undefined,
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

/** Quotes a venue's books commonly reach, offered when the asked one reaches none (docs/report.md). */
const COMMON_QUOTES = ["USDT", "USDC", "BTC", "ETH"];

/**
 * docs/report.md "Prices": a quote in which not one asset held could be priced is an error (exit 2
 * naming the quote and what can be used), never a report whose total of 0 reads as complete.
 */
function assertPriceable(report: ReturnType<typeof buildReport>): void {
  const held = report.accounts.flatMap((a) => (a.status === "ok" ? a.assets : []));
  if (held.length === 0 || held.some((line) => line.value !== null)) return;
  const assets = [...new Set(held.map((line) => line.asset))].sort();
  const usable = COMMON_QUOTES.filter((q) => assets.includes(q));
  throw bad(
    `No price in ${report.quote}: no book reaches ${report.quote} from ${assets.join(", ")}; use --quote ${(usable.length > 0 ? usable : assets).join(" or ")}`,
  );
}
