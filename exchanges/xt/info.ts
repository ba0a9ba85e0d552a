import type { ErrorCodeTable, ExchangeInfo } from "../core/info.js";

/** XT's documented message codes (mc) with their documented messages. */
export const XT_CODE = {
  AUTH_001: "Missing request header validate-appkey",
  AUTH_002: "Missing request header validate-timestamp",
  AUTH_003: "Missing request header validate-recvwindow",
  AUTH_004: "Bad request header validate-recvwindow",
  AUTH_005: "Missing request header validate-algorithms",
  AUTH_006: "Bad request header validate-algorithms",
  AUTH_007: "Missing request header validate-signature",
  AUTH_101: "ApiKey does not exist",
  AUTH_102: "ApiKey is not activated",
  AUTH_103: "Signature error",
  AUTH_104: "Unbound IP request",
  AUTH_105: "Outdated message",
  AUTH_106: "Exceeded apikey permission",
  SYMBOL_001: "Symbol not exist",
  ORDER_001: "Platform rejection",
  ORDER_002: "Insufficient funds",
  ORDER_004: "No transaction",
  ORDER_005: "Order not exist",
  ORDER_006: "Too many open orders",
  ORDER_008: "The order price or quantity precision is abnormal",
} as const;
type XtCode = keyof typeof XT_CODE;
const codes = (...names: XtCode[]) => names;

export const XT_ERRORS: ErrorCodeTable = {
  auth: codes(
    "AUTH_001",
    "AUTH_002",
    "AUTH_003",
    "AUTH_004",
    "AUTH_005",
    "AUTH_006",
    "AUTH_007",
    "AUTH_101",
    "AUTH_102",
    "AUTH_103",
    "AUTH_104",
    "AUTH_105",
    "AUTH_106",
  ),
  "insufficient-funds": codes("ORDER_002"),
  "order-not-found": codes("ORDER_005"),
  "invalid-order": codes("SYMBOL_001", "ORDER_001", "ORDER_004", "ORDER_006", "ORDER_008"),
};

/** The feed's default hosts (exchanges/xt/feed.ts); the browser's are `browserFeed`. */
export const XT_REST_URL = "https://sapi.xt.com";
export const XT_WS_URL = "wss://stream.xt.com/public";

/** XT: the facts the whole code base reads (docs/exchanges.md "What info.ts holds"). */
export const XT_INFO: ExchangeInfo = {
  id: "xt",
  name: "XT",
  needsApiKey: true,
  needsPassphrase: false,
  limits: { openOrders: null, createBatch: 40, cancelBatch: 40, unsupported: [] },
  clientOrderId: { length: 22, minLength: 4, chars: "A-Za-z0-9_" },
  errors: XT_ERRORS,
  postOnly: { form: 'timeInForce: "GTX"', onCross: "canceled" },
  feed: "socket",
  depth: 50,
  browserFeed: { connect: [XT_WS_URL, XT_REST_URL] },
};
