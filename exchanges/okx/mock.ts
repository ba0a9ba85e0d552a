import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  OrderStore,
  pageAfterId,
  raw,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * An okx v5 mock on the fake exchange (exchanges/core/testing/fake-exchange.ts) that verifies
 * requests the way okx's REST authentication section documents it: OK-ACCESS-SIGN recomputed as
 * base64 HMAC-SHA256 over timestamp + METHOD + requestPath (with the raw query) + raw body; the ISO
 * timestamp must be within 30 s of the server clock; the passphrase must match. Failures use okx's
 * envelope {code, msg, data: []} with HTTP 401 (auth) or 429 (rate limit).
 *
 * Every call checks the parameters okx documents as required (instId, tdMode, side, ordType and sz
 * on an order, instId and ordId or clOrdId on a cancel or a lookup, per item in a batch) and answers
 * 50014 "Parameter {name} can not be empty." otherwise. Open orders come newest first in pages of
 * `limit` (default and maximum 100), the next page asked for with `after` = the last ordId seen.
 * A batch whose items partly fail answers code "2" with each item's sCode, all failed "1".
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
  /** the fake underneath: batch faults (refuseNextBatchItem, dropNextBatchItem) and the rest */
  fake: FakeExchange;
  orders: Map<string, OkxMockOrder>;
  delayNextCreateMs: number;
  rateLimitNext: boolean;
  /** the next trade call fails with this sCode/sMsg (envelope code "1") */
  errorNext: { sCode: string; sMsg: string } | undefined;
  details: { ccy: string; availBal: string; frozenBal: string; cashBal: string; eq: string }[];
  /** puts a live order on the book directly (no request), as if placed earlier */
  addOrder(fields: { instId: string; side: "buy" | "sell"; sz: string; px: string; clOrdId: string }): OkxMockOrder;
  close(): Promise<void>;
}

const fail = (status: number, code: string, msg: string): MockReply => ({ status, body: { code, msg, data: [] } });
const CANCEL_FAILED = "Order cancellation failed as the order has been filled, canceled or does not exist.";

/** One SPOT instrument of "Get instruments", in okx's shape. */
function instrument(base: string, quote: string, state: string, tickSz: string, lotSz: string, minSz: string) {
  return {
    instType: "SPOT",
    instId: `${base}-${quote}`,
    uly: "",
    instFamily: "",
    baseCcy: base,
    quoteCcy: quote,
    settleCcy: "",
    ctValCcy: "",
    optType: "",
    stk: "",
    listTime: "1606468572000",
    expTime: "",
    lever: "10",
    tickSz,
    lotSz,
    minSz,
    ctVal: "",
    ctMult: "",
    ctType: "",
    alias: "",
    state,
    ruleType: "normal",
    maxLmtSz: "9999999999",
    maxMktSz: "1000000",
    maxLmtAmt: "20000000",
    maxMktAmt: "1000000",
    maxTwapSz: "9999999999",
    maxIcebergSz: "9999999999",
    maxTriggerSz: "9999999999",
    maxStopSz: "1000000",
  };
}

/** The SPOT list the mock answers, unsorted: a suspended and a pre-open one, and odd steps. */
export const OKX_SPOT_INSTRUMENTS = [
  instrument("ETH", "USDT", "live", "0.01", "0.000001", "0.001"),
  instrument("BTC", "USDT", "live", "0.1", "0.00000001", "0.00001"),
  instrument("OLD", "USDT", "suspend", "0.001", "0.01", "1"),
  instrument("NEW", "USDT", "preopen", "0.0001", "1", "10"),
  instrument("SHIB", "USDT", "live", "0.000000001", "100", "100000"),
];

export async function startOkxMock(credentials: { api: string; secret: string; password: string }): Promise<OkxMock> {
  const orders = new OrderStore<OkxMockOrder>(590_000_000_000_000_000n, (o) => o.ordId);
  let errorNext: { sCode: string; sMsg: string } | undefined;
  let details = [
    { ccy: "USDT", availBal: "1200.25", frozenBal: "300", cashBal: "1500.25", eq: "1500.25" },
    { ccy: "BTC", availBal: "0.00000000000000000001", frozenBal: "0", cashBal: "0", eq: "0" },
    { ccy: "ETH", availBal: "0", frozenBal: "0", cashBal: "0", eq: "0" },
  ];

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
    return undefined;
  }

  function item(o: Partial<OkxMockOrder>, sCode = "0", sMsg = "Order placed") {
    return { clOrdId: o.clOrdId ?? "", ordId: o.ordId ?? "", tag: "", ts: String(Date.now()), sCode, sMsg };
  }

  function place(p: FakeParams): OkxMockOrder | { sCode: string; sMsg: string } {
    if (errorNext) {
      const e = errorNext;
      errorNext = undefined;
      return e;
    }
    // limit, or post_only: maker only (docs/exchange-rules.md "Post-only")
    if (p.tdMode !== "cash" || (p.ordType !== "limit" && p.ordType !== "post_only") || !p.px)
      return { sCode: "51000", sMsg: "Parameter error" };
    const clOrdId = String(p.clOrdId ?? "");
    if (clOrdId && !/^[A-Za-z0-9]{1,32}$/.test(clOrdId)) return { sCode: "51000", sMsg: "Parameter clOrdId error" };
    const instId = String(p.instId);
    const now = String(Date.now());
    return orders.add({
      instId,
      ordId: orders.nextId(),
      clOrdId,
      px: String(p.px),
      sz: String(p.sz),
      accFillSz: "0",
      side: String(p.side),
      ordType: String(p.ordType),
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
      feeCcy: instId.split("-")[p.side === "buy" ? 0 : 1] ?? "",
      rebate: "0",
      rebateCcy: "",
      lever: "",
      category: "normal",
      source: "",
      cancelSource: "",
      reduceOnly: "false",
      stpMode: "cancel_maker",
    });
  }

  /** A batch answer: code "0" when every item passed, "2" when some failed, "1" when all did. */
  function batch(data: { sCode: string }[]) {
    const failed = data.filter((d) => d.sCode !== "0").length;
    const code = failed === 0 ? "0" : failed === data.length ? "1" : "2";
    return raw({ body: { code, msg: code === "0" ? "" : "Operation failed", data } });
  }

  function cancel(p: FakeParams) {
    const o = p.ordId ? orders.get(String(p.ordId)) : orders.find((x) => x.clOrdId === p.clOrdId);
    if (!o || o.instId !== p.instId || o.state !== "live") {
      return {
        clOrdId: String(p.clOrdId ?? ""),
        ordId: String(p.ordId ?? ""),
        ts: String(Date.now()),
        sCode: "51400",
        sMsg: CANCEL_FAILED,
      };
    }
    o.state = "canceled";
    o.cancelSource = "1";
    return { clOrdId: o.clOrdId, ordId: o.ordId, ts: String(Date.now()), sCode: "0", sMsg: "" };
  }

  // Place Order: instId, tdMode, side, ordType and sz are required (px for a limit order).
  const ORDER = ["instId", "tdMode", "side", "ordType", "sz"];
  const fake = await startFakeExchange({
    name: "okx",
    // "Get instruments" is public market data: no key
    isPublic: (req) => req.path.startsWith("/api/v5/public/"),
    verify,
    envelope: {
      ok: (data) => ({
        body: { code: "0", msg: "", data, inTime: String(Date.now() * 1000), outTime: String(Date.now() * 1000) },
      }),
      error: (e) => ({ status: e.status ?? 200, body: { code: String(e.code), msg: e.msg, data: [] } }),
    },
    rateLimited: () => fail(429, "50011", "Too Many Requests"),
    missing: (name) => ({ code: "50014", msg: `Parameter ${name} can not be empty.`, status: 400 }),
    routes: {
      "POST /api/v5/trade/order": {
        required: ORDER,
        create: true,
        handle: ({ params }) => {
          const result = place(params);
          if (!("ordId" in result))
            return raw({
              body: { code: "1", msg: "All operations failed", data: [item({}, result.sCode, result.sMsg)] },
            });
          return [item(result)];
        },
      },
      "POST /api/v5/trade/batch-orders": {
        required: ORDER.map((name) => `[].${name}`),
        handle: ({ params }) => {
          const data = (params as unknown as FakeParams[]).map((p, i) => {
            const fault = fake.takeBatchFault(i);
            if (fault && "refuse" in fault)
              return item({ clOrdId: String(p.clOrdId ?? "") }, String(fault.refuse.code), fault.refuse.msg);
            const r = place(p);
            if (!("ordId" in r)) return item({ clOrdId: String(p.clOrdId ?? "") }, r.sCode, r.sMsg);
            // dropped: placed, but the answer's item lost its ordId
            return fault ? item({ clOrdId: r.clOrdId }) : item(r);
          });
          fake.endBatch();
          return batch(data);
        },
      },
      "POST /api/v5/trade/cancel-order": {
        required: ["instId", ["ordId", "clOrdId"]],
        handle: ({ params }) => {
          const d = cancel(params);
          return d.sCode === "0" ? [d] : raw({ body: { code: "1", msg: "", data: [d] } });
        },
      },
      "POST /api/v5/trade/cancel-batch-orders": {
        required: ["[].instId", ["[].ordId", "[].clOrdId"]],
        handle: ({ params }) => batch((params as unknown as FakeParams[]).map(cancel)),
      },
      "GET /api/v5/trade/order": {
        required: ["instId", ["ordId", "clOrdId"]],
        handle: ({ params: q }) => {
          const o = orders.find(
            (x) => x.instId === q.instId && (q.ordId ? x.ordId === q.ordId : x.clOrdId === q.clOrdId),
          );
          if (!o) throw refuse("51603", "Order does not exist.");
          return [o];
        },
      },
      "GET /api/v5/trade/orders-pending": {
        handle: ({ params: q }) =>
          pageAfterId(
            orders
              .filter(
                (o) => (o.state === "live" || o.state === "partially_filled") && (!q.instId || o.instId === q.instId),
              )
              .sort((a, b) => (BigInt(b.ordId) > BigInt(a.ordId) ? 1 : -1)),
            q,
            {
              // `after`: records earlier than this ordId; `limit` at most 100, 100 by default.
              after: "after",
              size: { name: "limit", default: 100, max: 100, invalid: { code: "51000", msg: "Parameter limit error" } },
              idOf: (o) => o.ordId,
            },
          ),
      },
      "GET /api/v5/public/instruments": {
        required: ["instType"],
        handle: ({ params }) => {
          if (params.instType !== "SPOT") throw refuse(51000, "Parameter instType error");
          return OKX_SPOT_INSTRUMENTS;
        },
      },
      "GET /api/v5/account/balance": {
        handle: () => [{ uTime: String(Date.now()), totalEq: "1500.25", details }],
      },
    },
  });

  const { faults } = fake;
  return {
    server: fake.server,
    url: fake.url,
    fake,
    orders,
    get delayNextCreateMs() {
      return faults.delayCreateMs;
    },
    set delayNextCreateMs(ms) {
      faults.delayCreateMs = ms;
    },
    get rateLimitNext() {
      return faults.rateLimit;
    },
    set rateLimitNext(on) {
      faults.rateLimit = on;
    },
    get errorNext() {
      return errorNext;
    },
    set errorNext(e) {
      errorNext = e;
    },
    get details() {
      return details;
    },
    set details(list) {
      details = list;
    },
    addOrder: (fields) => place({ ...fields, tdMode: "cash", ordType: "limit" }) as OkxMockOrder,
    close: () => fake.close(),
  };
}
