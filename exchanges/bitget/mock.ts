import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A bitget v2 spot mock that verifies requests the way bitget documents it
 * (https://www.bitget.com/api-doc/common/signature): ACCESS-SIGN recomputed as base64 HMAC-SHA256
 * over timestamp + METHOD + requestPath + ('?' + raw query when present) + raw body; the ms
 * timestamp must be within 30 s; the passphrase must match. Failures use bitget's envelope
 * {code, msg, requestTime, data: null} with HTTP 400 (or 429 for the rate limit).
 */
export interface BitgetMockOrder {
  userId: string;
  symbol: string;
  orderId: string;
  clientOid: string;
  price: string;
  size: string;
  orderType: string;
  side: string;
  status: string;
  priceAvg: string;
  baseVolume: string;
  quoteVolume: string;
  enterPointSource: string;
  orderSource: string;
  cTime: string;
  uTime: string;
  feeDetail: string;
  cancelReason: string;
}

export interface BitgetMock {
  server: MockServer;
  url: string;
  orders: Map<string, BitgetMockOrder>;
  delayNextCreateMs: number;
  rateLimitNext: boolean;
  errorNext: { code: string; msg: string } | undefined;
  /** the next batch create puts this item index in failureList */
  failBatchItem: number | undefined;
  assets: { coin: string; available: string; frozen: string; locked: string; limitAvailable: string; uTime: string }[];
  close(): Promise<void>;
}

let nextId = 1_100_000_000_000_000_000n;

const fail = (status: number, code: string, msg: string): MockReply => ({
  status,
  body: { code, msg, requestTime: Date.now(), data: null },
});
const ok = (data: unknown): MockReply => ({ body: { code: "00000", msg: "success", requestTime: Date.now(), data } });

export async function startBitgetMock(credentials: {
  api: string;
  secret: string;
  password: string;
}): Promise<BitgetMock> {
  const server = await startMockServer();
  const mock: BitgetMock = {
    server,
    url: server.url,
    orders: new Map(),
    delayNextCreateMs: 0,
    rateLimitNext: false,
    errorNext: undefined,
    failBatchItem: undefined,
    assets: [
      { coin: "usdt", available: "500.5", frozen: "100", locked: "0.5", limitAvailable: "0", uTime: "1622697148000" },
      {
        coin: "btc",
        available: "1.123456789012345678",
        frozen: "0",
        locked: "0",
        limitAvailable: "0",
        uTime: "1622697148000",
      },
      { coin: "eth", available: "0", frozen: "0", locked: "0", limitAvailable: "0", uTime: "1622697148000" },
    ],
    close: () => server.close(),
  };

  function verify(req: ReceivedRequest): MockReply | undefined {
    const h = req.headers;
    const key = String(h["access-key"] ?? "");
    const sign = String(h["access-sign"] ?? "");
    const ts = String(h["access-timestamp"] ?? "");
    const pass = String(h["access-passphrase"] ?? "");
    if (key !== credentials.api) return fail(400, "40006", "Invalid ACCESS_KEY");
    if (!/^\d{13}$/.test(ts)) return fail(400, "40005", "Invalid ACCESS_TIMESTAMP");
    if (Math.abs(Number(ts) - Date.now()) > 30_000) return fail(400, "40008", "Request timestamp expired");
    const prehash = ts + req.method + req.path + (req.query ? `?${req.query}` : "") + req.body;
    if (sign !== createHmac("sha256", credentials.secret).update(prehash).digest("base64"))
      return fail(400, "40009", "sign signature error");
    if (pass !== credentials.password) return fail(400, "40012", "apikey/password is incorrect");
    if (mock.rateLimitNext) {
      mock.rateLimitNext = false;
      return fail(429, "429", "Too many requests");
    }
    if (mock.errorNext) {
      const e = mock.errorNext;
      mock.errorNext = undefined;
      return fail(400, e.code, e.msg);
    }
    return undefined;
  }
  server.intercept(verify);

  function place(symbol: string, p: Record<string, string>): BitgetMockOrder {
    if (p.orderType !== "limit" || p.force !== "gtc" || !p.price || !p.size)
      throw new Error("Parameter verification failed");
    const now = String(Date.now());
    const order: BitgetMockOrder = {
      userId: "1234567890",
      symbol,
      orderId: String(nextId++),
      clientOid: p.clientOid ?? "",
      price: p.price,
      size: p.size,
      orderType: "limit",
      side: p.side ?? "",
      status: "live",
      priceAvg: "0",
      baseVolume: "0",
      quoteVolume: "0",
      enterPointSource: "API",
      orderSource: "normal",
      cTime: now,
      uTime: now,
      feeDetail: "",
      cancelReason: "",
    };
    mock.orders.set(order.orderId, order);
    return order;
  }

  server.on("POST /api/v2/spot/trade/place-order", (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    const delay = mock.delayNextCreateMs;
    mock.delayNextCreateMs = 0;
    try {
      const o = place(body.symbol ?? "", body);
      return { ...ok({ orderId: o.orderId, clientOid: o.clientOid }), delayMs: delay };
    } catch (e) {
      return fail(400, "40034", (e as Error).message);
    }
  });

  server.on("POST /api/v2/spot/trade/batch-orders", (req) => {
    const body = JSON.parse(req.body) as { symbol: string; orderList: Record<string, string>[] };
    const successList: unknown[] = [];
    const failureList: unknown[] = [];
    body.orderList.forEach((p, i) => {
      if (mock.failBatchItem === i) {
        failureList.push({ orderId: "", clientOid: p.clientOid, errorMsg: "Insufficient balance", errorCode: "43012" });
        return;
      }
      const o = place(body.symbol, p);
      successList.push({ orderId: o.orderId, clientOid: o.clientOid });
    });
    mock.failBatchItem = undefined;
    return ok({ successList, failureList });
  });

  function cancel(symbol: string, orderId: string): BitgetMockOrder | undefined {
    const o = mock.orders.get(orderId);
    if (!o || o.symbol !== symbol || (o.status !== "live" && o.status !== "partially_filled")) return undefined;
    o.status = "cancelled";
    o.cancelReason = "normal_cancel";
    return o;
  }

  server.on("POST /api/v2/spot/trade/cancel-order", (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    const o = cancel(body.symbol ?? "", body.orderId ?? "");
    return o ? ok({ orderId: o.orderId, clientOid: o.clientOid }) : fail(400, "43001", "The order does not exist");
  });

  server.on("POST /api/v2/spot/trade/batch-cancel-order", (req) => {
    const body = JSON.parse(req.body) as { symbol: string; orderList: { orderId: string }[] };
    const successList: unknown[] = [];
    const failureList: unknown[] = [];
    for (const item of body.orderList) {
      const o = cancel(body.symbol, item.orderId);
      if (o) successList.push({ orderId: o.orderId, clientOid: o.clientOid });
      else
        failureList.push({
          orderId: item.orderId,
          clientOid: "",
          errorMsg: "The order does not exist",
          errorCode: "43001",
        });
    }
    return ok({ successList, failureList });
  });

  server.on("POST /api/v2/spot/trade/cancel-symbol-order", (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    for (const o of mock.orders.values()) if (o.symbol === body.symbol) cancel(o.symbol, o.orderId);
    return ok({ symbol: body.symbol });
  });

  server.on("GET /api/v2/spot/trade/orderInfo", (req) => {
    const q = parseQuery(req.query);
    const o = [...mock.orders.values()].find((x) =>
      q.orderId ? x.orderId === q.orderId : x.clientOid === q.clientOid,
    );
    return ok(o ? [o] : []);
  });

  server.on("GET /api/v2/spot/trade/unfilled-orders", (req) => {
    const q = parseQuery(req.query);
    // unfilled-orders names the order price priceAvg (documented response).
    const list = [...mock.orders.values()]
      .filter((o) => (o.status === "live" || o.status === "partially_filled") && (!q.symbol || o.symbol === q.symbol))
      .map(({ price, priceAvg: _filledPrice, feeDetail: _fee, cancelReason: _reason, ...rest }) => ({
        ...rest,
        priceAvg: price,
        basePrice: "0",
        presetTakeProfitPrice: "",
        executeTakeProfitPrice: "",
        presetStopLossPrice: "",
        executeStopLossPrice: "",
        tpslType: "normal",
        triggerPrice: null,
      }));
    return ok(list.slice(0, Number(q.limit ?? 100)));
  });

  server.on("GET /api/v2/spot/account/assets", () => ok(mock.assets));

  return mock;
}
