import { expect, vi } from "vitest";
import { listExchangePairs } from "../../exchanges/open.js";
import { Decimal, stepDecimals } from "../../lib/decimal.js";
import type { ExchangeId } from "../../lib/types.js";
import { runCli } from "./run-cli.js";

// The scenario runs the built CLI a dozen times, each a child process: on a busy machine it needs
// more than the default 20 s of the files that import it (a ceiling, not a measurement).
vi.setConfig({ testTimeout: 60_000 });

// the venue tests take it from here, beside runCliScenario
export { rejection } from "../rejection.js";

type Step = "batch" | "cancel-batch" | "cancel-all";
type BatchItem = { side: "Buy" | "Sell"; amount: string; price: string };

/** The batch most scenarios send: a buy under and a sell over the first buy's 30000. */
export const TWO_ORDERS: BatchItem[] = [
  { side: "Buy", amount: "0.01", price: "29000" },
  { side: "Sell", amount: "0.01", price: "33000" },
];
export const THREE_ORDERS: BatchItem[] = [...TWO_ORDERS, { side: "Sell", amount: "0.01", price: "34000" }];

export interface CliScenario<O> {
  /** Exchange id, as given to --exchange and named in "Not supported for {id}". */
  id: string;
  /** The loopback mock: its base URL (--base-url) and its order book, keyed by the order id the CLI prints. */
  mock: { url: string; orders: Map<string, O> };
  /** Credential environment (SPOTDESK_API_KEY, ...). */
  env: Record<string, string>;
  /** Reads the status field of one mock order. */
  status: (order: O) => unknown;
  /** The mock's status values for an open and for a canceled order. */
  open: unknown;
  canceled: unknown;
  /** Amount and price of the first buy (default 0.01 at 30000). */
  buy?: [amount: string, price: string];
  /** Orders sent to `batch` (also the stdin of a refused batch); default TWO_ORDERS. */
  batch?: BatchItem[];
  /** Cancel every batch order with cancel-batch (default: only the first). */
  cancelBatchAll?: boolean;
  /** Steps that docs/exchange-rules.md#limits marks unsupported for this exchange: exit code 9, "Not supported for {id}". */
  unsupported?: Step[];
  /** When batch is unsupported but cancel-all is: the sell placed so that cancel-all has an order to cancel. */
  sell?: [amount: string, price: string];
  /** Expected balances: an object matched with toMatchObject, or a string the output contains. */
  balances: Record<string, unknown> | string;
}

/**
 * The end-to-end scenario through the built CLI (docs/product.md#cli-surface): buy, order, orders, cancel,
 * batch, cancel-batch, cancel-all, balances against a loopback mock; each step's exit code, JSON
 * output and the mock's order state are checked. Returns the common argument prefix for extra checks.
 */
export async function runCliScenario<O>(s: CliScenario<O>): Promise<string[]> {
  const base = ["--exchange", s.id, "--base-url", s.mock.url, "--json"];
  const cli = (args: string[], input?: string) => runCli([...base, ...args], s.env, input);
  const unsupported = new Set(s.unsupported ?? []);
  const statusOf = (id: string) => s.status(s.mock.orders.get(id)!);
  const statuses = () => [...s.mock.orders.values()].map(s.status);
  const refused = async (args: string[], input?: string) => {
    const result = await cli(args, input);
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toContain(`Not supported for ${s.id}`);
  };
  const [amount, price] = s.buy ?? ["0.01", "30000"];
  // The mocks serve no public book: the far-price guard (docs/orders.md) is waived for these orders.
  const far = "--allow-far-price";

  const bought = await cli(["buy", "BTC/USDT", amount, price, far]);
  expect(bought.code, bought.stderr).toBe(0);
  const order = JSON.parse(bought.stdout) as { id: string };
  // docs/orders.md "Which account": the environment's keys are named as such.
  expect(order).toMatchObject({
    pair: "BTC/USDT",
    side: "Buy",
    amount,
    price,
    status: "open",
    exchange: s.id,
    account: "(environment)",
  });
  let placedCount = 1;

  // docs/orders.md "Numbers on the command line": an amount finer than the venue's lot is refused
  // before anything is sent, naming the venue's decimals (read from its pair list)
  const btcRules = (await listExchangePairs(s.id as ExchangeId, { baseUrl: s.mock.url })).find(
    (p) => p.pair === "BTC/USDT",
  );
  expect(btcRules, `${s.id}'s mock lists BTC/USDT`).toBeDefined();
  const decimals = stepDecimals(btcRules!.lot);
  const tooFine = new Decimal(amount).plus(new Decimal(1).shiftedBy(-(decimals + 1))).toFixed();
  const fine = await cli(["buy", "BTC/USDT", tooFine, price, far]);
  expect(fine.code, fine.stderr).toBe(2);
  expect(fine.stderr).toContain(
    `Invalid amount '${tooFine}': ${s.id} BTC/USDT amounts allow at most ${decimals} decimal${decimals === 1 ? "" : "s"}`,
  );
  expect(s.mock.orders.size).toBe(placedCount);

  const one = await cli(["order", "BTC/USDT", order.id]);
  expect(one.code, one.stderr).toBe(0);
  expect(JSON.parse(one.stdout)).toMatchObject({ id: order.id });

  const open = await cli(["orders", "BTC/USDT"]);
  expect(open.code, open.stderr).toBe(0);
  const listed = JSON.parse(open.stdout) as { id: string }[];
  expect(listed).toHaveLength(1);
  expect(JSON.stringify(listed)).toContain(order.id);
  expect(open.stdout).toContain(order.id);

  const canceled = await cli(["cancel", "BTC/USDT", order.id]);
  expect(canceled.code, canceled.stderr).toBe(0);
  expect(statusOf(order.id)).toBe(s.canceled);

  const batchOrders = s.batch ?? TWO_ORDERS;
  const batchInput = JSON.stringify(batchOrders);
  let created: { id: string }[] = [];
  if (unsupported.has("batch")) await refused(["batch", "BTC/USDT", "-", far], batchInput);
  else {
    const batch = await cli(["batch", "BTC/USDT", "-", far], batchInput);
    expect(batch.code, batch.stderr).toBe(0);
    created = JSON.parse(batch.stdout) as { id: string }[];
    expect(created).toHaveLength(batchOrders.length);
    expect(statuses().filter((x) => x === s.open)).toHaveLength(batchOrders.length);
    placedCount += batchOrders.length;
  }

  if (unsupported.has("cancel-batch")) await refused(["cancel-batch", "BTC/USDT", created[0]?.id ?? "1"]);
  else {
    const ids = (s.cancelBatchAll ? created : created.slice(0, 1)).map((o) => o.id);
    const cb = await cli(["cancel-batch", "BTC/USDT", ...ids]);
    expect(cb.code, cb.stderr).toBe(0);
    for (const id of ids) expect(statusOf(id)).toBe(s.canceled);
  }

  if (unsupported.has("cancel-all")) await refused(["cancel-all", "BTC/USDT"]);
  else {
    let sold: { id: string } | undefined;
    if (created.length === 0) {
      const [sellAmount, sellPrice] = s.sell ?? ["0.02", "31000"];
      const sell = await cli(["sell", "BTC/USDT", sellAmount, sellPrice, far]);
      expect(sell.code, sell.stderr).toBe(0);
      sold = JSON.parse(sell.stdout) as { id: string };
      placedCount += 1;
    }
    const all = await cli(["cancel-all", "BTC/USDT"]);
    expect(all.code, all.stderr).toBe(0);
    for (const o of [...created, ...(sold ? [sold] : [])]) expect(statusOf(o.id)).toBe(s.canceled);
  }
  expect(statuses().filter((x) => x === s.open)).toHaveLength(0);
  expect(statuses().every((x) => x === s.canceled)).toBe(true);
  expect(s.mock.orders.size).toBe(placedCount);

  const balances = await cli(["balances"]);
  expect(balances.code, balances.stderr).toBe(0);
  const parsed = JSON.parse(balances.stdout) as unknown;
  expect(parsed).toBeTruthy();
  if (typeof s.balances === "string") {
    expect(balances.stdout).toContain(s.balances);
    expect(JSON.stringify(parsed)).toContain(s.balances);
  } else expect(parsed).toMatchObject(s.balances);
  return base;
}
