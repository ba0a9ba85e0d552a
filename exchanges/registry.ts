import { EXCHANGES } from "../lib/exchanges.js";
import { ExchangeError } from "../lib/errors.js";
import { isExchangeId, type Credentials, type ExchangeId } from "../lib/types.js";
import type { ExchangeAdapter, ExchangeOptions } from "./types.js";
import { createPaperExchange } from "./paper/index.js";
import { createBybitExchange } from "./bybit.js";
import { createOkxExchange } from "./okx.js";
import { createBitgetExchange } from "./bitget.js";
import { createGateExchange } from "./gate.js";
import { createKucoinExchange } from "./kucoin.js";
import { createMexcExchange } from "./mexc.js";
import { createHtxExchange } from "./htx.js";

type AdapterFactory = (credentials: Credentials, options: ExchangeOptions) => ExchangeAdapter;

/** One line per exchange: its module's factory. */
const FACTORIES: Partial<Record<ExchangeId, AdapterFactory>> = {
  paper: createPaperExchange,
  bybit: createBybitExchange,
  okx: createOkxExchange,
  bitget: createBitgetExchange,
  gate: createGateExchange,
  kucoin: createKucoinExchange,
  mexc: createMexcExchange,
  htx: createHtxExchange,
};

export function hasAdapter(id: ExchangeId): boolean {
  return FACTORIES[id] !== undefined;
}

/** Checks an exchange id typed by a person, naming the valid ones when it is wrong. */
export function assertExchangeId(id: string): ExchangeId {
  if (!isExchangeId(id)) {
    throw new ExchangeError(id, `Unknown exchange '${id}'. Known exchanges: ${Object.keys(EXCHANGES).join(", ")}`, {
      kind: "bad-input",
    });
  }
  return id;
}

/**
 * PRODUCT "The exchange layer contract": `createExchange(id, credentials, options)` returns an
 * adapter. Missing credentials are refused here, before any request is built.
 */
export function createExchange(id: string, credentials: Credentials, options: ExchangeOptions = {}): ExchangeAdapter {
  const exchange = assertExchangeId(id);
  const factory = FACTORIES[exchange];
  if (!factory) {
    throw new ExchangeError(exchange, `Not supported for ${exchange}: no adapter in this build`, { kind: "unsupported" });
  }
  if (exchange !== "paper") {
    if (!credentials.api) throw new ExchangeError(exchange, "Missing credential: API key", { kind: "auth" });
    if (!credentials.secret) throw new ExchangeError(exchange, "Missing credential: API secret", { kind: "auth" });
    if (EXCHANGES[exchange].needsPassphrase && !credentials.password) {
      throw new ExchangeError(exchange, "Missing credential: passphrase (needed on bitmart, bitget, kucoin and okx)", {
        kind: "auth",
      });
    }
  }
  return factory(credentials, options);
}
