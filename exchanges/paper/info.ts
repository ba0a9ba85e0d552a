import type { ExchangeInfo } from "../core/info.js";

/** paper, the built-in simulated exchange: an exchange like the others in the catalogue (docs/exchanges.md). */
export const PAPER_INFO: ExchangeInfo = {
  id: "paper",
  name: "Paper (simulated)",
  needsApiKey: false,
  needsPassphrase: false,
  // it supports everything; its limits are generous but finite
  limits: { openOrders: 500, createBatch: 100, cancelBatch: 100, unsupported: [] },
  // generated ids are 32 hex characters; a caller's own id may be up to 64
  clientOrderId: { length: 32, maxLength: 64 },
  postOnly: { form: "postOnly: true", onCross: "rejected" },
  // docs/paper-store.md "Countdown": stored with the account, fired by the next call of any process
  countdown: { minSeconds: 1, maxSeconds: 86_400, scope: "pair" },
  feed: "simulated",
  depth: 20,
  // its book comes from the server
  browserFeed: null,
};
