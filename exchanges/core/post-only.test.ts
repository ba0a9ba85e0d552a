import { afterAll, describe, expect, it } from "vitest";
import { ExchangeError } from "../../lib/errors.js";
import type { Credentials, RealExchangeId } from "../../lib/types.js";
import { BINGX_KEY, BINGX_SECRET, startBingxMock } from "../bingx/mock.js";
import { startBitgetMock } from "../bitget/mock.js";
import { BITMART_KEY, BITMART_MEMO, BITMART_SECRET, startBitmartMock } from "../bitmart/mock.js";
import { BITRUE_KEY, BITRUE_SECRET, startBitrueMock } from "../bitrue/mock.js";
import { BITTEAM_KEY, BITTEAM_SECRET, startBitteamMock } from "../bitteam/mock.js";
import { startBybitMock } from "../bybit/mock.js";
import { CATALOGUE } from "../catalogue.js";
import { COINSTORE_KEY, COINSTORE_SECRET, startCoinstoreMock } from "../coinstore/mock.js";
import { GATE_KEY, GATE_SECRET, startGateMock } from "../gate/mock.js";
import { HTX_KEY, HTX_SECRET, startHtxMock } from "../htx/mock.js";
import { KUCOIN_KEY, KUCOIN_PASSPHRASE, KUCOIN_SECRET, startKucoinMock } from "../kucoin/mock.js";
import { LBANK_KEY, LBANK_SECRET, startLbankMock } from "../lbank/mock.js";
import { MEXC_KEY, MEXC_SECRET, startMexcMock } from "../mexc/mock.js";
import { startOkxMock } from "../okx/mock.js";
import { PROBIT_KEY, PROBIT_SECRET, startProbitMock } from "../probit/mock.js";
import { createExchange } from "../registry.js";
import { startXtMock, XT_KEY, XT_SECRET } from "../xt/mock.js";
import type { ReceivedRequest } from "./testing/http-mock.js";

// docs/exchange-rules.md "Post-only": each exchange's documented maker-only form reaches its mock
// in the signed create request; an exchange without one refuses before anything is sent.

interface Venue {
  id: RealExchangeId;
  credentials: Credentials;
  start: () => Promise<{ url: string; server: { requests: ReceivedRequest[] }; close(): Promise<void> }>;
  /** the create call's path, and the parameter it carries for a post-only buy (undefined: none) */
  create?: { path: string; param: string; value: unknown };
}

const bybit = { api: "bybit-test-key", secret: "bybit-test-secret" };
const okx = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };
const bitget = { api: "bg-test-key", secret: "bg-test-secret", password: "bg-pass" };

const VENUES: Venue[] = [
  {
    id: "bybit",
    credentials: bybit,
    start: () => startBybitMock(bybit),
    create: { path: "/v5/order/create", param: "timeInForce", value: "PostOnly" },
  },
  {
    id: "okx",
    credentials: okx,
    start: () => startOkxMock(okx),
    create: { path: "/api/v5/trade/order", param: "ordType", value: "post_only" },
  },
  {
    id: "bitget",
    credentials: bitget,
    start: () => startBitgetMock(bitget),
    create: { path: "/api/v2/spot/trade/place-order", param: "force", value: "post_only" },
  },
  {
    id: "kucoin",
    credentials: { api: KUCOIN_KEY, secret: KUCOIN_SECRET, password: KUCOIN_PASSPHRASE },
    start: () => startKucoinMock(),
    create: { path: "/api/v1/orders", param: "postOnly", value: true },
  },
  {
    id: "gate",
    credentials: { api: GATE_KEY, secret: GATE_SECRET },
    start: () => startGateMock(),
    create: { path: "/api/v4/spot/orders", param: "time_in_force", value: "poc" },
  },
  {
    id: "mexc",
    credentials: { api: MEXC_KEY, secret: MEXC_SECRET },
    start: () => startMexcMock(),
    create: { path: "/api/v3/order", param: "type", value: "LIMIT_MAKER" },
  },
  {
    id: "htx",
    credentials: { api: HTX_KEY, secret: HTX_SECRET },
    start: () => startHtxMock(),
    create: { path: "/v1/order/orders/place", param: "type", value: "buy-limit-maker" },
  },
  {
    id: "bitmart",
    credentials: { api: BITMART_KEY, secret: BITMART_SECRET, password: BITMART_MEMO },
    start: () => startBitmartMock(),
    create: { path: "/spot/v2/submit_order", param: "type", value: "limit_maker" },
  },
  {
    id: "lbank",
    credentials: { api: LBANK_KEY, secret: LBANK_SECRET },
    start: () => startLbankMock(),
    create: { path: "/v2/supplement/create_order.do", param: "type", value: "buy_maker" },
  },
  {
    id: "xt",
    credentials: { api: XT_KEY, secret: XT_SECRET },
    start: () => startXtMock(),
    create: { path: "/v4/order", param: "timeInForce", value: "GTX" },
  },
  {
    id: "probit",
    credentials: { api: PROBIT_KEY, secret: PROBIT_SECRET },
    start: () => startProbitMock(),
    create: { path: "/api/exchange/v1/new_order", param: "time_in_force", value: "gtcpo" },
  },
  {
    id: "coinstore",
    credentials: { api: COINSTORE_KEY, secret: COINSTORE_SECRET },
    start: () => startCoinstoreMock(),
    create: { path: "/api/trade/order/place", param: "ordType", value: "POST_ONLY" },
  },
  {
    id: "bingx",
    credentials: { api: BINGX_KEY, secret: BINGX_SECRET },
    start: () => startBingxMock(),
    create: { path: "/openApi/spot/v1/trade/order", param: "timeInForce", value: "PostOnly" },
  },
  { id: "bitrue", credentials: { api: BITRUE_KEY, secret: BITRUE_SECRET }, start: () => startBitrueMock() },
  { id: "bitteam", credentials: { api: BITTEAM_KEY, secret: BITTEAM_SECRET }, start: () => startBitteamMock() },
];

/** The parameters of a request as sent: its query, and its body read as JSON or as a form. */
function sentParams(req: ReceivedRequest): Record<string, unknown> {
  const params: Record<string, unknown> = Object.fromEntries(new URLSearchParams(req.query));
  if (req.body === "") return params;
  try {
    const body: unknown = JSON.parse(req.body);
    if (body && typeof body === "object") return { ...params, ...(body as Record<string, unknown>) };
  } catch {
    // a form body
  }
  return { ...params, ...Object.fromEntries(new URLSearchParams(req.body)) };
}

const order = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000", postOnly: true };

describe('post-only orders in each exchange\'s documented form (docs/exchange-rules.md "Post-only")', () => {
  const mocks: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(mocks.map((m) => m.close()));
  });

  it("covers every exchange of the catalogue, and the catalogue says which have a form", () => {
    expect(VENUES.map((v) => v.id).sort()).toEqual(
      Object.keys(CATALOGUE)
        .filter((id) => id !== "paper")
        .sort(),
    );
    for (const venue of VENUES) expect(CATALOGUE[venue.id].postOnly === null, venue.id).toBe(!venue.create);
  });

  for (const venue of VENUES) {
    if (venue.create) {
      const { path, param, value } = venue.create;
      it(`${venue.id}: the signed create carries ${param}=${String(value)}, and the mock accepts it`, async () => {
        const mock = await venue.start();
        mocks.push(mock);
        const adapter = createExchange(venue.id, venue.credentials, { baseUrl: mock.url, timeoutMs: 5000 });
        const placed = await adapter.createOrder(order);
        expect(placed.id).not.toBe("");
        const creates = mock.server.requests.filter((r) => r.method === "POST" && r.path === path);
        expect(creates).toHaveLength(1);
        expect(sentParams(creates[0]!)[param]).toStrictEqual(value);
        // without the option the plain limit goes out, not the maker-only form
        await adapter.createOrder({ ...order, postOnly: false, price: "29000" });
        const plain = mock.server.requests.filter((r) => r.method === "POST" && r.path === path);
        expect(plain).toHaveLength(2);
        expect(sentParams(plain[1]!)[param]).not.toStrictEqual(value);
        await adapter.close();
      });
    } else {
      it(`${venue.id}: has no post-only order type, so the order is refused and nothing is sent`, async () => {
        const mock = await venue.start();
        mocks.push(mock);
        const adapter = createExchange(venue.id, venue.credentials, { baseUrl: mock.url, timeoutMs: 5000 });
        const error = await adapter.createOrder(order).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ExchangeError);
        expect((error as ExchangeError).kind).toBe("unsupported");
        expect((error as ExchangeError).message).toContain(`${venue.id} has no post-only order type`);
        const batch = await adapter
          .createBatch("BTC/USDT", [{ side: "Sell", amount: "0.01", price: "31000", postOnly: true }])
          .catch((e: unknown) => e);
        expect(batch).toBeInstanceOf(ExchangeError);
        expect(mock.server.requests).toHaveLength(0);
        await adapter.close();
      });
    }
  }
});
