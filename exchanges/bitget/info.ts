import type { ExchangeInfo } from "../core/info.js";

/** Bitget: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITGET_INFO: ExchangeInfo = {
  id: "bitget",
  name: "Bitget",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 100, createBatch: 50, cancelBatch: 50, unsupported: [] },
  clientOrderId: { length: 32 },
  feed: "socket",
  depth: 20,
};
