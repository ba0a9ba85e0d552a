import type { ExchangeInfo } from "../core/info.js";

/** Coinstore: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const COINSTORE_INFO: ExchangeInfo = {
  id: "coinstore",
  name: "Coinstore",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: null, createBatch: 40, cancelBatch: 40, unsupported: ["cancelAll"] },
  clientOrderId: { length: 32 },
  feed: "socket",
  depth: 20,
};
