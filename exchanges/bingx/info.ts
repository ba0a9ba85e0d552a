import type { ErrorCodeTable, ExchangeInfo, MessageRule } from "../core/info.js";

/** BingX's documented business codes (spot "Common Error Codes" and each endpoint's table). */
export const BINGX_CODE = {
  SIGNATURE_FAILED: 100001,
  INSUFFICIENT_BALANCE: 100202,
  NO_DATA: 100204,
  INVALID_PARAMETER: 100400,
  /** What BingX really answers for an unknown order: " order not exist", or a cancel of a finished one. */
  ORDER_NOT_EXIST: 100404,
  RATE_LIMITED: 100410,
  INCORRECT_API_KEY: 100413,
  ACCOUNT_RISK_CONTROL: 100414,
  IP_NOT_WHITELISTED: 100419,
  /** "Null timestamp or timestamp mismatch", also "cancel fail, order not exist" */
  TIMESTAMP_MISMATCH_OR_NOT_EXIST: 100421,
  PRICE_DEVIATES: 100440,
  SYMBOL_OFFLINE: 100490,
  TIMESTAMP_INVALID: 80014,
} as const;

const C = BINGX_CODE;
export const BINGX_ERRORS: ErrorCodeTable = {
  auth: [C.SIGNATURE_FAILED, C.INCORRECT_API_KEY, C.IP_NOT_WHITELISTED, C.TIMESTAMP_INVALID, C.ACCOUNT_RISK_CONTROL],
  "rate-limit": [C.RATE_LIMITED],
  "insufficient-funds": [C.INSUFFICIENT_BALANCE],
  "order-not-found": [C.NO_DATA, C.ORDER_NOT_EXIST],
  "invalid-order": [C.INVALID_PARAMETER, C.PRICE_DEVIATES, C.SYMBOL_OFFLINE],
};

/** BingX reuses 100421/100400 for several failures; an answer that says the order does not exist is order-not-found. */
export const BINGX_MESSAGES: readonly MessageRule[] = [
  { text: ["order not exist", "order does not exist", "not a valid order id"], kind: "order-not-found" },
];

/** The feed's default hosts (exchanges/bingx/feed.ts); the browser's are `browserFeed`. */
export const BINGX_WS_URL = "wss://open-api-ws.bingx.com/market";

/** BingX: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BINGX_INFO: ExchangeInfo = {
  id: "bingx",
  name: "BingX",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 500, createBatch: 10, cancelBatch: 10, unsupported: [] },
  clientOrderId: { length: 32, chars: "A-Za-z0-9_" },
  errors: BINGX_ERRORS,
  errorMessages: BINGX_MESSAGES,
  postOnly: { form: 'timeInForce: "PostOnly"', onCross: "canceled" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [BINGX_WS_URL] },
};
