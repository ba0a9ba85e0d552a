import type { ExchangeInfo } from "../core/info.js";

/** BIT.TEAM: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITTEAM_INFO: ExchangeInfo = {
  id: "bitteam",
  name: "BIT.TEAM",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 100, createBatch: 0, cancelBatch: 0, unsupported: ["createBatch", "cancelBatch"] },
  clientOrderId: { length: 32 },
  // withdrawn orders come back as "delete" and refused ones as "inactive" (both read as rejected)
  statusExceptions: { delete: "canceled", inactive: "canceled" },
  feed: "polling",
  depth: 50,
};
