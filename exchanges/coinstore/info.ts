import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** Coinstore's answer codes ({code, message, data}; 0 is success) and its documented HTTP statuses (401 signature failed, 404, 429). */
export const COINSTORE_CODE = {
  SUCCESS: 0,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOO_MANY_REQUESTS: 429,
} as const;

export const COINSTORE_ERRORS: ErrorCodeTable = {
  auth: [COINSTORE_CODE.UNAUTHORIZED, COINSTORE_CODE.FORBIDDEN],
  "rate-limit": [COINSTORE_CODE.TOO_MANY_REQUESTS],
  "order-not-found": [COINSTORE_CODE.NOT_FOUND],
};

/** The feed's default hosts (exchanges/coinstore/feed.ts); the browser's are `browserFeed`. */
export const COINSTORE_REST_URL = "https://api.coinstore.com";
export const COINSTORE_WS_URL = "wss://ws.coinstore.com/s/ws";

/** Coinstore: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const COINSTORE_INFO: ExchangeInfo = {
  id: "coinstore",
  name: "Coinstore",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: null, createBatch: 40, cancelBatch: 40, unsupported: ["cancelAll"] },
  clientOrderId: { length: 32 },
  errors: COINSTORE_ERRORS,
  postOnly: { form: 'ordType: "POST_ONLY"', onCross: "canceled" },
  feed: "socket",
  depth: 20,
  browserFeed: { connect: [COINSTORE_WS_URL, COINSTORE_REST_URL] },
};
