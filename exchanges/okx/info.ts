import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** Error codes of https://www.okx.com/docs-v5/en/#error-code (general, API and trade classes) */
export const OKX_CODES = {
  RATE_LIMIT: "50011",
  SYSTEMS_BUSY: "50013",
  TOO_FREQUENT: "50040",
  SUB_ACCOUNT_RATE_LIMIT: "50061",
  API_FROZEN: "50100",
  KEY_WRONG_ENVIRONMENT: "50101",
  TIMESTAMP_EXPIRED: "50102",
  KEY_EMPTY: "50103",
  PASSPHRASE_EMPTY: "50104",
  PASSPHRASE_INCORRECT: "50105",
  SIGN_EMPTY: "50106",
  TIMESTAMP_EMPTY: "50107",
  IP_NOT_WHITELISTED: "50110",
  INVALID_KEY: "50111",
  INVALID_TIMESTAMP: "50112",
  INVALID_SIGN: "50113",
  INVALID_AUTHORIZATION: "50114",
  KEY_NOT_EXIST: "50119",
  KEY_NO_PERMISSION: "50120",
  PARAMETER_ERROR: "51000",
  INSUFFICIENT_BALANCE: "51008",
  CANCEL_FAILED: "51400",
  CANCEL_ALREADY_CANCELED: "51401",
  CANCEL_ALREADY_COMPLETED: "51402",
  ORDER_NOT_EXIST: "51603",
} as const;

const C = OKX_CODES;
export const OKX_ERRORS: ErrorCodeTable = {
  auth: [
    C.API_FROZEN,
    C.KEY_WRONG_ENVIRONMENT,
    C.TIMESTAMP_EXPIRED,
    C.KEY_EMPTY,
    C.PASSPHRASE_EMPTY,
    C.PASSPHRASE_INCORRECT,
    C.SIGN_EMPTY,
    C.TIMESTAMP_EMPTY,
    C.IP_NOT_WHITELISTED,
    C.INVALID_KEY,
    C.INVALID_TIMESTAMP,
    C.INVALID_SIGN,
    C.INVALID_AUTHORIZATION,
    C.KEY_NOT_EXIST,
    C.KEY_NO_PERMISSION,
  ],
  "rate-limit": [C.RATE_LIMIT, C.SYSTEMS_BUSY, C.TOO_FREQUENT, C.SUB_ACCOUNT_RATE_LIMIT],
  "insufficient-funds": [C.INSUFFICIENT_BALANCE],
  // 51400: "Order cancellation failed as the order has been filled, canceled or does not exist."
  "order-not-found": [C.ORDER_NOT_EXIST, C.CANCEL_FAILED, C.CANCEL_ALREADY_CANCELED, C.CANCEL_ALREADY_COMPLETED],
  "invalid-order": [C.PARAMETER_ERROR],
};

/** The feed's default hosts (exchanges/okx/feed.ts); the browser's are `browserFeed`. */
export const OKX_WS_URL = "wss://ws.okx.com:8443/ws/v5/public";

/** OKX: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const OKX_INFO: ExchangeInfo = {
  id: "okx",
  name: "OKX",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 500, createBatch: 20, cancelBatch: 20, unsupported: ["cancelAll"] },
  clientOrderId: { length: 32, chars: "A-Za-z0-9" },
  errors: OKX_ERRORS,
  postOnly: { form: 'ordType: "post_only"', onCross: "canceled" },
  feed: "socket",
  depth: 50,
  browserFeed: { connect: [OKX_WS_URL] },
};
