import type { ErrorCodeTable, ExchangeInfo, MessageRule } from "../core/info.js";

/** Bitrue's error codes ({code, msg}): the docs' "Error Codes" table first, then binance-family spellings it may still send. */
export const BITRUE_CODE = {
  // documented (README "Error Codes", with their HTTP status)
  METHOD_NOT_SUPPORTED: -1020, // 405
  SIGNATURE_TIMESTAMP_OR_UNAUTHORIZED: -1022, // 401 "Invalid signature or Invalid timestamp or Unauthorized for API."
  MANDATORY_PARAMETER: -1102, // 412
  INVALID_VOLUME_OR_PRICE: -1111, // 412
  INVALID_SYMBOL: -1121, // 412
  REJECTED: -2010, // 406 "Order placement or cancellation or withdrawal rejected."
  NO_SUCH_ORDER: -2013, // 200 "Could not find order information for given order ID."
  SERVICE_UNAVAILABLE: -1016, // 500
  // not in Bitrue's table: binance-family codes kept so an answer carrying them is still classified
  TOO_MANY_REQUESTS: -1003,
  TIMESTAMP_OUTSIDE_RECV_WINDOW: -1021,
  INVALID_QUANTITY: -1013,
  CANCEL_REJECTED: -2011,
  API_KEY_FORMAT_INVALID: -2014,
  API_KEY_REJECTED: -2015,
} as const;

const C = BITRUE_CODE;
export const BITRUE_ERRORS: ErrorCodeTable = {
  auth: [
    C.SIGNATURE_TIMESTAMP_OR_UNAUTHORIZED,
    C.TIMESTAMP_OUTSIDE_RECV_WINDOW,
    C.API_KEY_FORMAT_INVALID,
    C.API_KEY_REJECTED,
  ],
  "rate-limit": [C.TOO_MANY_REQUESTS],
  "order-not-found": [C.NO_SUCH_ORDER, C.CANCEL_REJECTED],
  "invalid-order": [
    C.MANDATORY_PARAMETER,
    C.INVALID_VOLUME_OR_PRICE,
    C.INVALID_SYMBOL,
    C.REJECTED,
    C.METHOD_NOT_SUPPORTED,
    C.INVALID_QUANTITY,
  ],
};

/** -2010 carries the reason in its text; an "insufficient balance" rejection is insufficient-funds. */
export const BITRUE_MESSAGES: readonly MessageRule[] = [
  { code: C.REJECTED, text: ["insufficient", "balance"], kind: "insufficient-funds" },
];

/** The feed's default hosts (exchanges/bitrue/feed.ts); the browser's are `browserFeed`. */
export const BITRUE_WS_URL = "wss://ws.bitrue.com/market/ws";

/** Bitrue: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITRUE_INFO: ExchangeInfo = {
  id: "bitrue",
  name: "Bitrue",
  needsApiKey: true,
  needsPassphrase: false,
  limits: {
    openOrders: null,
    createBatch: 0,
    cancelBatch: 0,
    unsupported: ["createBatch", "cancelBatch", "cancelAll"],
  },
  clientOrderId: { length: 32 },
  errors: BITRUE_ERRORS,
  errorMessages: BITRUE_MESSAGES,
  // no maker-only order form in its docs: a post-only order is refused (docs/exchange-rules.md "Post-only")
  postOnly: null,
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [BITRUE_WS_URL] },
};
