/**
 * The venue's tick and lot on the command line (docs/orders.md "Numbers on the command line",
 * docs/decisions.md#d35): the built CLI against the htx mock on loopback, whose BTC/USDT has
 * price-precision 2 and amount-precision 6 (tick 0.01, lot 0.000001).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HTX_KEY, HTX_SECRET, type HtxMock, startHtxMock } from "../../exchanges/htx/mock.js";
import { type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
let mock: HtxMock;
const env = { SPOTDESK_API_KEY: HTX_KEY, SPOTDESK_API_SECRET: HTX_SECRET };

// one mock for the file: the cached list is kept per venue and base URL
beforeAll(async () => {
  cli = sandbox();
  mock = await startHtxMock();
});
afterAll(async () => {
  await mock.close();
  cli.cleanup();
});
beforeEach(() => {
  mock.server.requests.length = 0;
});

const run = (args: string[], stdin?: string) =>
  cli.run(["--exchange", "htx", "--base-url", mock.url, ...args], { env, ...(stdin === undefined ? {} : { stdin }) });
const listReads = () => mock.server.requests.filter((r) => r.path === "/v1/common/symbols").length;
const placed = () => mock.server.requests.filter((r) => r.path === "/v1/order/orders/place");
const cacheFile = () => {
  const dir = join(cli.home, "data", "pairs");
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith("htx-")) : [];
  return names.length === 1 ? join(dir, names[0]!) : undefined;
};

describe("a real venue's decimals on the command line", () => {
  it("rounds `buy BTC/USDT 63000 --quote 100` down to htx's lot with a note, not 0.001587301587301587301587301587", async () => {
    const result = await run(["--json", "buy", "BTC/USDT", "63000", "--quote", "100", "--allow-far-price"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ amount: "0.001587", price: "63000" });
    expect(result.stderr).toContain(
      "Note: amount 0.001587301587301587301587301587 rounded down to 0.001587 (htx BTC/USDT lot 0.000001)",
    );
    expect(placed().map((r) => JSON.parse(r.body).amount)).toEqual(["0.001587"]);
  });

  it("refuses extra digits naming the venue's decimals, exit 2, nothing sent", async () => {
    const amount = await run(["buy", "BTC/USDT", "0.0012345", "63000", "--allow-far-price"]);
    expect(amount.code).toBe(2);
    expect(amount.stderr).toContain("Invalid amount '0.0012345': htx BTC/USDT amounts allow at most 6 decimals");
    const price = await run(["sell", "BTC/USDT", "0.001", "63000.125", "--allow-far-price"]);
    expect(price.code).toBe(2);
    expect(price.stderr).toContain("Invalid price '63000.125': htx BTC/USDT prices allow at most 2 decimals");
    const batch = await run(
      ["batch", "BTC/USDT", "-", "--allow-far-price"],
      JSON.stringify([
        { side: "Buy", amount: "0.001", price: "63000" },
        { side: "Buy", amount: "0.001", price: "62000.001" },
      ]),
    );
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain(
      "Batch item 2: Invalid price '62000.001': htx BTC/USDT prices allow at most 2 decimals",
    );
    expect(placed()).toHaveLength(0);
    expect(mock.server.requests.filter((r) => r.path === "/v1/order/batch-orders")).toHaveLength(0);
  });

  it("reads the list once and keeps it under the data directory: the next order costs no extra call", async () => {
    const file = cacheFile();
    expect(file).toBeDefined();
    const before = listReads();
    const result = await run(["buy", "BTC/USDT", "0.001", "63000", "--allow-far-price"]);
    expect(result.code, result.stderr).toBe(0);
    expect(listReads() - before).toBe(0);
    expect(JSON.parse(readFileSync(file!, "utf8")).pairs["BTC/USDT"]).toEqual({ tick: "0.01", lot: "0.000001" });
  });

  it("reads the list again once it is a day old", async () => {
    const file = cacheFile()!;
    const cache = JSON.parse(readFileSync(file, "utf8")) as { fetchedAt: number };
    writeFileSync(file, JSON.stringify({ ...cache, fetchedAt: Date.now() - 25 * 60 * 60 * 1000 }));
    const result = await run(["buy", "BTC/USDT", "0.001", "63000", "--allow-far-price"]);
    expect(result.code, result.stderr).toBe(0);
    expect(listReads()).toBe(1);
    expect((JSON.parse(readFileSync(file, "utf8")) as { fetchedAt: number }).fetchedAt).toBeGreaterThan(
      Date.now() - 60_000,
    );
  });

  it("drops the list after a refusal for precision, and reads it again at the next order", async () => {
    mock.server.intercept((req) =>
      req.path === "/v1/order/orders/place"
        ? {
            body: {
              status: "error",
              "err-code": "order-orderamount-precision-error",
              "err-msg": "invalid amount precision, max scale is 4",
              data: null,
            },
          }
        : undefined,
    );
    const refused = await run(["buy", "BTC/USDT", "0.001001", "63000", "--allow-far-price"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("invalid amount precision");
    expect(refused.stderr).toContain("htx refused the order's precision: its pair list will be read again");
    expect(cacheFile()).toBeUndefined();
    mock.server.intercept(undefined);
    const before = listReads();
    const next = await run(["buy", "BTC/USDT", "0.001", "63000", "--allow-far-price"]);
    expect(next.code, next.stderr).toBe(0);
    expect(listReads() - before).toBe(1);
    expect(cacheFile()).toBeDefined();
  });
});
