/**
 * Signed requests built per second per exchange (issue 3): request building (symbol, body or query)
 * plus signing with native HMAC, no network. Target: at least 100,000/s for the HMAC exchanges.
 *
 * To add an exchange, add one row to SIGNERS: id → a function that builds one signed create request.
 */

import { BINGX_PATHS, bingxSignedRequest } from "../exchanges/bingx/rest.js";
import { BITGET_PATHS, bitgetSignedRequest } from "../exchanges/bitget/rest.js";
import { BITMART_PATHS, bitmartSignedRequest } from "../exchanges/bitmart/rest.js";
import { BITRUE_PATHS, bitrueSignedRequest } from "../exchanges/bitrue/rest.js";
import { BITTEAM_PATHS, bitteamAuthorization, bitteamRequest } from "../exchanges/bitteam/rest.js";
import { BYBIT_PATHS, bybitSignedRequest } from "../exchanges/bybit/rest.js";
import { COINSTORE_PATHS, coinstoreSignedRequest } from "../exchanges/coinstore/rest.js";
import type { HttpRequest } from "../exchanges/core/rest.js";
import { GATE_PATHS, gateSignedRequest } from "../exchanges/gate/rest.js";
import { HTX_PATHS, htxSignedRequest } from "../exchanges/htx/rest.js";
import { KUCOIN_PATHS, kucoinSignedRequest } from "../exchanges/kucoin/rest.js";
import { LBANK_PATHS, lbankSignedRequest } from "../exchanges/lbank/rest.js";
import { MEXC_PATHS, mexcSignedRequest } from "../exchanges/mexc/rest.js";
import { OKX_PATHS, okxSignedRequest } from "../exchanges/okx/rest.js";
import { PROBIT_PATHS, probitSignedRequest } from "../exchanges/probit/rest.js";
import { XT_PATHS, xtSignedRequest } from "../exchanges/xt/rest.js";
import { exchangeSymbol } from "../lib/pair.js";
import type { BenchResult } from "./index.js";

const credentials = {
  api: "bench-api-key-0123456789",
  secret: "bench-secret-0123456789abcdef",
  password: "bench-passphrase",
};
const clientOrderId = "0123456789abcdef0123456789abcdef";

/** exchange id → builds one signed create-order request at time `now` */
export const SIGNERS: Record<string, (now: number, i: number) => HttpRequest> = {
  bybit: (now, i) =>
    bybitSignedRequest(credentials, now, "POST", BYBIT_PATHS.create, {
      category: "spot",
      symbol: exchangeSymbol("BTC/USDT", ""),
      side: "Buy",
      orderType: "Limit",
      qty: "0.01",
      price: String(30000 + (i % 100)),
      timeInForce: "GTC",
      orderLinkId: clientOrderId,
    }),
  okx: (now, i) =>
    okxSignedRequest(credentials, now, "POST", OKX_PATHS.order, {
      instId: exchangeSymbol("BTC/USDT", "-"),
      tdMode: "cash",
      clOrdId: clientOrderId,
      side: "buy",
      ordType: "limit",
      px: String(30000 + (i % 100)),
      sz: "0.01",
    }),
  bitget: (now, i) =>
    bitgetSignedRequest(credentials, now, "POST", BITGET_PATHS.placeOrder, {
      symbol: exchangeSymbol("BTC/USDT", ""),
      side: "buy",
      orderType: "limit",
      force: "gtc",
      price: String(30000 + (i % 100)),
      size: "0.01",
      clientOid: clientOrderId,
    }),
  kucoin: (now, i) =>
    kucoinSignedRequest(
      credentials,
      now,
      "POST",
      KUCOIN_PATHS.orders,
      {},
      {
        clientOid: clientOrderId,
        side: "buy",
        symbol: exchangeSymbol("BTC/USDT", "-"),
        type: "limit",
        price: String(30000 + (i % 100)),
        size: "0.01",
        timeInForce: "GTC",
      },
    ),
  gate: (now, i) =>
    gateSignedRequest(
      credentials,
      now,
      "POST",
      GATE_PATHS.orders,
      {},
      {
        text: `t-${clientOrderId.slice(0, 28)}`,
        currency_pair: exchangeSymbol("BTC/USDT", "_"),
        type: "limit",
        account: "spot",
        side: "buy",
        amount: "0.01",
        price: String(30000 + (i % 100)),
        time_in_force: "gtc",
      },
    ),
  mexc: (now, i) =>
    mexcSignedRequest(credentials, now, "POST", MEXC_PATHS.order, {
      symbol: exchangeSymbol("BTC/USDT", ""),
      side: "BUY",
      type: "LIMIT",
      quantity: "0.01",
      price: String(30000 + (i % 100)),
      newClientOrderId: clientOrderId,
    }),
  htx: (now, i) =>
    htxSignedRequest(
      credentials,
      now,
      "POST",
      "api.huobi.pro",
      HTX_PATHS.place,
      {},
      {
        "account-id": "100009",
        symbol: exchangeSymbol("BTC/USDT", "", true),
        type: "buy-limit",
        amount: "0.01",
        price: String(30000 + (i % 100)),
        source: "spot-api",
        "client-order-id": clientOrderId,
      },
    ),
  bingx: (now, i) =>
    bingxSignedRequest(credentials, now, "POST", BINGX_PATHS.order, {
      symbol: exchangeSymbol("BTC/USDT", "-"),
      side: "BUY",
      type: "LIMIT",
      quantity: "0.01",
      price: String(30000 + (i % 100)),
      newClientOrderId: clientOrderId,
      timeInForce: "GTC",
    }),
  bitmart: (now, i) =>
    bitmartSignedRequest(credentials, now, "POST", BITMART_PATHS.submitOrder, {
      symbol: exchangeSymbol("BTC/USDT", "_"),
      side: "buy",
      type: "limit",
      size: "0.01",
      price: String(30000 + (i % 100)),
      client_order_id: clientOrderId,
    }),
  // probit signs nothing per request: a cached bearer token (docs/exchange-rules.md#states); this row is the request build.
  probit: (_now, i) =>
    probitSignedRequest("bench-access-token-0123456789abcdef", "POST", PROBIT_PATHS.newOrder, {
      market_id: exchangeSymbol("BTC/USDT", "-"),
      type: "limit",
      side: "buy",
      time_in_force: "gtc",
      limit_price: String(30000 + (i % 100)),
      quantity: "0.01",
      client_order_id: clientOrderId,
    }),
  xt: (now, i) =>
    xtSignedRequest(
      credentials,
      now,
      "POST",
      XT_PATHS.order,
      {},
      {
        symbol: exchangeSymbol("BTC/USDT", "_", true),
        clientOrderId: clientOrderId.slice(0, 22),
        side: "BUY",
        type: "LIMIT",
        timeInForce: "GTC",
        bizType: "SPOT",
        price: String(30000 + (i % 100)),
        quantity: "0.01",
      },
    ),
  // the echostr comes from the adapter's own generator, as on every real request
  lbank: (now, i) =>
    lbankSignedRequest(credentials, now, LBANK_PATHS.createOrder, {
      symbol: exchangeSymbol("BTC/USDT", "_", true),
      type: "buy",
      price: String(30000 + (i % 100)),
      amount: "0.01",
      custom_id: clientOrderId,
    }),
  bitrue: (now, i) =>
    bitrueSignedRequest(credentials, now, "POST", BITRUE_PATHS.order, {
      symbol: exchangeSymbol("BTC/USDT", ""),
      side: "BUY",
      type: "LIMIT",
      timeInForce: "GTC",
      quantity: "0.01",
      price: String(30000 + (i % 100)),
      newClientOrderId: clientOrderId,
    }),
  coinstore: (now, i) =>
    coinstoreSignedRequest(credentials, now, "POST", COINSTORE_PATHS.place, {
      symbol: exchangeSymbol("BTC/USDT", ""),
      side: "BUY",
      ordType: "LIMIT",
      ordPrice: String(30000 + (i % 100)),
      ordQty: "0.01",
      timeInForce: "GTC",
      clOrdId: clientOrderId,
    }),
  // bitteam signs with basic authentication (docs/exchange-rules.md#calls): the header is encoded per request here,
  // and the pair id is the one its pairs list gives BTC/USDT.
  bitteam: (_now, i) =>
    bitteamRequest(bitteamAuthorization(credentials), "POST", BITTEAM_PATHS.orderCreate, {
      pairId: "22",
      type: "limit",
      side: "buy",
      amount: "0.01",
      price: String(30000 + (i % 100)),
    }),
};

const TARGET = 100_000;

function rate(sign: (now: number, i: number) => HttpRequest, iterations: number): number {
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) sink += sign(1_700_000_000_000 + i, i).headers ? 1 : 0;
  const ms = performance.now() - start;
  if (sink !== iterations) throw new Error("bench sink mismatch");
  return iterations / (ms / 1000);
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const [id, sign] of Object.entries(SIGNERS)) {
    rate(sign, 20_000); // warm-up
    const runs = [rate(sign, 100_000), rate(sign, 100_000), rate(sign, 100_000)].sort((a, b) => a - b);
    results.push({
      name: `signed requests built per second: ${id}`,
      unit: "req/s",
      better: "higher",
      value: Math.round(runs[1]!),
      target: TARGET,
      detail: "create-order request: symbol, JSON body or query, native HMAC-SHA256 signature, headers",
    });
  }
  return results;
}
