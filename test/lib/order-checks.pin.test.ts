import { describe, expect, it } from "vitest";
import { bookStaleness, checkFunds, orderWarning, staleReason, staleText } from "../../lib/order-checks.js";

/*
 * lib/order-checks.ts at its edges (docs/orders.md "Checks of a UI order", docs/mutation.md): the
 * free balance at exactly what the order needs, the token each side spends, and the warnings that
 * ask a second confirmation. test/tui/order-rules.test.ts covers the TUI's use of the same rules.
 */
const AT = Date.UTC(2025, 0, 15, 12, 0, 3);
const loaded = (rows: { token: string; free: string }[]) => ({ rows, error: undefined, lastUpdate: AT });

describe("checkFunds at its edges", () => {
  it("passes a buy whose price × amount is exactly the free quote, refuses one smallest step more", () => {
    const balances = loaded([
      { token: "BTC", free: "1000" },
      { token: "USDT", free: "250.5" },
    ]);
    expect(checkFunds({ side: "Buy", price: "100.2", amount: "2.5", pair: "BTC/USDT" }, balances)).toEqual({
      ok: true,
    });
    expect(checkFunds({ side: "Buy", price: "100.2", amount: "2.50000001", pair: "BTC/USDT" }, balances)).toEqual({
      ok: false,
      message:
        "Not enough USDT to buy 2.50000001 BTC @ 100.2 USDT: needs 250.500001002 USDT, 250.5 USDT free, 0.000001002 USDT missing. Not sent.",
    });
  });

  it("passes a sell of exactly the free base whatever the price, refuses a hair more", () => {
    const balances = loaded([
      { token: "USDT", free: "0" },
      { token: "ETH", free: "0.3" },
    ]);
    expect(checkFunds({ side: "Sell", price: "99999", amount: "0.3", pair: "ETH/USDT" }, balances)).toEqual({
      ok: true,
    });
    expect(checkFunds({ side: "Sell", price: "1", amount: "0.30000001", pair: "ETH/USDT" }, balances)).toEqual({
      ok: false,
      message:
        "Not enough ETH to sell 0.30000001 ETH @ 1 USDT: needs 0.30000001 ETH, 0.3 ETH free, 0.00000001 ETH missing. Not sent.",
    });
  });

  it("counts a token with no row as 0 free, and checks the quote on a buy, not the base", () => {
    const onlyBase = loaded([{ token: "BTC", free: "5" }]);
    expect(checkFunds({ side: "Buy", price: "1", amount: "1", pair: "BTC/USDT" }, onlyBase)).toEqual({
      ok: false,
      message: "Not enough USDT to buy 1 BTC @ 1 USDT: needs 1 USDT, 0 USDT free, 1 USDT missing. Not sent.",
    });
    expect(checkFunds({ side: "Sell", price: "1", amount: "5", pair: "BTC/USDT" }, onlyBase)).toEqual({ ok: true });
  });

  it("says the funds were not checked when the balances failed, even with rows from before", () => {
    const draft = { side: "Buy" as const, price: "1000000", amount: "1", pair: "BTC/USDT" };
    expect(checkFunds(draft, { rows: [{ token: "USDT", free: "1" }], error: "timeout", lastUpdate: AT })).toEqual({
      ok: true,
      note: "free balance not checked: balances unavailable: timeout",
    });
    expect(
      checkFunds(draft, { rows: [{ token: "USDT", free: "1" }], error: undefined, lastUpdate: undefined }),
    ).toEqual({
      ok: true,
      note: "free balance not checked: balances not loaded yet",
    });
  });
});

describe("book staleness and its reasons", () => {
  it("names each state in the trader's words, a lost connection apart from a first one", () => {
    expect(staleReason("connecting", false)).toBe("connecting");
    expect(staleReason("connecting", true)).toBe("connection lost, reconnecting");
    expect(staleReason("resyncing", true)).toBe("book out of sync, loading a fresh snapshot");
    expect(staleReason("stale", false)).toBe("no book update for too long, reconnecting");
    expect(staleReason("closed", true)).toBe("feed closed");
  });

  it("is undefined while live, else the state, since when, and the reason of the cause", () => {
    expect(bookStaleness("live", AT, true)).toBeUndefined();
    expect(bookStaleness("connecting", AT, true, "stale")).toEqual({
      state: "connecting",
      since: AT,
      wasLive: true,
      reason: "no book update for too long, reconnecting",
    });
    // a cause of "live" says nothing: the state's own reason
    expect(bookStaleness("resyncing", AT, false, "live")?.reason).toBe("book out of sync, loading a fresh snapshot");
    expect(bookStaleness("closed", AT, false)?.reason).toBe("feed closed");
    const s = bookStaleness("connecting", AT, true);
    expect(s && staleText(s)).toBe("disconnected since 12:00:03 UTC (connection lost, reconnecting)");
  });
});

describe("orderWarning: the second confirmation", () => {
  const view = { asks: [{ price: "100" }, { price: "101" }], bids: [{ price: "99" }, { price: "98" }], mid: "99.5" };

  it("warns of a far price against the best level on screen (the first row), on both sides", () => {
    expect(
      orderWarning({ side: "Buy", price: "110", amount: "2", pair: "BTC/USDT" }, view, undefined, 5, "press F"),
    ).toEqual({
      kind: "far",
      text: "FAR PRICE: Buy price 110 USDT is 10% above the best ask 100 USDT (far-price limit 5%), about 21 USDT more than at the mid 99.5; press F",
    });
    expect(
      orderWarning({ side: "Sell", price: "90", amount: "2", pair: "BTC/USDT" }, view, undefined, 5, "press F"),
    ).toEqual({
      kind: "far",
      text: "FAR PRICE: Sell price 90 USDT is 9.09% below the best bid 99 USDT (far-price limit 5%), about 19 USDT less than at the mid 99.5; press F",
    });
  });

  it("passes a price within the limit", () => {
    expect(
      orderWarning({ side: "Buy", price: "104", amount: "2", pair: "BTC/USDT" }, view, undefined, 5, "F"),
    ).toBeUndefined();
    expect(
      orderWarning({ side: "Sell", price: "95", amount: "2", pair: "BTC/USDT" }, view, undefined, 5, "F"),
    ).toBeUndefined();
  });

  it("asks again without a live book, saying since when and why, or that there is no book", () => {
    const stale = bookStaleness("stale", AT, true);
    expect(
      orderWarning({ side: "Buy", price: "100", amount: "2", pair: "BTC/USDT" }, view, stale, 5, "press F"),
    ).toEqual({
      kind: "no-book",
      text: "BOOK NOT LIVE, disconnected since 12:00:03 UTC (no book update for too long, reconnecting): Buy at 100 USDT not checked: no live BTC/USDT order book to measure it against (far-price limit 5%); press F",
    });
    expect(
      orderWarning(
        { side: "Buy", price: "100", amount: "2", pair: "BTC/USDT" },
        { asks: [], bids: [], mid: undefined },
        undefined,
        5,
        "press F",
      ),
    ).toEqual({
      kind: "no-book",
      text: "NO BOOK: Buy at 100 USDT not checked: no live BTC/USDT order book (no best ask) to measure it against (far-price limit 5%); press F",
    });
  });
});
