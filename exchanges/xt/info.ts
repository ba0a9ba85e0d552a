import type { ExchangeInfo } from "../core/info.js";

/** XT: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const XT_INFO: ExchangeInfo = {
  id: "xt",
  name: "XT",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: null, createBatch: 40, cancelBatch: 40, unsupported: [] },
  clientOrderId: { length: 22, minLength: 4, chars: "A-Za-z0-9_" },
  feed: "socket",
  depth: 50,
};
