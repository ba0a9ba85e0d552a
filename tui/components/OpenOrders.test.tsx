import { afterEach, describe, expect, it } from "vitest";
import type { Order } from "../../lib/types.js";
import { type RenderResult, render } from "../../test/tui/render.js";
import { openOrderRows } from "../orders-view.js";
import { OpenOrders } from "./OpenOrders.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

const order = (id: string, side: "Buy" | "Sell", price: string, amount: string): Order => ({
  pair: "BTC/USDT",
  id,
  clientOrderId: `c${id}`,
  price,
  amount,
  filled: "0",
  type: "limit",
  side,
  status: "open",
  timestamp: Date.UTC(2024, 0, 2, 3, 4, 5),
});

describe("OpenOrders panel (docs/dashboard-rules.md#screens Open orders panel)", () => {
  const orders = [order("a1", "Buy", "95", "2"), order("a2", "Sell", "105.5", "0.1"), order("a3", "Buy", "99", "1")];

  it("lists orders by price descending with side, price and quote total, and counts them", () => {
    screen = render(
      <OpenOrders
        rows={openOrderRows(orders)}
        selectedIndex={0}
        focused={false}
        maxRows={5}
        width={40}
        loading={false}
        error={undefined}
      />,
    );
    const lines = screen.lastFrame().split("\n");
    expect(lines[0]).toMatch(/^Open orders \(3\)/);
    // one count of decimals a column, right-aligned (docs/tui.md Numbers)
    expect(lines[1]).toMatch(/^\s*S\s+105\.5\s+0\.1\s+10\.55$/);
    expect(lines[2]).toMatch(/^\s*B\s+99\.0\s+1\.0\s+99\.00$/);
    expect(lines[3]).toMatch(/^\s*B\s+95\.0\s+2\.0\s+190\.00$/);
  });

  it("shows the selected order's id, quantity, status and UTC date when focused", () => {
    screen = render(
      <OpenOrders
        rows={openOrderRows(orders)}
        selectedIndex={1}
        focused
        maxRows={5}
        width={70}
        loading={false}
        error={undefined}
      />,
    );
    expect(screen.lastFrame()).toContain("id a3 · qty 1 · open · 2024-01-02 03:04:05 UTC");
    expect(screen.lastFrame()).toContain("Avg. price: 99.000000 · Amount: 1 BTC · Volume: 99.000000 USDT");
  });

  it("fits both detail lines into the 42 columns of the right column at 80x24", () => {
    const wide = [order("1736942400123", "Buy", "65000.5", "0.002")];
    screen = render(
      <OpenOrders
        rows={openOrderRows(wide)}
        selectedIndex={0}
        focused
        maxRows={3}
        width={42}
        loading={false}
        error={undefined}
      />,
    );
    const lines = screen.lastFrame().split("\n");
    expect(lines[2]).toBe(" open · 01-02 03:04:05 UTC · id 173694240…");
    // the amount is in the row above; the tooltip keeps the 6-decimal avg. price and volume
    expect(lines[3]).toBe(" Avg 65000.500000 · Vol 130.001000 USDT");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(42);
  });

  it("keeps the quantity in the first detail line when it fits", () => {
    screen = render(
      <OpenOrders
        rows={openOrderRows([order("17", "Sell", "99", "1.5")])}
        selectedIndex={0}
        focused
        maxRows={3}
        width={44}
        loading={false}
        error={undefined}
      />,
    );
    expect(screen.lastFrame()).toContain(" open · 01-02 03:04:05 UTC · qty 1.5 · id 17");
    expect(screen.lastFrame()).toContain(" Avg 99.000000 · Vol 148.500000 USDT");
  });

  it("scrolls to keep the selected order visible", () => {
    const many = Array.from({ length: 10 }, (_, i) => order(`o${i}`, "Buy", String(100 - i), "1"));
    screen = render(
      <OpenOrders
        rows={openOrderRows(many)}
        selectedIndex={9}
        focused
        maxRows={3}
        width={40}
        loading={false}
        error={undefined}
      />,
    );
    const frame = screen.lastFrame();
    expect(frame).toMatch(/B\s+91\s/);
    expect(frame).not.toMatch(/B\s+100\s/);
  });

  it("says so when there are no orders", () => {
    screen = render(
      <OpenOrders
        rows={[]}
        selectedIndex={0}
        focused={false}
        maxRows={3}
        width={60}
        loading={false}
        error={undefined}
      />,
    );
    expect(screen.lastFrame()).toMatch(/^Open orders \(0\)/);
    expect(screen.lastFrame()).toContain("no open orders");
  });

  it("shows a failed fetch as an error, in full and wrapped, never as a zero count (issue 20)", () => {
    const reason = "ExchangeId: okx, msg: HTTP 503 from /api/v5/trade/orders-pending: service temporarily unavailable";
    // the last good list is still in the rows: it must not be shown as the current one either
    screen = render(
      <OpenOrders
        rows={openOrderRows(orders)}
        selectedIndex={0}
        focused
        maxRows={3}
        width={42}
        loading={false}
        error={reason}
      />,
    );
    const frame = screen.lastFrame();
    const lines = frame.split("\n");
    expect(lines[0]).toMatch(/^Open orders\s+\[o\] retry$/);
    expect(frame).not.toMatch(/Open orders \(\d+\)/);
    expect(frame).not.toContain("no open orders");
    expect(frame).not.toMatch(/105\.5/);
    // the reason is all there, over several lines of at most 42 columns
    expect(lines.slice(1).join(" ").replace(/\s+/g, " ").trim()).toBe(`orders unavailable: ${reason}`);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(42);
  });

  it("shows no count before the first fetch answered", () => {
    screen = render(
      <OpenOrders
        rows={[]}
        selectedIndex={0}
        focused={false}
        maxRows={3}
        width={60}
        loading
        error={undefined}
        loaded={false}
      />,
    );
    expect(screen.lastFrame()).toMatch(/^Open orders\s+loading…/);
    expect(screen.lastFrame()).not.toContain("(0)");
    expect(screen.lastFrame()).not.toContain("no open orders");
  });
});
