import { Decimal } from "../../lib/decimal.js";
import type { Order, Side } from "../../lib/types.js";
import { DEMO_BALANCES, PAPER_CURRENCIES } from "./pairs.js";

/** One paper account's state, exactly as it is kept in its JSON file (store.ts). */

export type PaperOrderStatus = "open" | "closed" | "canceled";

export interface PaperOrderRecord {
  id: string;
  clientOrderId: string;
  pair: string;
  side: Side;
  price: string;
  amount: string;
  filled: string;
  status: PaperOrderStatus;
  /** creation time, ms (the adapter's clock) */
  timestamp: number;
  updatedAt: number;
  /** the market bucket the order entered the book; the synthetic flow reaches it from the next bucket */
  bucket: number;
}

export interface PaperState {
  version: 1;
  account: string;
  createdAt: number;
  /** the last market bucket whose fills are applied */
  lastBucket: number;
  nextId: number;
  balances: Record<string, { free: string; locked: string }>;
  /** open orders and the most recent closed or canceled ones, in the order they were placed */
  orders: PaperOrderRecord[];
  /** synthetic liquidity taken: `${pair}|${side}|${ticks}|${epoch}` → [lots, bucket taken] */
  taken: Record<string, [lots: number, bucket: number]>;
}

export const STATE_VERSION = 1;
export function newPaperState(
  account: string,
  nowMs: number,
  bucket: number,
  startingBalances?: Record<string, string>,
): PaperState {
  const balances: PaperState["balances"] = {};
  for (const currency of PAPER_CURRENCIES) balances[currency] = { free: "0", locked: "0" };
  for (const [currency, amount] of Object.entries(startingBalances ?? DEMO_BALANCES)) {
    balances[currency.toUpperCase()] = { free: new Decimal(amount).toFixed(), locked: "0" };
  }
  return {
    version: STATE_VERSION,
    account,
    createdAt: nowMs,
    lastBucket: bucket,
    nextId: 1,
    balances,
    orders: [],
    taken: {},
  };
}

export function toOrder(record: PaperOrderRecord): Order {
  return {
    pair: record.pair,
    id: record.id,
    clientOrderId: record.clientOrderId,
    price: record.price,
    amount: record.amount,
    filled: record.filled,
    type: "limit",
    side: record.side,
    status: record.status,
    timestamp: record.timestamp,
  };
}
