import type { ExchangeInfo } from "../core/info.js";

/** BingX: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BINGX_INFO: ExchangeInfo = {
  id: "bingx",
  name: "BingX",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 500, createBatch: 10, cancelBatch: 10, unsupported: [] },
  clientOrderId: { length: 32, chars: "A-Za-z0-9_" },
  feed: "socket",
  depth: 20,
};
