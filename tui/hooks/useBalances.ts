/**
 * The balances table's polling, hand-written on purpose (docs/tui.md "Polling"): issue 14 asked
 * for @tanstack/react-query's useQuery + refetchInterval here if it costs the TUI nothing. It
 * does: the QueryClient, its provider and useQuery add 42 KB (minified) to the TUI's chunk and
 * about 185 KB of heap once loaded, in a process that stays open all week (issue 24), while what
 * it would replace is one interval and one generation counter per hook. A slow answer for an old
 * account never overwrites a newer one (`generation`), and a switched-away account's rows are
 * never shown (`shownAdapter`).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import type { Balances } from "../../lib/types.js";
import { errorText } from "../errors.js";
import { type BalanceRow, balanceRows } from "../orders-view.js";

/** one empty list for every render between an account switch and its first fetch */
const NO_ROWS: BalanceRow[] = [];

export const BALANCES_POLL_MS = 10_000;

export interface BalancesState {
  rows: BalanceRow[];
  loading: boolean;
  error: string | undefined;
  /** when the last fetch succeeded: the table's "Last update" (docs/dashboard-rules.md#screens) */
  lastUpdate: number | undefined;
  refresh(): Promise<void>;
}

/** The account's balances, fetched on mount, every `pollMs` and on demand. */
export function useBalances(
  adapter: ExchangeAdapter | undefined,
  pollMs = BALANCES_POLL_MS,
  now: () => number = Date.now,
): BalancesState {
  const [balances, setBalances] = useState<Balances>({});
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [lastUpdate, setLastUpdate] = useState<number | undefined>(undefined);
  const generation = useRef(0);
  // which adapter the state above came from: after a switch, the old account's rows are not shown
  const [shownAdapter, setShownAdapter] = useState<ExchangeAdapter | undefined>(adapter);

  const refresh = useCallback(async () => {
    if (!adapter) return;
    const mine = ++generation.current;
    setLoading(true);
    try {
      const next = await adapter.fetchBalances();
      if (mine !== generation.current) return;
      setBalances(next);
      setError(undefined);
      setLastUpdate(now());
    } catch (e) {
      if (mine === generation.current) setError(errorText(e));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [adapter, now]);

  useEffect(() => {
    setBalances({});
    setError(undefined);
    setLastUpdate(undefined);
    setShownAdapter(adapter);
    if (!adapter) return;
    void refresh();
    const timer = setInterval(() => void refresh(), pollMs);
    return () => {
      clearInterval(timer);
      generation.current++;
    };
  }, [adapter, refresh, pollMs]);

  const rows = useMemo(() => balanceRows(balances), [balances]);
  if (shownAdapter !== adapter)
    return { rows: NO_ROWS, loading: adapter !== undefined, error: undefined, lastUpdate: undefined, refresh };
  return { rows, loading, error, lastUpdate, refresh };
}
