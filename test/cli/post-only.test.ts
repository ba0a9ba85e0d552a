import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BITRUE_KEY, BITRUE_SECRET, type BitrueMock, startBitrueMock } from "../../exchanges/bitrue/mock.js";
import { Decimal } from "../../lib/decimal.js";
import type { Order } from "../../lib/types.js";
import { type Sandbox, sandbox } from "./helpers.js";

// docs/orders.md "Post-only" and docs/cli.md "--post-only", through the built CLI: paper refuses a
// crossing post-only order and rests one that does not; an exchange without a maker-only form
// refuses the flag with exit 9 before anything is sent; `spotdesk exchanges` says which have one.

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

interface Book {
  bids: [string, string][];
  asks: [string, string][];
}

describe("--post-only on paper", () => {
  it("a buy 1% over the best ask is refused (exit 5), and a buy 1% under the best bid rests unfilled", async () => {
    const book = await cli.json<Book>(["book", "BTC/USDT", "--json"]);
    const ask = new Decimal(book.asks[0]![0]);
    const bid = new Decimal(book.bids[0]![0]);
    const crossing = await cli.run([
      "buy",
      "BTC/USDT",
      "0.01",
      ask.times("1.01").toFixed(2),
      "--post-only",
      "--allow-far-price",
      "--json",
    ]);
    expect(crossing.code, crossing.stderr).toBe(5);
    expect(crossing.stdout).toBe("");
    expect(crossing.stderr).toContain("Post-only order refused: a buy at");
    const orders = await cli.json<Order[]>(["orders", "BTC/USDT", "--json"]);
    expect(orders).toEqual([]);

    const resting = await cli.json<Order>([
      "buy",
      "BTC/USDT",
      "0.01",
      bid.times("0.99").toFixed(2),
      "--post-only",
      "--allow-far-price",
      "--json",
    ]);
    expect(resting).toMatchObject({ status: "open", filled: "0", side: "Buy" });
  });

  it("without --post-only the same crossing buy takes", async () => {
    const book = await cli.json<Book>(["book", "BTC/USDT", "--json"]);
    const price = new Decimal(book.asks[0]![0]).times("1.01").toFixed(2);
    const taker = await cli.json<Order>(["buy", "BTC/USDT", "0.001", price, "--allow-far-price", "--json"]);
    expect(taker.filled).toBe("0.001");
  });
});

describe("--post-only on an exchange without a maker-only form (bitrue)", () => {
  let mock: BitrueMock;
  beforeAll(async () => {
    mock = await startBitrueMock();
  });
  afterAll(() => mock.close());

  it("exits 9 naming the exchange, and the exchange sees no request", async () => {
    const env = { SPOTDESK_API_KEY: BITRUE_KEY, SPOTDESK_API_SECRET: BITRUE_SECRET };
    const base = ["--exchange", "bitrue", "--base-url", mock.url];
    const single = await cli.run([...base, "sell", "BTC/USDT", "0.01", "40000", "--post-only", "--json"], { env });
    expect(single.code).toBe(9);
    expect(single.stderr).toContain("bitrue has no post-only order type: the order was not sent");
    const batch = await cli.run([...base, "batch", "BTC/USDT", "--post-only", "--json"], {
      env,
      stdin: JSON.stringify([{ side: "Sell", amount: "0.01", price: "40000" }]),
    });
    expect(batch.code).toBe(9);
    expect(mock.server.requests).toEqual([]);
  });
});

describe('spotdesk exchanges shows the post-only form (docs/exchange-rules.md "Post-only")', () => {
  it("names each exchange's form, none for bitrue and bitteam", async () => {
    const rows = await cli.json<Array<{ id: string; postOnly: string | null }>>(["exchanges"]);
    const form = Object.fromEntries(rows.map((r) => [r.id, r.postOnly]));
    expect(form).toMatchObject({
      bybit: 'timeInForce: "PostOnly"',
      okx: 'ordType: "post_only"',
      gate: 'time_in_force: "poc"',
      bitrue: null,
      bitteam: null,
    });
    const table = await cli.run(["exchanges"]);
    expect(table.stdout).toMatch(/Post-only/);
    expect(table.stdout).toMatch(/bitrue\s.*\snone\s/);
  });
});
