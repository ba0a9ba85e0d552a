/**
 * The report of `spotdesk report` as data (docs/report.md): what one run found per account, the
 * totals per account, per exchange and overall, allocations, and the change since the previous
 * run. Pure functions over decimal strings (bignumber.js); collecting and printing live elsewhere.
 */
import { Decimal } from "../../lib/decimal.js";
import type { ErrorKind } from "../../lib/errors.js";
import { percentOf } from "./value.js";

/**
 * Exit code of a report in which at least one account failed (the others are reported): not one
 * of lib/errors.ts EXIT_CODES (1-9), so cron can tell "something went wrong" from a crash.
 */
export const PARTIAL_EXIT_CODE = 10;

export type FailureKind = ErrorKind | "unexpected";

/** One asset of one account. `price`/`value` null: no route to a price ("no price"). */
export interface AssetLine {
  asset: string;
  free: string;
  locked: string;
  /** free + locked */
  amount: string;
  price: string | null;
  value: string | null;
  /** the books whose mids gave the price */
  pairs: string[];
  /** percent of the overall total; null without a value */
  allocation: string | null;
  /** since the previous run; null when that run has nothing to compare (first run, account failed then) */
  change: { amount: string; value: string | null } | null;
}

export interface AccountLine {
  exchange: string;
  account: string;
  status: "ok" | "failed";
  /** sum of the priced assets; null for a failed account */
  total: string | null;
  allocation: string | null;
  /** assets without a price (their value is not in the total) */
  unpriced: string[];
  assets: AssetLine[];
  error: { kind: FailureKind; message: string } | null;
  change: string | null;
}

export interface ExchangeLine {
  exchange: string;
  /** null ("no data") when no account of the exchange was valued: never a made-up 0 (docs/report.md) */
  total: string | null;
  allocation: string | null;
  accounts: number;
  failed: number;
}

export interface AssetTotal {
  asset: string;
  amount: string;
  value: string | null;
  allocation: string | null;
  change: { amount: string; value: string | null } | null;
}

export interface Report {
  at: string;
  quote: string;
  status: "complete" | "partial";
  total: string;
  /** the previous run compared with (same quote), or null */
  since: string | null;
  /** change of the total over the accounts reported in both runs; null when there are none */
  change: string | null;
  exchanges: ExchangeLine[];
  accounts: AccountLine[];
  assets: AssetTotal[];
}

/** What collecting found for one account. */
export type AccountResult =
  | {
      exchange: string;
      account: string;
      ok: true;
      holdings: {
        asset: string;
        free: string;
        locked: string;
        price: { price: string; pairs: string[] } | undefined;
      }[];
    }
  | { exchange: string; account: string; ok: false; kind: FailureKind; message: string };

/** The previous run as history keeps it. */
export interface PreviousRun {
  at: string;
  /** "exchange/account" -> total (only accounts that were ok) */
  accountTotals: Map<string, string>;
  /** "exchange/account/asset" -> amount and value (null: no price then) */
  assets: Map<string, { amount: string; value: string | null }>;
}

export const accountKey = (exchange: string, account: string): string => `${exchange}/${account}`;
const assetKey = (exchange: string, account: string, asset: string): string => `${exchange}/${account}/${asset}`;

const sum = (values: Iterable<string>): string => {
  let total = new Decimal(0);
  for (const v of values) total = total.plus(v);
  return total.toFixed();
};

const minus = (a: string, b: string): string => new Decimal(a).minus(b).toFixed();

/**
 * Builds the report. Accounts sort by exchange then name, assets by value (largest first, no
 * price last) then name, so two runs print in the same order.
 */
export function buildReport(
  at: string,
  quote: string,
  results: readonly AccountResult[],
  previous: PreviousRun | undefined,
): Report {
  const accounts: AccountLine[] = [...results]
    .sort((a, b) => a.exchange.localeCompare(b.exchange) || a.account.localeCompare(b.account))
    .map((result) => accountLine(result, previous));
  const total = sum(accounts.flatMap((a) => (a.total === null ? [] : [a.total])));
  for (const account of accounts) {
    if (account.total !== null) account.allocation = percentOf(account.total, total);
    for (const line of account.assets) if (line.value !== null) line.allocation = percentOf(line.value, total);
  }

  const byExchange = new Map<string, AccountLine[]>();
  for (const account of accounts)
    byExchange.set(account.exchange, [...(byExchange.get(account.exchange) ?? []), account]);
  const exchanges: ExchangeLine[] = [...byExchange].map(([exchange, lines]) => {
    const valued = lines.flatMap((a) => (a.total === null ? [] : [a.total]));
    const exchangeTotal = valued.length === 0 ? null : sum(valued);
    return {
      exchange,
      total: exchangeTotal,
      allocation: exchangeTotal === null ? null : percentOf(exchangeTotal, total),
      accounts: lines.length,
      failed: lines.filter((a) => a.status === "failed").length,
    };
  });

  // Change of the total: only over accounts reported in both runs, so an account that failed
  // this time (or last time) does not read as a loss (or a gain).
  let change: string | null = null;
  if (previous) {
    const compared = accounts.filter((a) => a.change !== null);
    if (compared.length > 0) change = sum(compared.map((a) => a.change!));
  }

  return {
    at,
    quote,
    status: accounts.some((a) => a.status === "failed") ? "partial" : "complete",
    total,
    since: previous?.at ?? null,
    change,
    exchanges,
    accounts,
    assets: assetTotals(accounts, total),
  };
}

function accountLine(result: AccountResult, previous: PreviousRun | undefined): AccountLine {
  if (!result.ok) {
    return {
      exchange: result.exchange,
      account: result.account,
      status: "failed",
      total: null,
      allocation: null,
      unpriced: [],
      assets: [],
      error: { kind: result.kind, message: result.message },
      change: null,
    };
  }
  const key = accountKey(result.exchange, result.account);
  const comparable = previous?.accountTotals.has(key) === true;
  const assets: AssetLine[] = result.holdings.map((h) => {
    const amount = new Decimal(h.free).plus(h.locked).toFixed();
    const value = h.price === undefined ? null : new Decimal(amount).times(h.price.price).toFixed();
    const before = previous?.assets.get(assetKey(result.exchange, result.account, h.asset));
    return {
      asset: h.asset,
      free: h.free,
      locked: h.locked,
      amount,
      price: h.price?.price ?? null,
      value,
      pairs: h.price?.pairs ?? [],
      allocation: null,
      change: comparable ? assetChange(amount, value, before) : null,
    };
  });
  // An asset held last time and gone now (sold, withdrawn) is shown at zero with its change.
  if (comparable && previous) {
    const held = new Set(assets.map((a) => a.asset));
    const prefix = `${key}/`;
    for (const [k, before] of previous.assets) {
      const asset = k.slice(prefix.length);
      if (!k.startsWith(prefix) || held.has(asset)) continue;
      assets.push({
        asset,
        free: "0",
        locked: "0",
        amount: "0",
        price: null,
        value: null,
        pairs: [],
        allocation: null,
        change: { amount: minus("0", before.amount), value: before.value === null ? null : minus("0", before.value) },
      });
    }
  }
  assets.sort((a, b) => compareValues(a.value, b.value) || a.asset.localeCompare(b.asset));
  const total = sum(assets.flatMap((a) => (a.value === null ? [] : [a.value])));
  const unpriced = assets.filter((a) => a.value === null && !new Decimal(a.amount).isZero()).map((a) => a.asset);
  return {
    exchange: result.exchange,
    account: result.account,
    status: "ok",
    total,
    allocation: null,
    unpriced,
    assets,
    error: null,
    change: comparable ? minus(total, previous!.accountTotals.get(key)!) : null,
  };
}

function assetChange(
  amount: string,
  value: string | null,
  before: { amount: string; value: string | null } | undefined,
): { amount: string; value: string | null } {
  if (!before) return { amount, value };
  return {
    amount: minus(amount, before.amount),
    value: value === null || before.value === null ? null : minus(value, before.value),
  };
}

/** Largest value first; no value last. */
function compareValues(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return new Decimal(b).comparedTo(a) ?? 0;
}

/** Every asset over every ok account: amount, value, allocation, change. */
function assetTotals(accounts: readonly AccountLine[], total: string): AssetTotal[] {
  const by = new Map<string, AssetLine[]>();
  for (const account of accounts)
    for (const line of account.assets) by.set(line.asset, [...(by.get(line.asset) ?? []), line]);
  const lines: AssetTotal[] = [...by].map(([asset, list]) => {
    const values = list.filter((l) => l.value !== null && !new Decimal(l.amount).isZero());
    const held = list.filter((l) => !new Decimal(l.amount).isZero());
    const value =
      held.length > 0 && values.length === held.length
        ? sum(values.map((l) => l.value!))
        : held.length === 0
          ? "0"
          : null;
    const changes = list.filter((l) => l.change !== null);
    return {
      asset,
      amount: sum(list.map((l) => l.amount)),
      value,
      allocation: value === null ? null : percentOf(value, total),
      change:
        changes.length === 0
          ? null
          : {
              amount: sum(changes.map((l) => l.change!.amount)),
              value: changes.every((l) => l.change!.value !== null) ? sum(changes.map((l) => l.change!.value!)) : null,
            },
    };
  });
  return lines.sort((a, b) => compareValues(a.value, b.value) || a.asset.localeCompare(b.asset));
}
