/**
 * The pair lists of group B (docs/exchange-rules.md#pairs) are public calls: the keyless adapter of
 * exchanges/open.ts lists them, on the adapter's transport like an order, so `--base-url` names the
 * host and `--proxy` carries the request there (docs/decisions.md#d12).
 * Each venue's own rest.test.ts pins its fields; this file pins the transport for all eight.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBitmartMock } from "../../exchanges/bitmart/mock.js";
import { startBitrueMock } from "../../exchanges/bitrue/mock.js";
import { startBitteamMock } from "../../exchanges/bitteam/mock.js";
import { startCoinstoreMock } from "../../exchanges/coinstore/mock.js";
import type { MockServer } from "../../exchanges/core/testing/http-mock.js";
import { tunnellingProxy } from "../../exchanges/core/testing/proxy.js";
import { startHtxMock } from "../../exchanges/htx/mock.js";
import { startLbankMock } from "../../exchanges/lbank/mock.js";
import { listExchangePairs } from "../../exchanges/open.js";
import { startProbitMock } from "../../exchanges/probit/mock.js";
import { startXtMock } from "../../exchanges/xt/mock.js";
import type { ExchangeId } from "../../lib/types.js";

interface Venue {
  start(): Promise<{ url: string; server: MockServer; close(): Promise<void> }>;
  /** the path of its documented symbol list */
  path: string;
}

const VENUES: Partial<Record<ExchangeId, Venue>> = {
  htx: { start: startHtxMock, path: "/v1/common/symbols" },
  xt: { start: startXtMock, path: "/v4/public/symbol" },
  bitmart: { start: startBitmartMock, path: "/spot/v1/symbols/details" },
  bitrue: { start: startBitrueMock, path: "/api/v1/exchangeInfo" },
  bitteam: { start: startBitteamMock, path: "/trade/api/ccxt/pairs" },
  coinstore: { start: startCoinstoreMock, path: "/api/v2/public/config/spot/symbols" },
  lbank: { start: startLbankMock, path: "/v2/accuracy.do" },
  probit: { start: startProbitMock, path: "/api/exchange/v1/market" },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("group B pair lists: public, through the adapter's transport (docs/exchange-rules.md#pairs)", () => {
  for (const [id, venue] of Object.entries(VENUES) as [ExchangeId, Venue][]) {
    it(`${id} lists its pairs without a key, through --proxy to the --base-url host`, async () => {
      const mock = await venue.start();
      closers.push(() => mock.close());
      const proxy = await tunnellingProxy(() => mock.url);
      closers.push(() => proxy.close());
      // the TUI's way in: exchanges/open.ts builds a public adapter, with no key
      const pairs = await listExchangePairs(id, { baseUrl: `http://${id}.invalid`, proxy: proxy.url });

      expect(pairs.length).toBeGreaterThan(1);
      expect(pairs.map((p) => p.pair)).toEqual([...pairs.map((p) => p.pair)].sort());
      for (const spec of pairs) expect(spec.pair).toMatch(/^[A-Z0-9]+\/[A-Z0-9]+$/);
      // the host that does not resolve was reached only through the proxy's tunnel, with one call
      expect(proxy.seen).toEqual([`CONNECT ${id}.invalid:80`]);
      expect(mock.server.requests.map((r) => r.path)).toEqual([venue.path]);
    });
  }
});
