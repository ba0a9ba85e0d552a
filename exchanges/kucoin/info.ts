import type { ExchangeInfo } from "../core/info.js";

/** Kucoin: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const KUCOIN_INFO: ExchangeInfo = {
  id: "kucoin",
  name: "Kucoin",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 500, createBatch: 5, cancelBatch: 0, unsupported: ["cancelBatch"] },
  clientOrderId: { length: 32 },
  feed: "socket",
  depth: 50,
};
