import { afterEach, describe, expect, it } from "vitest";
import { type RenderResult, render } from "../../test/tui/render.js";
import { derivedAmount, EMPTY_TRADE_FORM, type TradeFormState, tradeFormReducer } from "../trade-form.js";
import { TradingPanel } from "./TradingPanel.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

const type = (state: TradeFormState, text: string) =>
  [...text].reduce((s, ch) => tradeFormReducer(s, { type: "input", text: ch }), state);

describe("TradingPanel (docs/dashboard-rules.md#screens Trading panel, docs/dashboard-rules.md#validation Numbers)", () => {
  it("shows Price, Amount and Quote with the pair's units and the Buy/Sell keys", () => {
    const form = { ...EMPTY_TRADE_FORM, price: "100", amount: "2", quote: "" };
    screen = render(<TradingPanel form={form} pair="ETH/USDT" derivedAmount={undefined} focused width={40} canTrade />);
    const frame = screen.lastFrame();
    expect(frame).toMatch(/Price\s+100▏\s+USDT/);
    expect(frame).toMatch(/Amount\s+2\s+ETH/);
    expect(frame).toMatch(/\[b\] Buy\s+\[s\] Sell/);
  });

  it("shows the amount a quote buys when the amount is empty (amount = quote / price)", () => {
    let form = type(EMPTY_TRADE_FORM, "250");
    form = tradeFormReducer(form, { type: "focus", field: "quote" });
    form = type(form, "1000");
    expect(derivedAmount(form)).toBe("4");
    screen = render(
      <TradingPanel form={form} pair="ETH/USDT" derivedAmount={derivedAmount(form)} focused width={40} canTrade />,
    );
    expect(screen.lastFrame()).toMatch(/Amount\s+≈ 4 from quote/);
  });

  it("turns a comma into a dot and reverts invalid input when the field loses focus", () => {
    let form = type(EMPTY_TRADE_FORM, "1,5");
    expect(form.price).toBe("1,5");
    form = tradeFormReducer(form, { type: "move", direction: 1 });
    expect(form.price).toBe("1.5");
    form = tradeFormReducer(form, { type: "focus", field: "price" });
    form = type(form, "..");
    expect(form.price).toBe("1.5..");
    form = tradeFormReducer(form, { type: "move", direction: 1 });
    expect(form.price).toBe("1.5");
  });

  it('m\'s toggle shows post-only beside the title and survives a clear (docs/orders.md "Post-only")', () => {
    let form = tradeFormReducer(type(EMPTY_TRADE_FORM, "100"), { type: "postOnly" });
    expect(form.postOnly).toBe(true);
    form = tradeFormReducer(form, { type: "clear" });
    expect(form).toEqual({ ...EMPTY_TRADE_FORM, postOnly: true });
    screen = render(<TradingPanel form={form} pair="ETH/USDT" derivedAmount={undefined} focused width={40} canTrade />);
    expect(screen.lastFrame()).toMatch(/^Trade ETH\/USDT post-only\n/);
    expect(tradeFormReducer(form, { type: "postOnly" }).postOnly).toBe(false);
  });

  it("ignores letters in number fields", () => {
    expect(type(EMPTY_TRADE_FORM, "1a2").price).toBe("12");
  });

  it("says why trading is unavailable instead of showing the buttons", () => {
    screen = render(
      <TradingPanel
        form={EMPTY_TRADE_FORM}
        pair="BTC/USDT"
        derivedAmount={undefined}
        focused={false}
        width={40}
        canTrade={false}
        tradeBlockedReason="no credentials for okx"
      />,
    );
    expect(screen.lastFrame()).toContain("no credentials for okx");
    expect(screen.lastFrame()).not.toContain("[b] Buy");
  });
});
