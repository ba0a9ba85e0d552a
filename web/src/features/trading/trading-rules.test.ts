/** Rules of the trading view that live in web/src/features/trading (docs/web-trading.md); the components only call them. */
import { describe, expect, it } from "vitest";
import { OrderBook } from "../../../../lib/orderbook.js";
import type { Order } from "../../../../lib/types.js";
import { sortByPriceDescending } from "./account/OpenOrdersPanel";
import { pickOf, takeView } from "./book/book-view";
import { addMid, chartSymbol, widgetOptions } from "./chart/provider";
import { dustMessage, prepareOrder, ZERO_TOAST } from "./panel/prepare-order";

const balances = (rows: { token: string; free: string }[]) => ({ rows, error: undefined, lastUpdate: 1 });
const funds = balances([
  { token: "USDT", free: "1000" },
  { token: "BTC", free: "0.5" },
]);

describe("order book (docs/web-trading.md 'Order book')", () => {
  it("a click picks the level's price with the cumulative amount and total from the best; Buy from asks, Sell from bids (docs/dashboard-rules.md#screens)", () => {
    const book = new OrderBook();
    book.applySnapshot(
      [
        ["99", "1"],
        ["98", "2"],
      ],
      [
        ["101", "0.5"],
        ["102", "1.5"],
      ],
    );
    const view = takeView(book, 20);
    expect(pickOf(view, "ask", 1)).toEqual({ price: "102", amount: "2", total: "203.5", type: "Buy" });
    expect(pickOf(view, "bid", 1)).toEqual({ price: "98", amount: "3", total: "295", type: "Sell" });
    expect(pickOf(view, "bid", 5)).toBeUndefined();
    expect(view.mid).toBe("100");
  });
});

describe("trading panel (docs/web-trading.md 'Trading panel')", () => {
  const base = { side: "Buy" as const, pair: "BTC/USDT", decimals: undefined, balances: funds, amount: "", quote: "" };
  it("derives amount = quote / price and cuts price and amount to the pair's decimals (docs/dashboard-rules.md#validation, docs/decisions.md#d1)", () => {
    const r = prepareOrder({ ...base, price: "100.129", quote: "10", decimals: { price: 2, amount: 3 } });
    expect(r).toEqual({
      ok: true,
      draft: { side: "Buy", price: "100.12", amount: "0.099", pair: "BTC/USDT" },
      note: undefined,
    });
  });
  it("a zero after the decimals is the seed's toast 'Incorrect amount / It is zero!' (docs/dashboard-rules.md#validation, docs/api.md#errors)", () => {
    expect(ZERO_TOAST).toEqual({ title: "Incorrect amount", description: "It is zero!" });
    expect(prepareOrder({ ...base, price: "100", amount: "0.0001", decimals: { price: 2, amount: 3 } })).toEqual({
      ok: false,
      ...ZERO_TOAST,
    });
    expect(prepareOrder({ ...base, price: "100", amount: "0" })).toEqual({ ok: false, ...ZERO_TOAST });
  });
  it("needs a price and an amount or a quote, with a message that says so", () => {
    expect(prepareOrder({ ...base, price: "100" })).toEqual({
      ok: false,
      title: "Order not sent",
      description: "An order needs a price and an amount or a quote",
    });
    expect(prepareOrder({ ...base, price: "abc", amount: "1" })).toMatchObject({
      ok: false,
      description: "Invalid price 'abc': expected digits with an optional '.' or ',' decimal part",
    });
  });
  it("checks the free balance before the question and says what is missing (issue 20)", () => {
    expect(prepareOrder({ ...base, price: "100", amount: "11" })).toEqual({
      ok: false,
      title: "Not enough funds",
      description:
        "Not enough USDT to buy 11 BTC @ 100 USDT: needs 1100 USDT, 1000 USDT free, 100 USDT missing. Not sent.",
    });
    expect(prepareOrder({ ...base, side: "Sell", price: "100", amount: "0.5" }).ok).toBe(true);
    const unknown = prepareOrder({
      ...base,
      price: "100",
      amount: "1",
      balances: { rows: [], error: "HTTP 502", lastUpdate: undefined },
    });
    expect(unknown).toMatchObject({ ok: true, note: "free balance not checked: balances unavailable: HTTP 502" });
  });
});

describe("open orders (docs/dashboard-rules.md#screens)", () => {
  it("sorts by price descending, as decimals", () => {
    const o = (price: string) => ({ price }) as Order;
    expect(sortByPriceDescending([o("9.5"), o("10"), o("100"), o("10.25")]).map((x) => x.price)).toEqual([
      "100",
      "10.25",
      "10",
      "9.5",
    ]);
  });
});

describe("chart (docs/exchange-rules.md#chart)", () => {
  it("names the symbol EXCHANGE:PAIR without the slash, GATEIO for gate", () => {
    expect(chartSymbol("bybit", "BTC/USDT")).toBe("BYBIT:BTCUSDT");
    expect(chartSymbol("gate", "ETH/USDT")).toBe("GATEIO:ETHUSDT");
  });
  it("asks the widget for 5 minutes, UTC, English, the theme, no calendar, no symbol change, 24 h volume, autosize", () => {
    expect(widgetOptions("okx", "BTC/USDT", "light", "c1")).toEqual({
      container_id: "c1",
      symbol: "OKX:BTCUSDT",
      interval: "5",
      timezone: "Etc/UTC",
      locale: "en",
      theme: "light",
      style: "1",
      autosize: true,
      calendar: false,
      allow_symbol_change: false,
      studies: ["STD;24h%Volume"],
    });
  });
  it("builds 5-minute candles from live mids: open, high, low, close per interval", () => {
    const cmp = (a: string, b: string) => Number(a) - Number(b);
    const t0 = Date.UTC(2026, 0, 1, 12, 0, 10);
    let c = addMid([], "100", t0, 300, cmp);
    c = addMid(c, "103", t0 + 1000, 300, cmp);
    c = addMid(c, "99", t0 + 2000, 300, cmp);
    c = addMid(c, "101", t0 + 3000, 300, cmp);
    c = addMid(c, "102", t0 + 300_000, 300, cmp);
    expect(c).toEqual([
      { time: Date.UTC(2026, 0, 1, 12) / 1000, open: "100", high: "103", low: "99", close: "101" },
      { time: Date.UTC(2026, 0, 1, 12, 5) / 1000, open: "102", high: "102", low: "102", close: "102" },
    ]);
  });
});

describe("the pair's rules in the panel (docs/web-trading.md 'Trading panel')", () => {
  const base = { side: "Sell" as const, price: "65250", quote: "", pair: "BTC/USDT", balances: funds };
  it("refuses '1,000' as ambiguous in the CLI's words instead of reading 1", () => {
    const r = prepareOrder({ ...base, price: "1,000", amount: "0.01", decimals: undefined });
    expect(r).toEqual({
      ok: false,
      title: "Order not sent",
      description:
        "Ambiguous price '1,000': it reads as 1.000 (comma as decimal mark) or 1000 (comma as thousands separator); write 1.000 or 1000",
    });
  });
  it("cuts the amount to the pair's decimals: 'Sell 0.001532449620718718872117079151 BTC' is asked as 0.001532", () => {
    const r = prepareOrder({ ...base, amount: "", quote: "100", decimals: { price: 2, amount: 6 } });
    expect(r.ok && r.draft.amount).toBe("0.001532");
  });
  it("refuses dust below the venue's minimum amount or order value", () => {
    expect(dustMessage({ price: "65000", amount: "0.00001", pair: "BTC/USDT" }, { minAmount: "0.0001" })).toBe(
      "0.00001 BTC is below the BTC/USDT minimum amount of 0.0001 BTC",
    );
    expect(dustMessage({ price: "65000", amount: "0.00001", pair: "BTC/USDT" }, { minNotional: "5" })).toBe(
      "0.65 USDT (price × amount) is below the BTC/USDT minimum order value of 5 USDT",
    );
    expect(
      dustMessage({ price: "65000", amount: "0.001", pair: "BTC/USDT" }, { minAmount: "0.0001", minNotional: "5" }),
    ).toBeUndefined();
    const refused = prepareOrder({ ...base, amount: "0.00001", decimals: undefined, rules: { minNotional: "5" } });
    expect(refused.ok).toBe(false);
  });
});
