import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** LBank's documented REST error codes (docs "Error code", REST API code). */
export const LBANK_CODE = {
  REQUIRED_PARAMETER_EMPTY: 10001,
  VALIDATION_FAILED: 10002,
  INVALID_PARAMETER: 10003,
  REQUEST_TOO_FREQUENT: 10004,
  SECRET_KEY_NOT_EXIST: 10005,
  USER_NOT_EXIST: 10006,
  INVALID_SIGNATURE: 10007,
  INVALID_TRADING_PAIR: 10008,
  PRICE_AMOUNT_REQUIRED: 10009,
  PRICE_AMOUNT_BELOW_MINIMUM: 10010,
  AMOUNT_TOO_SMALL: 10013,
  INSUFFICIENT_MONEY: 10014,
  INVALID_ORDER_TYPE: 10015,
  INSUFFICIENT_BALANCE: 10016,
  PERMISSION_DENIED: 10022, // "API Key permission denied, Invalid IP or permissions"
  CANNOT_TRADE_PAIR: 10024,
  ORDER_FILLED: 10025,
  ORDER_CANCELLED: 10026,
  ORDER_CANCELLING: 10027,
  INVALID_ECHOSTR: 10031,
  ORDER_NOT_EXIST: 10032, // "The order number does not exist"
  CREATE_FAILED: 10033,
  CUSTOM_ID_DUPLICATED: 10036,
  ORDER_CANCELLED_OR_COMPLETED: 10037,
  BELOW_MINIMUM_TRANSACTION: 10120,
  ABOVE_MAXIMUM_TRANSACTION: 10121,
  PRICE_ABOVE_LIMIT: 10122,
  PRICE_BELOW_LIMIT: 10123,
  REPLAY_FILTER_TIMESTAMP: 10600, // "intercepted by replay attacks filter, check timestamp"
} as const;

const L = LBANK_CODE;
export const LBANK_ERRORS: ErrorCodeTable = {
  auth: [
    L.VALIDATION_FAILED,
    L.SECRET_KEY_NOT_EXIST,
    L.USER_NOT_EXIST,
    L.INVALID_SIGNATURE,
    L.PERMISSION_DENIED,
    L.INVALID_ECHOSTR,
    L.REPLAY_FILTER_TIMESTAMP,
  ],
  "rate-limit": [L.REQUEST_TOO_FREQUENT],
  "insufficient-funds": [L.INSUFFICIENT_MONEY, L.INSUFFICIENT_BALANCE],
  // an order that no longer exists, or is already filled or canceled, cannot be found to cancel
  "order-not-found": [L.ORDER_NOT_EXIST, L.ORDER_FILLED, L.ORDER_CANCELLED, L.ORDER_CANCELLED_OR_COMPLETED],
  "invalid-order": [
    L.REQUIRED_PARAMETER_EMPTY,
    L.INVALID_PARAMETER,
    L.INVALID_TRADING_PAIR,
    L.PRICE_AMOUNT_REQUIRED,
    L.PRICE_AMOUNT_BELOW_MINIMUM,
    L.AMOUNT_TOO_SMALL,
    L.INVALID_ORDER_TYPE,
    L.CANNOT_TRADE_PAIR,
    L.ORDER_CANCELLING,
    L.CREATE_FAILED,
    L.CUSTOM_ID_DUPLICATED,
    L.BELOW_MINIMUM_TRANSACTION,
    L.ABOVE_MAXIMUM_TRANSACTION,
    L.PRICE_ABOVE_LIMIT,
    L.PRICE_BELOW_LIMIT,
  ],
};

/** The feed's default hosts (exchanges/lbank/feed.ts); the browser's are `browserFeed`. */
export const LBANK_WS_URL = "wss://www.lbkex.net/ws/V2/";

/** LBank: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const LBANK_INFO: ExchangeInfo = {
  id: "lbank",
  name: "LBank",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 200, createBatch: 0, cancelBatch: 0, unsupported: ["createBatch", "cancelBatch"] },
  clientOrderId: { length: 32 },
  errors: LBANK_ERRORS,
  // numeric codes only: -1, 3 and 4 are canceled; 0 and 1 are open; 2 is closed
  statusExceptions: { "-1": "canceled", "0": "open", "1": "open", "2": "closed", "3": "canceled", "4": "canceled" },
  onlyExceptions: true,
  postOnly: { form: 'type: "buy_maker" / "sell_maker"', onCross: "canceled" },
  feed: "socket",
  depth: 50,
  browserFeed: { connect: [LBANK_WS_URL] },
};
