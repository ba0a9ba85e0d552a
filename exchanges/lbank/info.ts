import type { ExchangeInfo } from "../core/info.js";

/** LBank: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const LBANK_INFO: ExchangeInfo = {
  id: "lbank",
  name: "LBank",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 200, createBatch: 0, cancelBatch: 0, unsupported: ["createBatch", "cancelBatch"] },
  clientOrderId: { length: 32 },
  // numeric codes only: -1, 3 and 4 are canceled; 0 and 1 are open; 2 is closed
  statusExceptions: { "-1": "canceled", "0": "open", "1": "open", "2": "closed", "3": "canceled", "4": "canceled" },
  onlyExceptions: true,
  feed: "socket",
  depth: 50,
};
