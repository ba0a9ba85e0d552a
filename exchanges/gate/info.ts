import type { ExchangeInfo } from "../core/info.js";

/** Gate: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const GATE_INFO: ExchangeInfo = {
  id: "gate",
  name: "Gate",
  needsApiKey: true,
  needsPassphrase: false,
  // batch create (10) and cancel (20) are supported (docs/exchanges.md "Limits")
  limits: { openOrders: 100, createBatch: 10, cancelBatch: 20, unsupported: [] },
  clientOrderId: { prefix: "t-", length: 30, chars: "0-9A-Za-z_.-" },
  feed: "socket",
  depth: 20,
};
