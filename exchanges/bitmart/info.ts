import type { ExchangeInfo } from "../core/info.js";

/** Bitmart: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITMART_INFO: ExchangeInfo = {
  id: "bitmart",
  name: "Bitmart",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 200, createBatch: 10, cancelBatch: 10, unsupported: [] },
  clientOrderId: { length: 32, chars: "A-Za-z0-9" },
  feed: "socket",
  depth: 20,
};
