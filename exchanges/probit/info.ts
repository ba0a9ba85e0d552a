import type { ExchangeInfo } from "../core/info.js";

/** Probit: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const PROBIT_INFO: ExchangeInfo = {
  id: "probit",
  name: "Probit",
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
  depth: 50,
};
