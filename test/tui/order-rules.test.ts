import { describe, expect, it } from "vitest";
import { wrapText } from "../../tui/components/layout.js";
import { bookStaleness, staleBanner } from "../../tui/feed-health.js";
import { checkFunds, orderWarning } from "../../tui/order-checks.js";
import { balanceRows, compareText } from "../../tui/orders-view.js";

const AT = Date.UTC(2025, 0, 15, 12, 0, 3);
const balances = {
  rows: balanceRows({ USDT: { f: "1000", l: "50" }, BTC: { f: "0.25", l: "0" } }),
  error: undefined,
  lastUpdate: AT,
};
const book = { asks: [{ price: "100" }], bids: [{ price: "99" }], mid: "99.5" };

describe("checkFunds (docs/tui.md 'Order checks' 1)", () => {
  it("passes what the free balance pays: a buy's price × amount of quote, a sell's amount of base", () => {
    expect(checkFunds({ side: "Buy", price: "100", amount: "10", pair: "BTC/USDT" }, balances)).toEqual({ ok: true });
    expect(checkFunds({ side: "Sell", price: "1", amount: "0.25", pair: "BTC/USDT" }, balances)).toEqual({ ok: true });
  });

  it("says exactly what is needed, free and missing, with the locked part not counted", () => {
    expect(checkFunds({ side: "Buy", price: "100.5", amount: "10", pair: "BTC/USDT" }, balances)).toEqual({
      ok: false,
      message: "Not enough USDT to buy 10 BTC @ 100.5 USDT: needs 1005 USDT, 1000 USDT free, 5 USDT missing. Not sent.",
    });
    expect(checkFunds({ side: "Sell", price: "100", amount: "0.3", pair: "ETH/BTC" }, balances)).toEqual({
      ok: false,
      message: "Not enough ETH to sell 0.3 ETH @ 100 BTC: needs 0.3 ETH, 0 ETH free, 0.3 ETH missing. Not sent.",
    });
  });

  it("lets the question say so when the balances are unknown", () => {
    const draft = { side: "Buy" as const, price: "1", amount: "1", pair: "BTC/USDT" };
    expect(checkFunds(draft, { rows: [], error: "HTTP 503", lastUpdate: AT })).toEqual({
      ok: true,
      note: "free balance not checked: balances unavailable: HTTP 503",
    });
    expect(checkFunds(draft, { rows: [], error: undefined, lastUpdate: undefined })).toEqual({
      ok: true,
      note: "free balance not checked: balances not loaded yet",
    });
  });
});

describe("orderWarning (docs/tui.md 'Order checks' 3, the guard of lib/price-guard.ts)", () => {
  it("warns of a price through the book beyond the limit, naming the distance and the cost against the mid", () => {
    const w = orderWarning({ side: "Sell", price: "49.5", amount: "2", pair: "BTC/USDT" }, book, undefined, undefined);
    expect(w?.kind).toBe("far");
    expect(w?.text).toBe(
      "FAR PRICE: Sell price 49.5 USDT is 50% below the best bid 99 USDT (far-price limit 5%), about 100 USDT less than at the mid 99.5; a second confirmation sends it anyway",
    );
    // inside the account's own limit: no warning
    expect(orderWarning({ side: "Sell", price: "49.5", amount: "2", pair: "BTC/USDT" }, book, undefined, "60")).toBe(
      undefined,
    );
    expect(orderWarning({ side: "Buy", price: "105", amount: "1", pair: "BTC/USDT" }, book, undefined, undefined)).toBe(
      undefined,
    );
  });

  it("without a live book says since when and why, whatever the price", () => {
    const stale = bookStaleness("connecting", AT, true);
    const w = orderWarning({ side: "Buy", price: "100", amount: "1", pair: "BTC/USDT" }, book, stale, undefined);
    expect(w?.kind).toBe("no-book");
    expect(w?.text).toMatch(
      /^BOOK NOT LIVE, disconnected since 12:00:03 UTC \(connection lost, reconnecting\): Buy at 100 USDT not checked: no live BTC\/USDT order book/,
    );
    const empty = orderWarning(
      { side: "Buy", price: "100", amount: "1", pair: "BTC/USDT" },
      { asks: [], bids: [], mid: undefined },
      undefined,
      undefined,
    );
    expect(empty?.kind).toBe("no-book");
    expect(empty?.text).toMatch(/^NO BOOK: Buy at 100 USDT not checked/);
  });
});

describe("stale banner and wrapped messages", () => {
  it("fits the banner to the width, keeping the time and the reason as long as it can", () => {
    const s = bookStaleness("stale", AT, true);
    if (!s) throw new Error("stale expected");
    expect(staleBanner(s, 120)).toBe(
      "⚠ Order book not live: disconnected since 12:00:03 UTC (no book update for too long, reconnecting)",
    );
    expect(staleBanner(s, 80)).toBe("⚠ disconnected since 12:00:03 UTC (no book update for too long, reconnecting)");
    for (const width of [40, 60, 80, 100]) expect(staleBanner(s, width).length).toBeLessThanOrEqual(width);
    expect(bookStaleness("live", AT, true)).toBeUndefined();
  });

  it("wraps at word boundaries, splits words longer than a line, and cuts only past the last line", () => {
    expect(wrapText("Not enough BTC to sell 100 BTC", 12)).toEqual(["Not enough", "BTC to sell", "100 BTC"]);
    expect(wrapText("id 0123456789abcdef", 8)).toEqual(["id", "01234567", "89abcdef"]);
    expect(wrapText("one two three four", 9, 2)).toEqual(["one two", "three…"]);
    const message = `${"x".repeat(75)} missing 99 BTC`;
    expect(wrapText(message, 80).join(" ")).toBe(message);
  });
});

describe("compareText (the balances' and orders' order without ICU, docs/tui-memory.md)", () => {
  it("orders token symbols and ids as localeCompare does", () => {
    const texts = [
      "USDT",
      "BTC",
      "1INCH",
      "stETH",
      "ETH",
      "eth2",
      "A",
      "ab",
      "Z9",
      "ZZ",
      "BTC2",
      "0x",
      "10",
      "9",
      "100",
    ];
    expect([...texts].sort(compareText)).toEqual([...texts].sort((a, b) => a.localeCompare(b)));
    expect(["USDT", "stETH", "BTC", "1INCH", "ETH"].sort(compareText)).toEqual([
      "1INCH",
      "BTC",
      "ETH",
      "stETH",
      "USDT",
    ]);
    expect(["10", "9", "100"].sort(compareText)).toEqual(["10", "100", "9"]);
  });

  it("breaks a tie of case by code unit, upper case first", () => {
    expect(["ab", "AB", "Ab"].sort(compareText)).toEqual(["AB", "Ab", "ab"]);
    expect(compareText("BTC", "BTC")).toBe(0);
  });

  it("sorts the balance rows non-zero first, then by token whatever its case", () => {
    const rows = balanceRows({
      USDT: { f: "1", l: "0" },
      stETH: { f: "2", l: "0" },
      BTC: { f: "0", l: "0" },
      ada: { f: "0", l: "0" },
    });
    expect(rows.map((r) => r.token)).toEqual(["stETH", "USDT", "ada", "BTC"]);
  });
});
