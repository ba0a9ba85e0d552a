import type { ExchangeInfo } from "../core/info.js";

/** Bybit: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BYBIT_INFO: ExchangeInfo = {
  id: "bybit",
  name: "Bybit",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 50, createBatch: 10, cancelBatch: 10, unsupported: [] },
  clientOrderId: { length: 32 },
  // a triggered order counts as canceled
  statusExceptions: { Triggered: "canceled" },
  feed: "socket",
  depth: 50,
};
