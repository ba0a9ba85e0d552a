import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/**
 * MEXC's error codes ({code, msg}): the "Error Code" table of the spot v3 docs, plus -2013, which
 * the docs do not list but GET /api/v3/order really answers for an unknown order
 * ({"msg":"Order does not exist.","code":-2013,"_extend":null}).
 */
export const MEXC_CODE = {
  API_KEY_REQUIRED: 400,
  NO_AUTHORITY: 401,
  ACCESS_DENIED: 403,
  TOO_MANY_REQUESTS: 429,
  SIGNATURE_VERIFICATION_FAILED: 602,
  INVALID_ACCESS_KEY: 10072,
  INVALID_REQUEST_TIME: 10073,
  INSUFFICIENT_BALANCE: 10101,
  API_KEY_FORMAT_INVALID: 700001,
  SIGNATURE_INVALID: 700002,
  TIMESTAMP_OUTSIDE_RECV_WINDOW: 700003,
  RECV_WINDOW_TOO_LARGE: 700005,
  IP_NOT_WHITELISTED: 700006,
  NO_PERMISSION: 700007,
  ILLEGAL_CHARACTERS: 700008,
  UNKNOWN_ORDER: -2011,
  ORDER_NOT_EXIST: -2013,
  MIN_TRANSACTION_VOLUME: 30002,
  INSUFFICIENT_POSITION: 30004,
  OVERSOLD: 30005,
} as const;

export const MEXC_ERRORS: ErrorCodeTable = {
  auth: [
    MEXC_CODE.API_KEY_REQUIRED,
    MEXC_CODE.NO_AUTHORITY,
    MEXC_CODE.ACCESS_DENIED,
    MEXC_CODE.API_KEY_FORMAT_INVALID,
    MEXC_CODE.SIGNATURE_INVALID,
    MEXC_CODE.TIMESTAMP_OUTSIDE_RECV_WINDOW,
    MEXC_CODE.IP_NOT_WHITELISTED,
    MEXC_CODE.NO_PERMISSION,
    MEXC_CODE.SIGNATURE_VERIFICATION_FAILED,
    MEXC_CODE.INVALID_ACCESS_KEY,
    MEXC_CODE.INVALID_REQUEST_TIME,
  ],
  "rate-limit": [MEXC_CODE.TOO_MANY_REQUESTS],
  "insufficient-funds": [MEXC_CODE.INSUFFICIENT_POSITION, MEXC_CODE.OVERSOLD, MEXC_CODE.INSUFFICIENT_BALANCE],
  "order-not-found": [MEXC_CODE.UNKNOWN_ORDER, MEXC_CODE.ORDER_NOT_EXIST],
  "invalid-order": [MEXC_CODE.MIN_TRANSACTION_VOLUME, MEXC_CODE.RECV_WINDOW_TOO_LARGE, MEXC_CODE.ILLEGAL_CHARACTERS],
};

/** The feed's default hosts (exchanges/mexc/feed.ts); the browser's are `browserFeed`. */
export const MEXC_REST_URL = "https://api.mexc.com";
export const MEXC_WS_URL = "wss://wbs-api.mexc.com/ws";

/** MEXC: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const MEXC_INFO: ExchangeInfo = {
  id: "mexc",
  name: "MEXC",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 500, createBatch: 20, cancelBatch: 0, unsupported: ["cancelBatch"] },
  clientOrderId: { length: 32 },
  errors: MEXC_ERRORS,
  // mexc is the exchange of the PARTIALLY_CANCELED variant, which maps to open (its documented list:
  // NEW, FILLED, PARTIALLY_FILLED, CANCELED, PARTIALLY_CANCELED)
  statusExceptions: { PARTIALLY_CANCELED: "open" },
  postOnly: { form: 'type: "LIMIT_MAKER"', onCross: "rejected" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [MEXC_WS_URL, MEXC_REST_URL] },
};
