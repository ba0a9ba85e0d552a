import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** BIT.TEAM's error codes as its API answers them ({ok: false, code, message}). */
export const BITTEAM_CODE = {
  INVALID_PARAMS: 400000,
  PAIR_DEACTIVATED: 400002,
  MISSING_AUTHENTICATION: 401000,
  SERVICE_UNAVAILABLE: 403000,
  STATUS_DOES_NOT_MATCH: 403002,
  SYMBOL_NOT_FOUND: 404000,
  PAIR_NOT_FOUND: 404200,
  ORDER_NOT_FOUND: 404300,
  INSUFFICIENT_FUNDS: 450000,
} as const;

const C = BITTEAM_CODE;
export const BITTEAM_ERRORS: ErrorCodeTable = {
  auth: [C.MISSING_AUTHENTICATION],
  "insufficient-funds": [C.INSUFFICIENT_FUNDS],
  "order-not-found": [C.ORDER_NOT_FOUND],
  "invalid-order": [
    C.INVALID_PARAMS,
    C.PAIR_DEACTIVATED,
    C.STATUS_DOES_NOT_MATCH,
    C.SYMBOL_NOT_FOUND,
    C.PAIR_NOT_FOUND,
  ],
};

/** The feed's default hosts (exchanges/bitteam/feed.ts); the browser's are `browserFeed`. */
export const BITTEAM_REST_URL = "https://bit.team";

/** BIT.TEAM: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITTEAM_INFO: ExchangeInfo = {
  id: "bitteam",
  name: "BIT.TEAM",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 100, createBatch: 0, cancelBatch: 0, unsupported: ["createBatch", "cancelBatch"] },
  clientOrderId: { length: 32 },
  errors: BITTEAM_ERRORS,
  // withdrawn orders come back as "delete" and refused ones as "inactive": both read as canceled (off the book, not filled)
  statusExceptions: { delete: "canceled", inactive: "canceled" },
  // no maker-only order form in its docs: a post-only order is refused (docs/exchange-rules.md "Post-only")
  postOnly: null,
  feed: "polling",
  depth: 50,
  browserFeed: { connect: [], relay: "/api/bitteam" },
};
