/**
 * The open orders' and fills' polling, hand-written on purpose (docs/tui.md "Polling"): useQuery
 * + refetchInterval of @tanstack/react-query costs the TUI 42 KB of chunk and about 185 KB of heap
 * for one interval and one generation counter, and each answer here drives a side effect a query
 * function should not own: fills are the difference from the previous answer, and an order that
 * left the list is looked up once (docs/tui.md "Fills"). The adapter object is the account's
 * identity, which a serialisable query key cannot hold.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import type { Order } from "../../lib/types.js";
import { errorText } from "../errors.js";
import { diffOpenOrders, type Fill, fillSince, type SeenOrder, seenOf } from "../fills.js";
import { type OrderRow, openOrderRows } from "../orders-view.js";

/** one empty list for every render between an account switch and its first fetch */
const NO_ROWS: OrderRow[] = [];

export const ORDERS_POLL_MS = 5000;

export interface OpenOrdersState {
  rows: OrderRow[];
  loading: boolean;
  error: string | undefined;
  lastUpdate: number | undefined;
  refresh(): Promise<void>;
  /** resolves to the id cancelled; throws the exchange's error */
  cancel(id: string): Promise<string>;
  /** resolves to the ids cancelled; throws the exchange's error */
  cancelAll(): Promise<string[]>;
  /** your fills seen this session, newest first (docs/tui.md "Fills") */
  fills: readonly Fill[];
  /** an order just placed: what filled at once is a fill; the rest is watched like any open order */
  recordPlaced(order: Order): Fill | undefined;
}

/** fills kept for the trades panel */
export const MAX_FILLS = 50;
const NO_FILLS: Fill[] = [];

/**
 * The open orders of `pair` on `adapter`, sorted by price descending (docs/dashboard-rules.md#screens); fetched on
 * mount, every `pollMs` (fills happen while the trader watches), and after each cancel.
 */
export function useOrders(
  adapter: ExchangeAdapter | undefined,
  pair: string,
  pollMs = ORDERS_POLL_MS,
  now: () => number = Date.now,
  onFill?: (fill: Fill) => void,
): OpenOrdersState {
  const [fills, setFills] = useState<Fill[]>(NO_FILLS);
  // what this session last saw of each open order (docs/tui.md "Fills")
  const seen = useRef(new Map<string, SeenOrder>());
  const onFillRef = useRef(onFill);
  onFillRef.current = onFill;
  const addFill = useCallback((fill: Fill, notify = true) => {
    setFills((list) => [fill, ...list].slice(0, MAX_FILLS));
    if (notify) onFillRef.current?.(fill);
  }, []);
  const [orders, setOrders] = useState<Order[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [lastUpdate, setLastUpdate] = useState<number | undefined>(undefined);
  // A slow answer for an old adapter or pair must not overwrite a newer one.
  const generation = useRef(0);
  // which adapter the state above came from: after a switch, the old account's rows are not shown
  const [shownAdapter, setShownAdapter] = useState<ExchangeAdapter | undefined>(adapter);

  const refresh = useCallback(async () => {
    if (!adapter) return;
    const mine = ++generation.current;
    setLoading(true);
    try {
      const list = await adapter.fetchOpenOrders(pair);
      if (mine !== generation.current) return;
      setOrders(list);
      const time = now();
      const { fills: grown, gone } = diffOpenOrders(seen.current, list, time);
      for (const fill of grown) addFill(fill);
      // replaced here, and later additions go to the new map: the previous one stays as it was
      const before = seen.current;
      seen.current = new Map(list.map((o) => [o.id, seenOf(o)]));
      // an order that left the list: filled, or cancelled (here or elsewhere); one look tells
      // which, and what filled before a cancel landed is a fill too
      for (const id of gone) {
        const last = before.get(id);
        adapter.fetchOrder(pair, id).then(
          (order) => {
            const fill = fillSince(last, order, now());
            if (fill) addFill(fill);
          },
          () => {},
        );
      }
      setError(undefined);
      setLastUpdate(now());
    } catch (e) {
      if (mine === generation.current) setError(errorText(e));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [adapter, pair, now, addFill]);

  useEffect(() => {
    setOrders([]);
    seen.current = new Map();
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

  const cancel = useCallback(
    async (id: string) => {
      if (!adapter) throw new Error("No exchange account is open");
      try {
        return await adapter.cancelOrder(pair, id);
      } finally {
        await refresh();
      }
    },
    [adapter, pair, refresh],
  );

  const cancelAll = useCallback(async () => {
    if (!adapter) throw new Error("No exchange account is open");
    try {
      return await adapter.cancelAll(pair);
    } finally {
      await refresh();
    }
  }, [adapter, pair, refresh]);

  const recordPlaced = useCallback(
    (order: Order) => {
      const fill = fillSince(undefined, order, now(), true);
      // the "placed" message tells this one
      if (fill) addFill(fill, false);
      // watched from here on, so the next poll neither repeats this fill nor misses a later one
      seen.current.set(order.id, seenOf(order));
      return fill;
    },
    [now, addFill],
  );

  const rows = useMemo(() => openOrderRows(orders), [orders]);
  if (shownAdapter !== adapter)
    return {
      rows: NO_ROWS,
      loading: adapter !== undefined,
      error: undefined,
      lastUpdate: undefined,
      refresh,
      cancel,
      cancelAll,
      fills: NO_FILLS,
      recordPlaced,
    };
  return { rows, loading, error, lastUpdate, refresh, cancel, cancelAll, fills, recordPlaced };
}
