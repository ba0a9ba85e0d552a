import type { ExchangeInfo } from "../core/info.js";

/** HTX: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const HTX_INFO: ExchangeInfo = {
  id: "htx",
  name: "HTX",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 500, createBatch: 10, cancelBatch: 50, unsupported: [] },
  clientOrderId: { length: 32 },
  // partial-canceled counts as open; canceling counts as canceled
  statusExceptions: { "partial-canceled": "open", canceling: "canceled" },
  feed: "socket",
  depth: 20,
};
