import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** BitMart's documented error codes (Restful Error Code tables). */
export const BITMART_CODE = {
  KEY_EMPTY: 30001,
  KEY_NOT_FOUND: 30002,
  KEY_FROZEN: 30003,
  SIGN_EMPTY: 30004,
  SIGN_WRONG: 30005,
  TIMESTAMP_EMPTY: 30006,
  TIMESTAMP_OUT_OF_WINDOW: 30007,
  TIMESTAMP_FORMAT: 30008,
  IP_FORBIDDEN: 30010,
  KEY_EXPIRED: 30011,
  KEY_FORBIDDEN: 30012,
  TOO_MANY_REQUESTS: 30013,
  ACCOUNT_RATE_REJECTED: 30017,
  BAD_REQUEST: 50000,
  SYMBOL_NOT_FOUND: 50001,
  ORDER_ID_NOT_FOUND: 50005,
  MIN_SIZE: 50006,
  MIN_PRICE: 50008,
  MIN_NOTIONAL: 50009,
  BALANCE_NOT_ENOUGH: 50020,
  ORDER_ALREADY_CANCELED: 50030,
  ORDER_ALREADY_COMPLETED: 50031,
  ORDER_DOES_NOT_EXIST: 50032,
  CLIENT_ORDER_ID_DUPLICATE: 50042,
  OPERATION_LIMITED: 51008,
  ACCOUNT_FROZEN: 53000,
} as const;

const C = BITMART_CODE;
export const BITMART_ERRORS: ErrorCodeTable = {
  auth: [
    C.KEY_EMPTY,
    C.KEY_NOT_FOUND,
    C.KEY_FROZEN,
    C.SIGN_EMPTY,
    C.SIGN_WRONG,
    C.TIMESTAMP_EMPTY,
    C.TIMESTAMP_OUT_OF_WINDOW,
    C.TIMESTAMP_FORMAT,
    C.IP_FORBIDDEN,
    C.KEY_EXPIRED,
    C.KEY_FORBIDDEN,
    C.ACCOUNT_FROZEN,
  ],
  "rate-limit": [C.TOO_MANY_REQUESTS, C.ACCOUNT_RATE_REJECTED, C.OPERATION_LIMITED],
  "insufficient-funds": [C.BALANCE_NOT_ENOUGH],
  "order-not-found": [
    C.ORDER_ID_NOT_FOUND,
    C.ORDER_DOES_NOT_EXIST,
    C.ORDER_ALREADY_CANCELED,
    C.ORDER_ALREADY_COMPLETED,
  ],
  "invalid-order": [
    C.BAD_REQUEST,
    C.SYMBOL_NOT_FOUND,
    C.MIN_SIZE,
    C.MIN_PRICE,
    C.MIN_NOTIONAL,
    C.CLIENT_ORDER_ID_DUPLICATE,
  ],
};

/** The feed's default hosts (exchanges/bitmart/feed.ts); the browser's are `browserFeed`. */
export const BITMART_WS_URL = "wss://ws-manager-compress.bitmart.com/api?protocol=1.1";

/** Bitmart: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITMART_INFO: ExchangeInfo = {
  id: "bitmart",
  name: "Bitmart",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 200, createBatch: 10, cancelBatch: 10, unsupported: [] },
  clientOrderId: { length: 32, chars: "A-Za-z0-9" },
  errors: BITMART_ERRORS,
  postOnly: { form: 'type: "limit_maker"', onCross: "canceled" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [BITMART_WS_URL] },
};
