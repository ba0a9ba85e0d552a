/**
 * The pair lists of group B (docs/exchange-rules.md#pairs) are public calls: an adapter built
 * without a key lists its pairs, and the call takes the adapter's transport like an order does, so
 * `--base-url` names the host and `--proxy` carries the request there (docs/decisions.md#d12).
 * Each venue's own rest.test.ts pins its fields; this file pins the transport for all eight.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBitmartMock } from "../../exchanges/bitmart/mock.js";
import { BitmartAdapter } from "../../exchanges/bitmart/rest.js";
import { startBitrueMock } from "../../exchanges/bitrue/mock.js";
import { BitrueAdapter } from "../../exchanges/bitrue/rest.js";
import { startBitteamMock } from "../../exchanges/bitteam/mock.js";
import { BitteamAdapter } from "../../exchanges/bitteam/rest.js";
import { startCoinstoreMock } from "../../exchanges/coinstore/mock.js";
import { CoinstoreAdapter } from "../../exchanges/coinstore/rest.js";
import type { MockServer } from "../../exchanges/core/testing/http-mock.js";
import { tunnellingProxy } from "../../exchanges/core/testing/proxy.js";
import { startHtxMock } from "../../exchanges/htx/mock.js";
import { HtxAdapter } from "../../exchanges/htx/rest.js";
import { startLbankMock } from "../../exchanges/lbank/mock.js";
import { LbankAdapter } from "../../exchanges/lbank/rest.js";
import { startProbitMock } from "../../exchanges/probit/mock.js";
import { ProbitAdapter } from "../../exchanges/probit/rest.js";
import type { ExchangeOptions, PairSpec } from "../../exchanges/types.js";
import { startXtMock } from "../../exchanges/xt/mock.js";
import { XtAdapter } from "../../exchanges/xt/rest.js";
import type { Credentials } from "../../lib/types.js";

interface Venue {
  start(): Promise<{ url: string; server: MockServer; close(): Promise<void> }>;
  open(credentials: Credentials, options: ExchangeOptions): { fetchPairs(): Promise<PairSpec[]> };
  /** the path of its documented symbol list */
  path: string;
}

const VENUES: Record<string, Venue> = {
  htx: { start: startHtxMock, open: (c, o) => new HtxAdapter(c, o), path: "/v1/common/symbols" },
  xt: { start: startXtMock, open: (c, o) => new XtAdapter(c, o), path: "/v4/public/symbol" },
  bitmart: { start: startBitmartMock, open: (c, o) => new BitmartAdapter(c, o), path: "/spot/v1/symbols/details" },
  bitrue: { start: startBitrueMock, open: (c, o) => new BitrueAdapter(c, o), path: "/api/v1/exchangeInfo" },
  bitteam: { start: startBitteamMock, open: (c, o) => new BitteamAdapter(c, o), path: "/trade/api/ccxt/pairs" },
  coinstore: {
    start: startCoinstoreMock,
    open: (c, o) => new CoinstoreAdapter(c, o),
    path: "/api/v2/public/config/spot/symbols",
  },
  lbank: { start: startLbankMock, open: (c, o) => new LbankAdapter(c, o), path: "/v2/accuracy.do" },
  probit: { start: startProbitMock, open: (c, o) => new ProbitAdapter(c, o), path: "/api/exchange/v1/market" },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("group B pair lists: public, through the adapter's transport (docs/exchange-rules.md#pairs)", () => {
  for (const [id, venue] of Object.entries(VENUES)) {
    it(`${id} lists its pairs without a key, through --proxy to the --base-url host`, async () => {
      const mock = await venue.start();
      closers.push(() => mock.close());
      const proxy = await tunnellingProxy(() => mock.url);
      closers.push(() => proxy.close());
      const adapter = venue.open({ api: "", secret: "", httpAgent: proxy.url }, { baseUrl: `http://${id}.invalid` });

      const pairs = await adapter.fetchPairs();

      expect(pairs.length).toBeGreaterThan(1);
      expect(pairs.map((p) => p.pair)).toEqual([...pairs.map((p) => p.pair)].sort());
      for (const spec of pairs) expect(spec.pair).toMatch(/^[A-Z0-9]+\/[A-Z0-9]+$/);
      // the host that does not resolve was reached only through the proxy's tunnel, with one call
      expect(proxy.seen).toEqual([`CONNECT ${id}.invalid:80`]);
      expect(mock.server.requests.map((r) => r.path)).toEqual([venue.path]);
    });
  }
});
