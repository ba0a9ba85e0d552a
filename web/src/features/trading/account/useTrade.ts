/**
 * The account's balances, open orders and token-pair decimals (docs/dashboard-rules.md#screens, docs/api.md#calls). A failed call is
 * an error the panels show as an error, never as an empty list (issue 20, docs/web-trading.md).
 */
import { useQuery } from "@tanstack/react-query";
import type { PairSpec } from "../../../../../exchanges/types.js";
import type { AccountPath, TokenPairAnswer } from "../../../../../lib/api.js";
import { stepDecimals } from "../../../../../lib/decimal.js";
import type { Balances, Order } from "../../../../../lib/types.js";
import { api } from "../../../app/api";
import { useEncryptionKey } from "../../../app/encryption-key";
import { recordOpenOrders } from "./fills";

/**
 * docs/web-trading.md "Balances and open orders": balances and open orders are read again every 3 s
 * while the view is visible (react-query stops the interval in a hidden tab), so bot orders and
 * fills show without a manual refresh: about 7 calls in 10 s a view, against 60 allowed (docs/decisions.md#d8).
 */
export const ACCOUNT_POLL_MS = 3000;

/** The key header of a trade call: paper needs none; other exchanges need the saved encryption key. */
export function useTradeKey(path: AccountPath): { key: string | undefined; missing: boolean } {
  const key = useEncryptionKey();
  if (path[1] === "paper") return { key: undefined, missing: false };
  return { key, missing: key === undefined };
}

/** The app event a trading action sends with its words ("placing Buy 0.01 BTC @ 100"): the open orders are read back after it. */
export const ORDER_ACTION = "ORDER_ACTION";

export const NO_KEY = "no encryption key saved on this device (header: Encryption key)";

async function tradeCall<T>(
  route: "balances" | "orders" | "pairRules",
  path: AccountPath,
  key: string | undefined,
  missing: boolean,
): Promise<T> {
  if (missing) throw new Error(NO_KEY);
  const r = await api.call<T>(route, { path, ...(key !== undefined ? { key } : {}) });
  if (!r.ok) throw new Error(r.msg);
  return r.data;
}

/** docs/dashboard-rules.md#states: balances reload when the selected path changes (the path is the query key). */
export function useBalances(path: AccountPath) {
  const { key, missing } = useTradeKey(path);
  return useQuery({
    queryKey: ["balances", ...path, key ?? ""],
    queryFn: () => tradeCall<Balances>("balances", path, key, missing),
    staleTime: 0,
    refetchInterval: ACCOUNT_POLL_MS,
  });
}

export function useOpenOrders(path: AccountPath) {
  const { key, missing } = useTradeKey(path);
  return useQuery({
    queryKey: ["orders", ...path, key ?? ""],
    queryFn: async () => {
      const list = await tradeCall<Order[]>("orders", path, key, missing);
      recordOpenOrders(path, list, Date.now(), (id) => lookUpOrder(path, key, id));
      return list;
    },
    staleTime: 0,
    refetchInterval: ACCOUNT_POLL_MS,
  });
}

/** An order that left the open list, looked up once (quiet: a failure only means no fill is told). */
async function lookUpOrder(path: AccountPath, key: string | undefined, id: string): Promise<Order | undefined> {
  const r = await api.call<Order>("order", {
    path,
    params: { id },
    quiet: true,
    ...(key !== undefined ? { key } : {}),
  });
  return r.ok ? r.data : undefined;
}

/** The venue's rules of the account's pair (tick, lot, minimums: GET /token/trade/pair), read once a view. */
export function usePairRules(path: AccountPath, enabled: boolean) {
  const { key, missing } = useTradeKey(path);
  return useQuery({
    enabled,
    queryKey: ["pair-rules", ...path, key ?? ""],
    queryFn: () => tradeCall<PairSpec | null>("pairRules", path, key, missing),
    staleTime: 10 * 60_000,
  });
}

/**
 * The decimals the view uses for a pair: those an admin set (POST /token/pair, docs/decisions.md#d1) first, else the
 * venue's own (its tick and lot), else none known.
 */
export function pairDecimals(
  set: { price: number; amount: number } | undefined,
  rules: PairSpec | null | undefined,
): { price: number; amount: number } | undefined {
  if (set) return set;
  if (!rules) return undefined;
  return { price: stepDecimals(rules.tick), amount: stepDecimals(rules.lot) };
}

export function useTokenPairs() {
  return useQuery({
    queryKey: ["token-pairs"],
    queryFn: async () => {
      const r = await api.call<TokenPairAnswer[]>("tokenPairs");
      if (!r.ok) throw new Error(r.msg);
      return r.data;
    },
  });
}

/** The decimals of a pair on an exchange (POST /token/pair), undefined when none are set. */
export function decimalsOf(pairs: readonly TokenPairAnswer[] | undefined, exchange: string, pair: string) {
  return pairs?.find((p) => p.exchangeId === exchange && p.pair === pair)?.decimals;
}
