import type { ErrorCodeTable, ExchangeInfo, MessageRule } from "../core/info.js";

/**
 * HTX's err-code strings: the docs' per-endpoint examples (api-signature-not-valid,
 * base-record-invalid, base-not-found in batchcancel, order-orderstate-error) and codes HTX really
 * answers (base-request-exceed-frequency-limit: "Frequency of requests has exceeded the limit").
 */
export const HTX_CODE = {
  SIGNATURE_NOT_VALID: "api-signature-not-valid",
  SIGNATURE_CHECK_FAILED: "api-signature-check-failed",
  LOGIN_REQUIRED: "login-required",
  KEY_PERMISSION_INVALID: "api-key-permission-invalid",
  INVALID_IP: "invalid-ip",
  EXCEED_FREQUENCY_LIMIT: "base-request-exceed-frequency-limit",
  RATE_LIMIT: "api-request-too-frequent",
  TOO_MANY_REQUESTS: "too-many-requests",
  BALANCE_INSUFFICIENT: "account-balance-insufficient-error",
  FROZEN_BALANCE_INSUFFICIENT: "account-frozen-balance-insufficient-error",
  INSUFFICIENT_BALANCE: "insufficient-balance",
  RECORD_INVALID: "base-record-invalid",
  RECORD_NOT_FOUND: "base-not-found",
  ORDER_NOT_FOUND: "order-queryorder-invalid",
  ORDER_STATE_ERROR: "order-orderstate-error",
  INVALID_PARAMETER: "invalid-parameter",
  SYMBOL_ERROR: "base-symbol-error",
  AMOUNT_MIN: "order-limitorder-amount-min-error",
  PRICE_PRECISION: "order-orderprice-precision-error",
  AMOUNT_PRECISION: "order-orderamount-precision-error",
} as const;

export const HTX_ERRORS: ErrorCodeTable = {
  auth: [
    HTX_CODE.SIGNATURE_NOT_VALID,
    HTX_CODE.SIGNATURE_CHECK_FAILED,
    HTX_CODE.LOGIN_REQUIRED,
    HTX_CODE.KEY_PERMISSION_INVALID,
    HTX_CODE.INVALID_IP,
  ],
  "rate-limit": [HTX_CODE.EXCEED_FREQUENCY_LIMIT, HTX_CODE.RATE_LIMIT, HTX_CODE.TOO_MANY_REQUESTS],
  "insufficient-funds": [
    HTX_CODE.BALANCE_INSUFFICIENT,
    HTX_CODE.FROZEN_BALANCE_INSUFFICIENT,
    HTX_CODE.INSUFFICIENT_BALANCE,
  ],
  "order-not-found": [HTX_CODE.RECORD_INVALID, HTX_CODE.RECORD_NOT_FOUND, HTX_CODE.ORDER_NOT_FOUND],
  "invalid-order": [
    HTX_CODE.ORDER_STATE_ERROR,
    HTX_CODE.INVALID_PARAMETER,
    HTX_CODE.SYMBOL_ERROR,
    HTX_CODE.AMOUNT_MIN,
    HTX_CODE.PRICE_PRECISION,
    HTX_CODE.AMOUNT_PRECISION,
  ],
};

/** HTX also throttles as {"err-code":"invalid-parameter","err-msg":"request limit"}. */
export const HTX_MESSAGES: readonly MessageRule[] = [
  { code: HTX_CODE.INVALID_PARAMETER, text: ["request limit"], start: true, kind: "rate-limit" },
];

/** The feed's default hosts (exchanges/htx/feed.ts); the browser's are `browserFeed`. */
export const HTX_WS_URL = "wss://api.huobi.pro/feed";

/** HTX: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const HTX_INFO: ExchangeInfo = {
  id: "htx",
  name: "HTX",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: 500, createBatch: 10, cancelBatch: 50, unsupported: [] },
  clientOrderId: { length: 32 },
  errors: HTX_ERRORS,
  errorMessages: HTX_MESSAGES,
  // partial-canceled counts as open; canceling counts as canceled
  statusExceptions: { "partial-canceled": "open", canceling: "canceled" },
  postOnly: { form: 'type: "buy-limit-maker" / "sell-limit-maker"', onCross: "rejected" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [HTX_WS_URL] },
};
