import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  KUCOIN_KEY,
  KUCOIN_PASSPHRASE,
  KUCOIN_SECRET,
  type KucoinMock,
  startKucoinMock,
} from "../../exchanges/kucoin/mock.js";
import { startXtMock, XT_KEY, XT_SECRET, type XtMock } from "../../exchanges/xt/mock.js";
import type { Order } from "../../lib/types.js";
import { runCli } from "./run-cli.js";

// docs/orders.md "Partly placed batches", through the built CLI against loopback mocks: a batch the
// exchange took in part prints the orders it placed, says which items were not, and exits non-zero.

const items = [
  { side: "Buy", amount: "0.01", price: "29000" },
  { side: "Buy", amount: "0.01", price: "29001" },
  { side: "Buy", amount: "0.01", price: "29002" },
];

/** The last JSON line of stderr (the --json error object). */
function errorLine(stderr: string): { error: { message: string; kind: string; placed?: Order[] } } {
  const lines = stderr.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]!);
}

describe("a batch one item of which the exchange refused (kucoin: per-item status)", () => {
  let mock: KucoinMock;
  const env = {
    SPOTDESK_API_KEY: KUCOIN_KEY,
    SPOTDESK_API_SECRET: KUCOIN_SECRET,
    SPOTDESK_API_PASSWORD: KUCOIN_PASSPHRASE,
  };
  beforeAll(async () => {
    mock = await startKucoinMock();
  });
  afterAll(() => mock.close());

  it("prints the two orders placed on stdout, names item 2 as not placed, and exits with the refusal's kind", async () => {
    mock.fake.refuseNextBatchItem(1, { code: "400100", msg: "Balance insufficient" });
    const base = ["--exchange", "kucoin", "--base-url", mock.url];
    const result = await runCli(
      [...base, "batch", "BTC/USDT", "--allow-far-price", "--json"],
      env,
      JSON.stringify(items),
    );
    expect(result.code).toBe(5);
    const printed = JSON.parse(result.stdout) as Order[];
    expect(printed.map((o) => o.price)).toEqual(["29000", "29002"]);
    expect([...mock.orders.keys()].sort()).toEqual(printed.map((o) => o.id).sort());
    const error = errorLine(result.stderr).error;
    expect(error.message).toContain(`2 of 3 orders placed (${printed.map((o) => o.id).join(", ")}); item 2 not placed`);
    expect(error.message).toContain("One of orders threw an error (Balance insufficient)");
    // the exchange said which it took: no "check spotdesk orders"
    expect(error.message).not.toContain("may hold part");
    expect(error.placed?.map((o) => o.id)).toEqual(printed.map((o) => o.id));
  });
});

describe("a batch whose rejected item xt skips (docs/exchange-rules.md#validation)", () => {
  let mock: XtMock;
  const env = { SPOTDESK_API_KEY: XT_KEY, SPOTDESK_API_SECRET: XT_SECRET };
  beforeAll(async () => {
    mock = await startXtMock();
  });
  afterAll(() => mock.close());

  it("does not read the shorter answer as success: the placed orders on stdout, the rejected item named, exit 5", async () => {
    mock.rejectNextBatchItem(2);
    const result = await runCli(
      ["--exchange", "xt", "--base-url", mock.url, "batch", "BTC/USDT", "--allow-far-price", "--json"],
      env,
      JSON.stringify(items),
    );
    expect(result.code).toBe(5);
    const printed = JSON.parse(result.stdout) as Order[];
    expect(printed.map((o) => o.price)).toEqual(["29000", "29001"]);
    expect(mock.orders.size).toBe(2);
    const error = errorLine(result.stderr).error;
    expect(error.message).toContain("2 of 3 orders placed (");
    expect(error.message).toContain("item 3 not placed: the batch of items 1-3 failed: Batch item 3: rejected by xt");
  });
});
