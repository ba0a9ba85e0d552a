/**
 * The valuation rules of `spotdesk report` (docs/report.md "Valuation") and its change
 * arithmetic (docs/report.md "History"), on cli/report/value.ts and cli/report/model.ts.
 */
import { describe, expect, it } from "vitest";
import { buildReport, type PreviousRun } from "../../cli/report/model.js";
import { memoMids, midOf, priceIn } from "../../cli/report/value.js";

/** An exchange with these books (pair -> mid); every ask is recorded. */
function exchangeWith(books: Record<string, string>) {
  const asked: string[] = [];
  const mid = async (pair: string) => {
    asked.push(pair);
    return books[pair];
  };
  return { mid, asked };
}

describe("report valuation (docs/report.md)", () => {
  it("mid is (best bid + best ask) / 2, exact; a missing side is no mid", () => {
    expect(midOf("64999.5", "65000.25")).toBe("64999.875");
    expect(midOf(undefined, "1")).toBeUndefined();
    expect(midOf("0", "0")).toBeUndefined();
  });

  it("prefers the direct pair and asks nothing else", async () => {
    const ex = exchangeWith({ "ETH/USDT": "3000", "ETH/BTC": "0.05", "BTC/USDT": "60000" });
    expect(await priceIn("ETH", "USDT", ex.mid)).toEqual({ price: "3000", pairs: ["ETH/USDT"] });
    expect(ex.asked).toEqual(["ETH/USDT"]);
  });

  it("without a direct pair, ETH/BTC is valued through BTC/USDT", async () => {
    const ex = exchangeWith({ "ETH/BTC": "0.0501", "BTC/USDT": "60005" });
    expect(await priceIn("ETH", "USDT", ex.mid)).toEqual({ price: "3006.2505", pairs: ["ETH/BTC", "BTC/USDT"] });
  });

  it("takes the inverse pair before a bridge, 1/mid to 20 significant digits", async () => {
    const ex = exchangeWith({ "BTC/USDT": "60000", "USDT/ETH": "0.0003" });
    expect(await priceIn("USDT", "BTC", ex.mid)).toEqual({ price: "0.000016666666666666666667", pairs: ["BTC/USDT"] });
    expect(ex.asked).toEqual(["USDT/BTC", "BTC/USDT"]);
  });

  it("goes through USDT when BTC does not reach", async () => {
    const ex = exchangeWith({ "SOL/USDT": "150", "BTC/USDT": "60000" });
    expect(await priceIn("SOL", "BTC", ex.mid)).toEqual({
      // 150 x (1/60000 rounded to 20 significant digits): the product itself is exact
      price: "0.00250000000000000000005",
      pairs: ["SOL/USDT", "BTC/USDT"],
    });
  });

  it("no route is no price (undefined), never zero", async () => {
    const ex = exchangeWith({ "BTC/USDT": "60000" });
    expect(await priceIn("XYZ", "USDT", ex.mid)).toBeUndefined();
    expect(await priceIn("USDT", "USDT", ex.mid)).toEqual({ price: "1", pairs: [] });
  });

  it("asks each book once, at most `parallel` at a time, and a failing book is absent", async () => {
    let open = 0;
    let most = 0;
    const calls: string[] = [];
    const mids = memoMids(async (pair) => {
      calls.push(pair);
      open++;
      most = Math.max(most, open);
      await new Promise((resolve) => setTimeout(resolve, 5));
      open--;
      if (pair === "BAD/USDT") throw new Error("socket refused");
      return "1";
    }, 2);
    const pairs = ["A/USDT", "B/USDT", "C/USDT", "A/USDT", "BAD/USDT", "B/USDT"];
    expect(await Promise.all(pairs.map(mids))).toEqual(["1", "1", "1", "1", undefined, "1"]);
    expect(calls.sort()).toEqual(["A/USDT", "B/USDT", "BAD/USDT", "C/USDT"]);
    expect(most).toBe(2);
  });
});

describe("report totals and changes (docs/report.md)", () => {
  const held = (asset: string, free: string, price?: string) => ({
    asset,
    free,
    locked: "0",
    price: price === undefined ? undefined : { price, pairs: [`${asset}/USDT`] },
  });

  it("leaves a failed account and an unpriced asset out of the totals; allocations of the overall total", () => {
    const report = buildReport(
      "2026-01-02T03:04:05.000Z",
      "USDT",
      [
        { exchange: "bybit", account: "main", ok: true, holdings: [held("BTC", "0.5", "60000"), held("XYZ", "9")] },
        { exchange: "gate", account: "old", ok: false, kind: "auth", message: "ExchangeId: gate, msg: Invalid key" },
        { exchange: "okx", account: "desk", ok: true, holdings: [held("USDT", "10000", "1")] },
      ],
      undefined,
    );
    expect(report.status).toBe("partial");
    expect(report.total).toBe("40000");
    expect(report.accounts.map((a) => [a.account, a.total, a.allocation])).toEqual([
      ["main", "30000", "75"],
      ["old", null, null],
      ["desk", "10000", "25"],
    ]);
    expect(report.accounts[0]!.unpriced).toEqual(["XYZ"]);
    expect(report.assets.find((a) => a.asset === "XYZ")).toMatchObject({ amount: "9", value: null, allocation: null });
    expect(report.change).toBeNull();
  });

  it("compares only accounts ok in both runs; a sold asset shows at zero with its change", () => {
    const previous: PreviousRun = {
      at: "2026-01-01T00:00:00.000Z",
      accountTotals: new Map([
        ["bybit/main", "29000"],
        ["gate/old", "500"],
      ]),
      assets: new Map([
        ["bybit/main/BTC", { amount: "0.5", value: "29000" }],
        ["bybit/main/SOL", { amount: "3", value: null }],
        ["gate/old/USDT", { amount: "500", value: "500" }],
      ]),
    };
    const report = buildReport(
      "2026-01-02T00:00:00.000Z",
      "USDT",
      [
        { exchange: "bybit", account: "main", ok: true, holdings: [held("BTC", "0.5", "60000")] },
        { exchange: "gate", account: "old", ok: false, kind: "network", message: "ExchangeId: gate, msg: timeout" },
      ],
      previous,
    );
    const main = report.accounts[0]!;
    expect(main.change).toBe("1000");
    expect(main.assets.find((a) => a.asset === "BTC")!.change).toEqual({ amount: "0", value: "1000" });
    expect(main.assets.find((a) => a.asset === "SOL")).toMatchObject({
      amount: "0",
      value: null,
      change: { amount: "-3", value: null },
    });
    // gate failed now: its 500 is not counted as a loss.
    expect(report.change).toBe("1000");
    expect(report.since).toBe("2026-01-01T00:00:00.000Z");
  });
});
