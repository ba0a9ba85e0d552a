import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** Codes of https://www.bitget.com/api-doc/spot/error-code/restapi */
export const BITGET_CODES = {
  ACCESS_KEY_EMPTY: "40001",
  ACCESS_SIGN_EMPTY: "40002",
  SIGNATURE_EMPTY: "40003",
  INVALID_TIMESTAMP: "40005",
  INVALID_ACCESS_KEY: "40006",
  TIMESTAMP_EXPIRED: "40008",
  SIGNATURE_ERROR: "40009",
  PASSPHRASE_EMPTY: "40011",
  PASSPHRASE_INCORRECT: "40012",
  INCORRECT_PERMISSIONS: "40014",
  INVALID_IP: "40018",
  PASSPHRASE_ERROR: "40036",
  API_KEY_NOT_EXIST: "40037",
  IP_NOT_WHITELISTED: "40038",
  TOO_MANY_REQUESTS: "429",
  PARAMETER_ERROR: "40034",
  ORDER_DATA_NOT_FOUND: "40109",
  ORDER_NOT_EXIST: "43001",
  NO_ORDER_TO_CANCEL: "43004",
  INSUFFICIENT_BALANCE: "43012",
  ORDER_NOT_EXIST_LEGACY: "45057",
} as const;

const C = BITGET_CODES;
export const BITGET_ERRORS: ErrorCodeTable = {
  auth: [
    C.ACCESS_KEY_EMPTY,
    C.ACCESS_SIGN_EMPTY,
    C.SIGNATURE_EMPTY,
    C.INVALID_TIMESTAMP,
    C.INVALID_ACCESS_KEY,
    C.TIMESTAMP_EXPIRED,
    C.SIGNATURE_ERROR,
    C.PASSPHRASE_EMPTY,
    C.PASSPHRASE_INCORRECT,
    C.INCORRECT_PERMISSIONS,
    C.INVALID_IP,
    C.PASSPHRASE_ERROR,
    C.API_KEY_NOT_EXIST,
    C.IP_NOT_WHITELISTED,
  ],
  "rate-limit": [C.TOO_MANY_REQUESTS],
  "insufficient-funds": [C.INSUFFICIENT_BALANCE],
  "order-not-found": [C.ORDER_DATA_NOT_FOUND, C.ORDER_NOT_EXIST, C.NO_ORDER_TO_CANCEL, C.ORDER_NOT_EXIST_LEGACY],
  "invalid-order": [C.PARAMETER_ERROR],
};

/** The feed's default hosts (exchanges/bitget/feed.ts); the browser's are `browserFeed`. */
export const BITGET_WS_URL = "wss://ws.bitget.com/v2/ws/public";

/** Bitget: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const BITGET_INFO: ExchangeInfo = {
  id: "bitget",
  name: "Bitget",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 100, createBatch: 50, cancelBatch: 50, unsupported: [] },
  clientOrderId: { length: 32 },
  errors: BITGET_ERRORS,
  postOnly: { form: 'force: "post_only"', onCross: "canceled" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [BITGET_WS_URL] },
};
