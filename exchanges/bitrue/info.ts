import type { ExchangeInfo } from "../core/info.js";

/** Bitrue: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITRUE_INFO: ExchangeInfo = {
  id: "bitrue",
  name: "Bitrue",
  needsApiKey: true,
  needsPassphrase: false,
  limits: {
    openOrders: null,
    createBatch: 0,
    cancelBatch: 0,
    unsupported: ["createBatch", "cancelBatch", "cancelAll"],
  },
  clientOrderId: { length: 32 },
  feed: "socket",
  depth: 20,
};
