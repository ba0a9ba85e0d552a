import type { Credentials } from "../../../lib/types.js";
import { BINGX_KEY, BINGX_SECRET, startBingxMock } from "../../bingx/mock.js";
import { startBitgetMock } from "../../bitget/mock.js";
import { startBybitMock } from "../../bybit/mock.js";
import { GATE_KEY, GATE_SECRET, startGateMock } from "../../gate/mock.js";
import { KUCOIN_KEY, KUCOIN_PASSPHRASE, KUCOIN_SECRET, startKucoinMock } from "../../kucoin/mock.js";
import { MEXC_KEY, MEXC_SECRET, startMexcMock } from "../../mexc/mock.js";
import { startOkxMock } from "../../okx/mock.js";

/**
 * What `fixtures.test.ts` records per exchange when asked to (SPOTDESK_RECORD_FIXTURES=1): the fake
 * to record from, its credentials, the pair, two client order ids the exchange's rule accepts, an
 * order id it does not know, and the exchange's batch or cancel-all case.
 */
export interface Recording {
  credentials: Credentials;
  pair: string;
  ids: [string, string];
  unknown: string;
  start(): Promise<{ url: string; close(): Promise<void> }>;
  more(id: string): { name: string; call: "cancelAll" | "cancelBatch"; args: unknown[] }[];
}

const cancelAll = (pair: string) => () => [
  { name: "cancelAll cancels the rest", call: "cancelAll" as const, args: [pair] },
];
const cancelBatch = (pair: string) => (id: string) => [
  {
    name: "cancelBatch cancels one and names an unknown id as not cancelled",
    call: "cancelBatch" as const,
    args: [pair, [id, "999999"]],
  },
];

const bybit = { api: "bybit-test-key", secret: "bybit-test-secret" };
const okx = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };
const bitget = { api: "bg-test-key", secret: "bg-test-secret", password: "bg-pass" };

export const RECORDINGS: Record<string, Recording> = {
  bybit: {
    credentials: bybit,
    pair: "BTC/USDT",
    ids: ["0a0a0a01", "0a0a0a02"],
    unknown: "999999",
    start: () => startBybitMock(bybit),
    more: cancelAll("BTC/USDT"),
  },
  okx: {
    credentials: okx,
    pair: "BTC/USDT",
    ids: ["0a0a0a01", "0a0a0a02"],
    unknown: "999999",
    start: () => startOkxMock(okx),
    more: cancelBatch("BTC/USDT"),
  },
  gate: {
    credentials: { api: GATE_KEY, secret: GATE_SECRET },
    pair: "BTC/USDT",
    ids: ["t-0a0a0a01", "t-0a0a0a02"],
    unknown: "999999",
    start: () => startGateMock(),
    more: cancelBatch("BTC/USDT"),
  },
  kucoin: {
    credentials: { api: KUCOIN_KEY, secret: KUCOIN_SECRET, password: KUCOIN_PASSPHRASE },
    pair: "BTC/USDT",
    ids: ["0a0a0a01", "0a0a0a02"],
    unknown: "0000000000000000000000ff",
    start: () => startKucoinMock(),
    more: cancelAll("BTC/USDT"),
  },
  bitget: {
    credentials: bitget,
    pair: "BTC/USDT",
    ids: ["0a0a0a01", "0a0a0a02"],
    unknown: "999999",
    start: () => startBitgetMock(bitget),
    more: cancelBatch("BTC/USDT"),
  },
  mexc: {
    credentials: { api: MEXC_KEY, secret: MEXC_SECRET },
    pair: "BTC/USDT",
    ids: ["0a0a0a01", "0a0a0a02"],
    unknown: "999999",
    start: () => startMexcMock(),
    more: cancelAll("BTC/USDT"),
  },
  bingx: {
    credentials: { api: BINGX_KEY, secret: BINGX_SECRET },
    pair: "BTC/USDT",
    ids: ["0a0a0a01", "0a0a0a02"],
    unknown: "999999",
    start: () => startBingxMock(),
    more: cancelBatch("BTC/USDT"),
  },
};
