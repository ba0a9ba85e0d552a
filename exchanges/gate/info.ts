import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** Error labels of Gate's documented error list (the `label` of {label, message}), by kind. */
export const GATE_LABEL = {
  INVALID_KEY: "INVALID_KEY",
  INVALID_SIGNATURE: "INVALID_SIGNATURE",
  MISSING_REQUIRED_HEADER: "MISSING_REQUIRED_HEADER",
  REQUEST_EXPIRED: "REQUEST_EXPIRED",
  IP_FORBIDDEN: "IP_FORBIDDEN",
  READ_ONLY: "READ_ONLY",
  FORBIDDEN: "FORBIDDEN",
  INVALID_CREDENTIALS: "INVALID_CREDENTIALS",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  BALANCE_NOT_ENOUGH: "BALANCE_NOT_ENOUGH",
  ORDER_NOT_FOUND: "ORDER_NOT_FOUND",
  ORDER_CLOSED: "ORDER_CLOSED",
  ORDER_CANCELLED: "ORDER_CANCELLED",
  INVALID_PARAM_VALUE: "INVALID_PARAM_VALUE",
  INVALID_PRECISION: "INVALID_PRECISION",
  INVALID_CURRENCY_PAIR: "INVALID_CURRENCY_PAIR",
  AMOUNT_TOO_LITTLE: "AMOUNT_TOO_LITTLE",
  AMOUNT_TOO_MUCH: "AMOUNT_TOO_MUCH",
} as const;

export const GATE_ERRORS: ErrorCodeTable = {
  auth: [
    GATE_LABEL.INVALID_KEY,
    GATE_LABEL.INVALID_SIGNATURE,
    GATE_LABEL.MISSING_REQUIRED_HEADER,
    GATE_LABEL.REQUEST_EXPIRED,
    GATE_LABEL.IP_FORBIDDEN,
    GATE_LABEL.READ_ONLY,
    GATE_LABEL.FORBIDDEN,
    GATE_LABEL.INVALID_CREDENTIALS,
  ],
  "rate-limit": [GATE_LABEL.TOO_MANY_REQUESTS],
  "insufficient-funds": [GATE_LABEL.BALANCE_NOT_ENOUGH],
  "order-not-found": [GATE_LABEL.ORDER_NOT_FOUND, GATE_LABEL.ORDER_CLOSED, GATE_LABEL.ORDER_CANCELLED],
  "invalid-order": [
    GATE_LABEL.INVALID_PARAM_VALUE,
    GATE_LABEL.INVALID_PRECISION,
    GATE_LABEL.INVALID_CURRENCY_PAIR,
    GATE_LABEL.AMOUNT_TOO_LITTLE,
    GATE_LABEL.AMOUNT_TOO_MUCH,
  ],
};

/** The feed's default hosts (exchanges/gate/feed.ts); the browser's are `browserFeed`. */
export const GATE_REST_URL = "https://api.gateio.ws";
export const GATE_WS_URL = "wss://api.gateio.ws/ws/v4/";

/** Gate: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const GATE_INFO: ExchangeInfo = {
  id: "gate",
  name: "Gate",
  needsApiKey: true,
  needsPassphrase: false,
  // batch create (10) and cancel (20) are supported (docs/exchanges.md "Limits")
  limits: { openOrders: 100, createBatch: 10, cancelBatch: 20, unsupported: [] },
  clientOrderId: { prefix: "t-", length: 30, chars: "0-9A-Za-z_.-" },
  errors: GATE_ERRORS,
  postOnly: { form: 'time_in_force: "poc"', onCross: "canceled" },
  // docs/exchange-rules.md#countdown: "Countdown cancel orders", at least 5 s (no maximum documented; a day here)
  countdown: { minSeconds: 5, maxSeconds: 86_400, scope: "pair" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [GATE_WS_URL, GATE_REST_URL] },
};
