import type { ErrorCodeTable, ExchangeInfo, MessageRule } from "../core/info.js";

/** retCodes of https://bybit-exchange.github.io/docs/v5/error (UTA and "Spot Trade" tables) */
export const BYBIT_CODES = {
  PARAMS_ERROR: 10001,
  TIMESTAMP_OUT_OF_WINDOW: 10002,
  INVALID_API_KEY: 10003,
  INVALID_SIGNATURE: 10004,
  PERMISSION_DENIED: 10005,
  TOO_MANY_VISITS: 10006,
  AUTHENTICATION_FAILED: 10007,
  IP_BANNED: 10009,
  IP_NOT_ALLOWED: 10010,
  IP_RATE_LIMITED: 10018,
  SPOT_API_KEY_EXPIRED: -2015,
  DERIVATIVES_API_KEY_EXPIRED: 33004,
  ORDER_NOT_EXISTS: 110001,
  WALLET_BALANCE_INSUFFICIENT: 110004,
  INSUFFICIENT_BALANCE: 110007,
  ORDER_COMPLETED_OR_CANCELLED: 110008,
  INSUFFICIENT_AVAILABLE_BALANCE: 110012,
  SPOT_TOO_MANY_NEW_ORDERS: 170005,
  SPOT_MARGIN_INSUFFICIENT: 170033,
  SPOT_INSUFFICIENT_BALANCE: 170131,
  SPOT_ORDER_FILLED: 170139,
  SPOT_ORDER_CANCELLED: 170142,
  SPOT_NOT_ON_ORDER_BOOK: 170143,
  SPOT_ORDER_NOT_EXISTS: 170213,
  SPOT_TOO_MANY_REQUESTS: 170222,
} as const;

const C = BYBIT_CODES;
export const BYBIT_ERRORS: ErrorCodeTable = {
  auth: [
    C.TIMESTAMP_OUT_OF_WINDOW,
    C.INVALID_API_KEY,
    C.INVALID_SIGNATURE,
    C.PERMISSION_DENIED,
    C.AUTHENTICATION_FAILED,
    C.IP_BANNED,
    C.IP_NOT_ALLOWED,
    C.SPOT_API_KEY_EXPIRED,
    C.DERIVATIVES_API_KEY_EXPIRED,
  ],
  "rate-limit": [C.TOO_MANY_VISITS, C.IP_RATE_LIMITED, C.SPOT_TOO_MANY_NEW_ORDERS, C.SPOT_TOO_MANY_REQUESTS],
  "insufficient-funds": [
    C.WALLET_BALANCE_INSUFFICIENT,
    C.INSUFFICIENT_BALANCE,
    C.INSUFFICIENT_AVAILABLE_BALANCE,
    C.SPOT_MARGIN_INSUFFICIENT,
    C.SPOT_INSUFFICIENT_BALANCE,
  ],
  // An order that is already filled or cancelled is no longer there to cancel.
  "order-not-found": [
    C.ORDER_NOT_EXISTS,
    C.ORDER_COMPLETED_OR_CANCELLED,
    C.SPOT_ORDER_FILLED,
    C.SPOT_ORDER_CANCELLED,
    C.SPOT_NOT_ON_ORDER_BOOK,
    C.SPOT_ORDER_NOT_EXISTS,
  ],
  "invalid-order": [C.PARAMS_ERROR],
};

/** bybit's IP limit answers a bare "403, access too frequent": a rate limit lifted after 10 minutes, not an auth failure. */
export const BYBIT_MESSAGES: readonly MessageRule[] = [
  { text: ["too frequent"], over: "auth", kind: "rate-limit", retryAfterMs: 600_000 },
];

/** The feed's default hosts (exchanges/bybit/feed.ts); the browser's are `browserFeed`. */
export const BYBIT_WS_URL = "wss://stream.bybit.com/v5/public/spot";

/** Bybit: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BYBIT_INFO: ExchangeInfo = {
  id: "bybit",
  name: "Bybit",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 50, createBatch: 10, cancelBatch: 10, unsupported: [] },
  clientOrderId: { length: 32 },
  errors: BYBIT_ERRORS,
  errorMessages: BYBIT_MESSAGES,
  // a triggered order counts as canceled
  statusExceptions: { Triggered: "canceled" },
  postOnly: { form: 'timeInForce: "PostOnly"', onCross: "canceled" },
  feed: "socket",
  depth: 50,
  browserFeed: { connect: [BYBIT_WS_URL] },
};
