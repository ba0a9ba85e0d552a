import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** ProBit's documented errorCode strings and HTTP statuses (docs-en.probit.com/docs/http-errors, checked). */
export const PROBIT_CODE = {
  INVALID_ARGUMENT: "INVALID_ARGUMENT",
  INVALID_MARKET: "INVALID_MARKET",
  INVALID_ORDER: "INVALID_ORDER", // 400 "Requested order is not exist. Or It is not your order."
  INVALID_CURRENCY: "INVALID_CURRENCY",
  NOT_ALLOWED_COMBINATION: "NOT_ALLOWED_COMBINATION",
  NOT_ENOUGH_BALANCE: "NOT_ENOUGH_BALANCE",
  MARKET_CLOSED: "MARKET_CLOSED",
  MARKET_NOT_FOUND: "MARKET_NOT_FOUND",
  MARKET_UNAVAILABLE: "MARKET_UNAVAILABLE",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  TOO_MANY_OPEN_ORDERS: "TOO_MANY_OPEN_ORDERS",
  UNKNOWN_USER_BLOCKED: "UNKNOWN_USER_BLOCKED",
  RATE_LIMIT_EXCEEDED: "RATE_LIMIT_EXCEEDED",
  TRADING_UNAVAILABLE: "TRADING_UNAVAILABLE",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RESOURCE_LOCKED: "RESOURCE_LOCKED",
  UNAVAILABLE: "UNAVAILABLE",
} as const;

export const PROBIT_ERRORS: ErrorCodeTable = {
  auth: [PROBIT_CODE.UNAUTHORIZED, PROBIT_CODE.FORBIDDEN, PROBIT_CODE.UNKNOWN_USER_BLOCKED],
  "rate-limit": [PROBIT_CODE.RATE_LIMIT_EXCEEDED],
  "insufficient-funds": [PROBIT_CODE.NOT_ENOUGH_BALANCE],
  "order-not-found": [PROBIT_CODE.INVALID_ORDER],
  "invalid-order": [
    PROBIT_CODE.INVALID_ARGUMENT,
    PROBIT_CODE.INVALID_MARKET,
    PROBIT_CODE.INVALID_CURRENCY,
    PROBIT_CODE.NOT_ALLOWED_COMBINATION,
    PROBIT_CODE.MARKET_CLOSED,
    PROBIT_CODE.MARKET_NOT_FOUND,
    PROBIT_CODE.MARKET_UNAVAILABLE,
    PROBIT_CODE.TOO_MANY_OPEN_ORDERS,
    PROBIT_CODE.TRADING_UNAVAILABLE,
    PROBIT_CODE.PAYLOAD_TOO_LARGE,
    PROBIT_CODE.RESOURCE_LOCKED,
    PROBIT_CODE.UNAVAILABLE,
  ],
};

/** The feed's default hosts (exchanges/probit/feed.ts); the browser's are `browserFeed`. */
export const PROBIT_WS_URL = "wss://api.probit.com/api/exchange/v1/ws";

/** Probit: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const PROBIT_INFO: ExchangeInfo = {
  id: "probit",
  name: "Probit",
  needsApiKey: true,
  needsPassphrase: false,
  limits: {
    openOrders: null,
    createBatch: 0,
    cancelBatch: 0,
    unsupported: ["createBatch", "cancelBatch", "cancelAll"],
  },
  clientOrderId: { length: 32 },
  errors: PROBIT_ERRORS,
  postOnly: { form: 'time_in_force: "gtcpo"', onCross: "canceled" },
  feed: "socket",
  depth: 50,
  browserFeed: { connect: [PROBIT_WS_URL] },
};
