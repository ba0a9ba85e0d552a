import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * An okx v5 mock that verifies requests the way okx documents it
 * (https://www.okx.com/docs-v5/en/#overview-rest-authentication): OK-ACCESS-SIGN recomputed as base64
 * HMAC-SHA256 over timestamp + METHOD + requestPath (with the raw query) + raw body; the ISO
 * timestamp must be within 30 s of the server clock; the passphrase must match. Failures use okx's
 * envelope {code, msg, data: []} with HTTP 401 (auth) or 429 (rate limit).
 */
export interface OkxMockOrder {
  instId: string;
  ordId: string;
  clOrdId: string;
  px: string;
  sz: string;
  accFillSz: string;
  side: string;
  ordType: string;
  state: string;
  tdMode: string;
  cTime: string;
  uTime: string;
  // The rest of the documented order object (Get order details), spot cash values.
  instType: string;
  tag: string;
  ccy: string;
  tgtCcy: string;
  avgPx: string;
  fillPx: string;
  fillSz: string;
  tradeId: string;
  fillTime: string;
  fee: string;
  feeCcy: string;
  rebate: string;
  rebateCcy: string;
  lever: string;
  category: string;
  source: string;
  cancelSource: string;
  reduceOnly: string;
  stpMode: string;
}

export interface OkxMock {
  server: MockServer;
  url: string;
  orders: Map<string, OkxMockOrder>;
  delayNextCreateMs: number;
  rateLimitNext: boolean;
  /** the next trade call fails with this sCode/sMsg (envelope code "1") */
  errorNext: { sCode: string; sMsg: string } | undefined;
  details: { ccy: string; availBal: string; frozenBal: string; cashBal: string; eq: string }[];
  close(): Promise<void>;
}

let nextId = 590_000_000_000_000_000n;

const fail = (status: number, code: string, msg: string): MockReply => ({ status, body: { code, msg, data: [] } });
const ok = (data: unknown[]): MockReply => ({
  body: { code: "0", msg: "", data, inTime: String(Date.now() * 1000), outTime: String(Date.now() * 1000) },
});

export async function startOkxMock(credentials: { api: string; secret: string; password: string }): Promise<OkxMock> {
  const server = await startMockServer();
  const mock: OkxMock = {
    server,
    url: server.url,
    orders: new Map(),
    delayNextCreateMs: 0,
    rateLimitNext: false,
    errorNext: undefined,
    details: [
      { ccy: "USDT", availBal: "1200.25", frozenBal: "300", cashBal: "1500.25", eq: "1500.25" },
      { ccy: "BTC", availBal: "0.00000000000000000001", frozenBal: "0", cashBal: "0", eq: "0" },
      { ccy: "ETH", availBal: "0", frozenBal: "0", cashBal: "0", eq: "0" },
    ],
    close: () => server.close(),
  };

  function verify(req: ReceivedRequest): MockReply | undefined {
    const h = req.headers;
    const key = String(h["ok-access-key"] ?? "");
    const sign = String(h["ok-access-sign"] ?? "");
    const ts = String(h["ok-access-timestamp"] ?? "");
    const pass = h["ok-access-passphrase"];
    if (!key) return fail(401, "50103", 'Request header "OK-ACCESS-KEY" cannot be empty.');
    if (pass === undefined || pass === "")
      return fail(401, "50104", 'Request header "OK-ACCESS-PASSPHRASE" cannot be empty.');
    if (!sign) return fail(401, "50106", 'Request header "OK-ACCESS-SIGN" cannot be empty.');
    if (!ts) return fail(401, "50107", 'Request header "OK-ACCESS-TIMESTAMP" cannot be empty.');
    if (key !== credentials.api) return fail(401, "50111", "Invalid OK-ACCESS-KEY.");
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(ts)) return fail(401, "50112", "Invalid OK-ACCESS-TIMESTAMP.");
    if (Math.abs(Date.parse(ts) - Date.now()) > 30_000) return fail(401, "50102", "Timestamp request expired.");
    const requestPath = req.query ? `${req.path}?${req.query}` : req.path;
    const expected = createHmac("sha256", credentials.secret)
      .update(ts + req.method + requestPath + req.body)
      .digest("base64");
    if (sign !== expected) return fail(401, "50113", "Invalid signature.");
    if (pass !== credentials.password) return fail(401, "50105", 'Request header "OK-ACCESS-PASSPHRASE" incorrect.');
    if (mock.rateLimitNext) {
      mock.rateLimitNext = false;
      return fail(429, "50011", "Too Many Requests");
    }
    return undefined;
  }
  server.intercept(verify);

  function item(o: Partial<OkxMockOrder>, sCode = "0", sMsg = "Order placed") {
    return { clOrdId: o.clOrdId ?? "", ordId: o.ordId ?? "", tag: "", ts: String(Date.now()), sCode, sMsg };
  }

  function place(p: Record<string, string>): OkxMockOrder | { sCode: string; sMsg: string } {
    if (mock.errorNext) {
      const e = mock.errorNext;
      mock.errorNext = undefined;
      return e;
    }
    if (p.tdMode !== "cash" || p.ordType !== "limit" || !p.px || !p.sz || !p.instId)
      return { sCode: "51000", sMsg: "Parameter error" };
    if (p.clOrdId && !/^[A-Za-z0-9]{1,32}$/.test(p.clOrdId)) return { sCode: "51000", sMsg: "Parameter clOrdId error" };
    const now = String(Date.now());
    const order: OkxMockOrder = {
      instId: p.instId,
      ordId: String(nextId++),
      clOrdId: p.clOrdId ?? "",
      px: p.px,
      sz: p.sz,
      accFillSz: "0",
      side: p.side ?? "",
      ordType: "limit",
      state: "live",
      tdMode: "cash",
      cTime: now,
      uTime: now,
      instType: "SPOT",
      tag: "",
      ccy: "",
      tgtCcy: "",
      avgPx: "",
      fillPx: "",
      fillSz: "0",
      tradeId: "",
      fillTime: "",
      fee: "0",
      feeCcy: p.instId.split("-")[p.side === "buy" ? 0 : 1] ?? "",
      rebate: "0",
      rebateCcy: "",
      lever: "",
      category: "normal",
      source: "",
      cancelSource: "",
      reduceOnly: "false",
      stpMode: "cancel_maker",
    };
    mock.orders.set(order.ordId, order);
    return order;
  }

  server.on("POST /api/v5/trade/order", (req) => {
    const delay = mock.delayNextCreateMs;
    mock.delayNextCreateMs = 0;
    const result = place(JSON.parse(req.body));
    if ("sCode" in result && !("ordId" in result))
      return { body: { code: "1", msg: "All operations failed", data: [item({}, result.sCode, result.sMsg)] } };
    return { ...ok([item(result as OkxMockOrder)]), delayMs: delay };
  });

  server.on("POST /api/v5/trade/batch-orders", (req) => {
    const list = JSON.parse(req.body) as Record<string, string>[];
    const data = list.map((p) => {
      const r = place(p);
      return "ordId" in r ? item(r) : item({ clOrdId: p.clOrdId ?? "" }, r.sCode, r.sMsg);
    });
    const failed = data.filter((d) => d.sCode !== "0").length;
    const code = failed === 0 ? "0" : failed === data.length ? "1" : "2";
    return { body: { code, msg: code === "0" ? "" : "Operation failed", data } };
  });

  function cancel(p: Record<string, string>) {
    const o = mock.orders.get(p.ordId ?? "");
    if (!o || o.instId !== p.instId || o.state !== "live") {
      return {
        clOrdId: "",
        ordId: p.ordId ?? "",
        ts: String(Date.now()),
        sCode: "51400",
        sMsg: "Order cancellation failed as the order has been filled, canceled or does not exist.",
      };
    }
    o.state = "canceled";
    o.cancelSource = "1";
    return { clOrdId: o.clOrdId, ordId: o.ordId, ts: String(Date.now()), sCode: "0", sMsg: "" };
  }

  server.on("POST /api/v5/trade/cancel-order", (req) => {
    const d = cancel(JSON.parse(req.body));
    return { body: { code: d.sCode === "0" ? "0" : "1", msg: "", data: [d] } };
  });

  server.on("POST /api/v5/trade/cancel-batch-orders", (req) => {
    const data = (JSON.parse(req.body) as Record<string, string>[]).map(cancel);
    const failed = data.filter((d) => d.sCode !== "0").length;
    return { body: { code: failed === 0 ? "0" : failed === data.length ? "1" : "2", msg: "", data } };
  });

  server.on("GET /api/v5/trade/order", (req) => {
    const q = parseQuery(req.query);
    const o = [...mock.orders.values()].find(
      (x) => x.instId === q.instId && (q.ordId ? x.ordId === q.ordId : x.clOrdId === q.clOrdId),
    );
    if (!o) return { body: { code: "51603", msg: "Order does not exist.", data: [] } };
    return ok([o]);
  });

  server.on("GET /api/v5/trade/orders-pending", (req) => {
    const q = parseQuery(req.query);
    const list = [...mock.orders.values()]
      .filter((o) => o.state === "live" || o.state === "partially_filled")
      .filter((o) => !q.instId || o.instId === q.instId)
      .sort((a, b) => (BigInt(b.ordId) > BigInt(a.ordId) ? 1 : -1));
    return ok(list.slice(0, Number(q.limit ?? 100)));
  });

  server.on("GET /api/v5/account/balance", () =>
    ok([{ uTime: String(Date.now()), totalEq: "1500.25", details: mock.details }]),
  );

  return mock;
}
