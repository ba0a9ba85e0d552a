import type { ExchangeInfo } from "../core/info.js";

/** OKX: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const OKX_INFO: ExchangeInfo = {
  id: "okx",
  name: "OKX",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 500, createBatch: 20, cancelBatch: 20, unsupported: ["cancelAll"] },
  clientOrderId: { length: 32, chars: "A-Za-z0-9" },
  feed: "socket",
  depth: 50,
};
