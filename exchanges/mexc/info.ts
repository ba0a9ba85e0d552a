import type { ExchangeInfo } from "../core/info.js";

/** MEXC: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const MEXC_INFO: ExchangeInfo = {
  id: "mexc",
  name: "MEXC",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 500, createBatch: 20, cancelBatch: 0, unsupported: ["cancelBatch"] },
  clientOrderId: { length: 32 },
  // mexc is the exchange of the PARTIALLY_CANCELED variant, which maps to open (its documented list:
  // NEW, FILLED, PARTIALLY_FILLED, CANCELED, PARTIALLY_CANCELED)
  statusExceptions: { PARTIALLY_CANCELED: "open" },
  feed: "socket",
  depth: 20,
};
