import { Decimal, digitsToStep, truncate, ZERO_AMOUNT_MESSAGE } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { byPair } from "../../lib/pair.js";
import type { Balances, BatchItem, Credentials, Order, Side } from "../../lib/types.js";
import { checkClientOrderId, newClientOrderId } from "../core/client-order-id.js";
import { assertBatchSize } from "../core/limits.js";
import type { CountdownRule, CreateOrderRequest, ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { PaperEngine, type ValidOrder } from "./engine.js";
import { PAPER_INFO } from "./info.js";
import { bucketOf, resolveSeed } from "./market.js";
import { PAPER_PAIRS, paperPair } from "./pairs.js";
import { ALL_PAIRS, MAX_PAPER_FEE_PERCENT, newPaperState, type PaperFees, toOrder } from "./state.js";
import { AccountStore, defaultDataDir } from "./store.js";

export const PAPER_COUNTDOWN: CountdownRule = PAPER_INFO.countdown!;

/** Options of the paper adapter: the common ones, plus a few that tests and demos use. */
export interface PaperOptions extends ExchangeOptions {
  /** the market's seed; SPOTDESK_PAPER_SEED or "spotdesk" when absent */
  seed?: string;
  /** what a new account starts with; DEMO_BALANCES when absent */
  startingBalances?: Record<string, string>;
  /** what a new account charges (docs/paper-store.md "Fees"); DEFAULT_PAPER_FEES when absent */
  fees?: PaperFees;
  /** how long to wait for another process's lock (10 s) */
  lockTimeoutMs?: number;
  /** when another process's lock counts as abandoned (30 s) */
  staleLockMs?: number;
  /** journal size beyond which it is folded into the snapshot (64 KiB, and at least the snapshot's size) */
  journalCompactBytes?: number;
}

const POSITIVE_DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** A decimal string > 0, truncated toward zero to `decimals` (docs/decisions.md#d1). */
function positiveAmount(field: "amount" | "price", value: unknown, decimals: number, pair: string): string {
  const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
  if (!POSITIVE_DECIMAL.test(text)) {
    throw new ExchangeError("paper", `Invalid ${field} '${String(value)}': expected a positive decimal number`, {
      kind: "bad-input",
    });
  }
  const truncated = truncate(text, decimals);
  if (truncated.isZero()) {
    throw new ExchangeError(
      "paper",
      field === "amount"
        ? ZERO_AMOUNT_MESSAGE
        : `Invalid price '${text}': it is zero at ${pair}'s ${decimals} decimals`,
      { kind: "bad-input" },
    );
  }
  return truncated.toFixed();
}

export function validateOrder(
  pair: string,
  item: {
    side: Side;
    amount: string;
    price: string;
    clientOrderId?: string | undefined;
    postOnly?: boolean | undefined;
  },
): ValidOrder {
  const spec = paperPair(pair);
  if (item.side !== "Buy" && item.side !== "Sell") {
    throw new ExchangeError("paper", `Invalid side '${String(item.side)}': expected Buy or Sell`, {
      kind: "bad-input",
    });
  }
  const clientOrderId =
    item.clientOrderId === undefined
      ? newClientOrderId(PAPER_INFO.clientOrderId)
      : checkClientOrderId("paper", PAPER_INFO.clientOrderId, item.clientOrderId);
  return {
    pair: spec,
    side: item.side,
    amount: positiveAmount("amount", item.amount, spec.amountDecimals, spec.pair),
    price: positiveAmount("price", item.price, spec.priceDecimals, spec.pair),
    clientOrderId,
    ...(item.postOnly === true ? { postOnly: true } : {}),
  };
}

/** A fee typed by a person: a percent from 0 to MAX_PAPER_FEE_PERCENT. */
export function feePercent(side: "maker" | "taker", text: string): string {
  const trimmed = String(text).trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed) || trimmed.length > 20 || Number(trimmed) > MAX_PAPER_FEE_PERCENT) {
    throw new ExchangeError(
      "paper",
      `Invalid ${side} fee '${text}': expected a percent from 0 to ${MAX_PAPER_FEE_PERCENT}, such as 0.1`,
      { kind: "bad-input" },
    );
  }
  return new Decimal(trimmed).toFixed();
}

function orderId(id: unknown): string {
  const text = typeof id === "string" ? id.trim() : "";
  if (!text) throw new ExchangeError("paper", "An order id is required", { kind: "bad-input" });
  return text;
}

/**
 * The simulated exchange behind the common adapter interface. Every call is one locked
 * replay-modify-append on the account's files (store.ts), so any number of processes can share an
 * account.
 */
export class PaperExchange implements ExchangeAdapter {
  readonly id = "paper" as const;
  readonly store: AccountStore;
  readonly account: string;
  readonly seed: string;
  private readonly now: () => number;
  private readonly startingBalances: Record<string, string> | undefined;
  private readonly newAccountFees: PaperFees | undefined;

  constructor(options: PaperOptions = {}) {
    this.account = options.account ?? "default";
    this.store = new AccountStore({
      dataDir: options.dataDir ?? defaultDataDir(),
      account: this.account,
      ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}),
      ...(options.staleLockMs !== undefined ? { staleMs: options.staleLockMs } : {}),
      ...(options.journalCompactBytes !== undefined ? { compactBytes: options.journalCompactBytes } : {}),
    });
    this.seed = resolveSeed(options.seed);
    this.now = options.now ?? Date.now;
    this.startingBalances = options.startingBalances;
    this.newAccountFees = options.fees;
  }

  /** Takes the account, replays the market up to now, runs `work`; the store keeps what changed. */
  private transact<T>(work: (engine: PaperEngine, nowMs: number) => T): Promise<T> {
    return this.store.transact((existing, changes) => {
      const nowMs = this.now();
      const state =
        existing ?? newPaperState(this.account, nowMs, bucketOf(nowMs), this.startingBalances, this.newAccountFees);
      const engine = new PaperEngine(state, this.seed, changes);
      engine.fireCountdowns(nowMs);
      engine.replayTo(bucketOf(nowMs));
      changes.checkpoint();
      const result = work(engine, nowMs);
      engine.trimHistory();
      return { result, state };
    });
  }

  async createOrder(request: CreateOrderRequest): Promise<Order> {
    const order = validateOrder(request.pair, request);
    return this.transact((engine, nowMs) => toOrder(engine.place(order, nowMs)));
  }

  /** All or nothing: one item that cannot be placed (funds, limits) places none of them. */
  async createBatch(pair: string, items: readonly BatchItem[]): Promise<Order[]> {
    assertBatchSize("paper", "createBatch", items.length);
    const orders = items.map((item, i) => {
      try {
        return validateOrder(pair, item);
      } catch (error) {
        throw batchItemError(error, i);
      }
    });
    return this.transact((engine, nowMs) =>
      orders.map((order, i) => {
        try {
          return toOrder(engine.place(order, nowMs));
        } catch (error) {
          throw batchItemError(error, i);
        }
      }),
    );
  }

  async cancelOrder(pair: string, id: string): Promise<string> {
    const name = paperPair(pair).pair;
    const key = orderId(id);
    return this.transact((engine, nowMs) => {
      const record = engine.find(name, key);
      engine.cancel(record, nowMs);
      return record.id;
    });
  }

  /** Cancels the listed orders that are still open; ids already closed or unknown are skipped. */
  async cancelBatch(pair: string, ids: readonly string[]): Promise<string[]> {
    assertBatchSize("paper", "cancelBatch", ids.length);
    const name = paperPair(pair).pair;
    const keys = ids.map(orderId);
    return this.transact((engine, nowMs) => {
      const cancelled: string[] = [];
      for (const key of keys) {
        const open = engine.openOrders(name);
        const record = open.find((o) => o.id === key) ?? open.find((o) => o.clientOrderId === key);
        if (!record) continue;
        engine.cancel(record, nowMs);
        cancelled.push(record.id);
      }
      return cancelled;
    });
  }

  async cancelAll(pair: string): Promise<string[]> {
    const name = paperPair(pair).pair;
    return this.transact((engine, nowMs) =>
      engine.openOrders(name).map((record) => {
        engine.cancel(record, nowMs);
        return record.id;
      }),
    );
  }

  /** paper's countdown (docs/paper-store.md "Countdown"): per pair or for the whole account, 1 s to a day. */
  readonly countdown: CountdownRule = PAPER_COUNTDOWN;

  /**
   * Arms (or with 0 disarms) a cancel-all-after countdown: unless armed again within `seconds`,
   * the pair's open orders (every pair's when `pair` is undefined) are cancelled at the deadline.
   * The deadline is stored with the account, so it fires even when this process is gone.
   */
  async cancelAllAfter(pair: string | undefined, seconds: number): Promise<void> {
    const key = pair === undefined ? ALL_PAIRS : paperPair(pair).pair;
    const rule = this.countdown;
    if (!Number.isInteger(seconds) || (seconds !== 0 && (seconds < rule.minSeconds || seconds > rule.maxSeconds)))
      throw new ExchangeError(
        "paper",
        `Invalid countdown ${seconds}: expected 0 (off) or whole seconds from ${rule.minSeconds} to ${rule.maxSeconds}`,
        { kind: "bad-input" },
      );
    await this.transact((engine, nowMs) => engine.armCountdown(key, seconds === 0 ? null : nowMs + seconds * 1000));
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const name = paperPair(pair).pair;
    const key = orderId(id);
    return this.transact((engine) => toOrder(engine.find(name, key)));
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const name = paperPair(pair).pair;
    return this.transact((engine) => engine.openOrders(name).map(toOrder));
  }

  /** The order with this client order id (docs/orders.md "Client order ids"), or undefined. */
  async findOrderByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    const name = paperPair(pair).pair;
    const key = checkClientOrderId("paper", PAPER_INFO.clientOrderId, clientOrderId);
    return this.transact((engine) => {
      // The client order id only: an exchange id that happens to equal it is another order.
      const record = engine.state.orders.find((o) => o.pair === name && o.clientOrderId === key);
      return record ? toOrder(record) : undefined;
    });
  }

  /** The account's fees in percent (docs/paper-store.md "Fees"). */
  async fees(): Promise<PaperFees> {
    return this.transact((engine) => ({ ...engine.fees }));
  }

  /** Sets the account's maker and/or taker fee, in percent from 0 to MAX_PAPER_FEE_PERCENT. */
  async setFees(changes: Partial<PaperFees>): Promise<PaperFees> {
    const checked: Partial<PaperFees> = {};
    for (const side of ["maker", "taker"] as const) {
      const value = changes[side];
      if (value !== undefined) checked[side] = feePercent(side, value);
    }
    return this.transact((engine) => {
      engine.setFees({ ...engine.fees, ...checked });
      return { ...engine.fees };
    });
  }

  async fetchBalances(): Promise<Balances> {
    return this.transact((engine) => engine.balances());
  }

  /** paper's fixed pairs (docs/exchange-rules.md#pairs): a tick of 10^-priceDecimals, a lot of 10^-amountDecimals. */
  async fetchPairs(): Promise<PairSpec[]> {
    return PAPER_PAIRS.map((p) => ({
      pair: p.pair,
      tick: digitsToStep(p.priceDecimals),
      lot: digitsToStep(p.amountDecimals),
    })).sort(byPair);
  }

  /** Nothing stays open between calls. */
  async close(): Promise<void> {}
}

function batchItemError(error: unknown, index: number): unknown {
  if (!(error instanceof ExchangeError)) return error;
  return new ExchangeError("paper", `Batch item ${index + 1}: ${error.detail} (nothing was placed)`, {
    kind: error.kind,
    ...(error.code !== undefined ? { code: error.code } : {}),
  });
}

/** The factory of the registry: paper needs no credentials. */
export function createPaperExchange(_credentials: Credentials, options: PaperOptions = {}): PaperExchange {
  return new PaperExchange(options);
}
