import type { AccountPath } from "../../../../../lib/api.js";
import { addDecimals } from "../../../../../lib/decimal.js";
import { formatBalance, formatUtcTime, formatUtcTimestamp } from "../../../../../lib/format.js";
import { useBalances } from "./useTrade";

/** Non-zero balances first, then by token. */
export function balanceRows(balances: Record<string, { f: string; l: string }>) {
  return Object.entries(balances)
    .map(([token, b]) => ({ token, free: b.f, locked: b.l, total: addDecimals(b.f, b.l) }))
    .sort((a, b) => Number(b.total !== "0") - Number(a.total !== "0") || a.token.localeCompare(b.token));
}

/**
 * docs/dashboard-rules.md#screens "Balances table": Token, Total, Free, Locked, 'Last update' in UTC and a refresh (docs/dashboard-rules.md#constants number display, docs/decisions.md#d15).
 * Read every 3 s (ACCOUNT_POLL_MS); 'Last update' is the last answer that came, and a later read that
 * failed says since when the table is not current (docs/web-trading.md "Balances and open orders").
 */
export function BalancesPanel({ path }: { path: AccountPath }) {
  const q = useBalances(path);
  return (
    <section className="panel" aria-label="Balances">
      <header className="row between">
        <h2>Balances</h2>
        <span className="row">
          <span className="muted small-text" data-testid="balances-updated">
            Last update: {q.dataUpdatedAt ? formatUtcTimestamp(q.dataUpdatedAt) : "-"}
          </span>
          <button type="button" className="btn small" aria-label="Refresh balances" onClick={() => void q.refetch()}>
            ↻
          </button>
        </span>
      </header>
      {q.isError && q.data ? (
        <p className="error-text" role="alert">
          balances not updated since {formatUtcTime(q.dataUpdatedAt)}: {q.error.message}
        </p>
      ) : null}
      {q.isError && !q.data ? (
        <p className="error-text" role="alert">
          balances unavailable: {q.error.message}
        </p>
      ) : q.isPending ? (
        <p className="muted">Loading…</p>
      ) : (
        <table className={`table small-text${q.isError ? " stale" : ""}`}>
          <thead>
            <tr>
              <th>Token</th>
              <th>Total</th>
              <th>Free</th>
              <th>Locked</th>
            </tr>
          </thead>
          <tbody>
            {balanceRows(q.data).map((b) => (
              <tr key={b.token} aria-label={`Balance ${b.token}`}>
                <td>{b.token}</td>
                <td className="num" title={b.total}>
                  {formatBalance(b.total)}
                </td>
                <td className="num" title={b.free} data-testid={`free-${b.token}`}>
                  {formatBalance(b.free)}
                </td>
                <td className="num" title={b.locked} data-testid={`locked-${b.token}`}>
                  {formatBalance(b.locked)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
