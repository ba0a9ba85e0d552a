import type { ErrorCodeTable, ExchangeInfo, MessageRule } from "../core/info.js";

/** KuCoin's documented error codes. */
export const KUCOIN_CODE = {
  HEADER_MISSING: "400001",
  TIMESTAMP_INVALID: "400002",
  KEY_NOT_EXISTS: "400003",
  PASSPHRASE_ERROR: "400004",
  SIGNATURE_ERROR: "400005",
  IP_NOT_WHITELISTED: "400006",
  ACCESS_DENIED: "400007",
  USER_FROZEN: "411100",
  TOO_MANY_REQUESTS: "429000",
  BALANCE_INSUFFICIENT: "200004",
  /** "account.noBalance" */
  NO_BALANCE: "260100",
  PARAMETER_ERROR: "400100",
  SYMBOL_NOT_EXISTS: "900001",
} as const;

export const KUCOIN_ERRORS: ErrorCodeTable = {
  auth: [
    KUCOIN_CODE.HEADER_MISSING,
    KUCOIN_CODE.TIMESTAMP_INVALID,
    KUCOIN_CODE.KEY_NOT_EXISTS,
    KUCOIN_CODE.PASSPHRASE_ERROR,
    KUCOIN_CODE.SIGNATURE_ERROR,
    KUCOIN_CODE.IP_NOT_WHITELISTED,
    KUCOIN_CODE.ACCESS_DENIED,
    KUCOIN_CODE.USER_FROZEN,
  ],
  "rate-limit": [KUCOIN_CODE.TOO_MANY_REQUESTS],
  "insufficient-funds": [KUCOIN_CODE.BALANCE_INSUFFICIENT, KUCOIN_CODE.NO_BALANCE],
  "invalid-order": [KUCOIN_CODE.PARAMETER_ERROR, KUCOIN_CODE.SYMBOL_NOT_EXISTS],
};

/**
 * KuCoin has no code of its own for a missing order: it answers 400100 (or the text itself as the
 * code) with "order not exist.", "order_not_exist", "order_not_exist_or_not_allow_to_cancel" or
 * "The order does not exist.".
 */
export const KUCOIN_MESSAGES: readonly MessageRule[] = [
  {
    text: ["order not exist", "ordernotexist", "order does not exist"],
    inCode: true,
    kind: "order-not-found",
  },
];

/** The feed's default hosts (exchanges/kucoin/feed.ts); the browser's are `browserFeed`. */
export const KUCOIN_REST_URL = "https://api.kucoin.com";
export const KUCOIN_WS_URL = "wss://ws-api-spot.kucoin.com/";

/** Kucoin: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const KUCOIN_INFO: ExchangeInfo = {
  id: "kucoin",
  name: "Kucoin",
  needsApiKey: true,
  needsPassphrase: true,
  limits: { openOrders: 500, createBatch: 5, cancelBatch: 0, unsupported: ["cancelBatch"] },
  clientOrderId: { length: 32 },
  errors: KUCOIN_ERRORS,
  errorMessages: KUCOIN_MESSAGES,
  postOnly: { form: "postOnly: true", onCross: "canceled" },
  feed: "socket",
  depth: 50,
  browserFeed: { connect: [KUCOIN_WS_URL], relay: "/api/kucoin" },
};
