import { afterEach, describe, expect, it } from "vitest";
import { type RenderResult, render } from "../../test/tui/render.js";
import { balanceRows } from "../orders-view.js";
import { Balances } from "./Balances.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

describe("Balances table (docs/dashboard-rules.md#screens Balances table, docs/dashboard-rules.md#constants number display)", () => {
  it("shows Token, Total, Free, Locked with one count of decimals for the table (docs/tui.md Numbers)", () => {
    const rows = balanceRows({
      USDT: { f: "1000.123456", l: "250" },
      BTC: { f: "0.0123456", l: "0" },
      DOGE: { f: "0", l: "0" },
    });
    screen = render(
      <Balances
        rows={rows}
        lastUpdate={Date.UTC(2024, 4, 6, 7, 8, 9)}
        maxRows={5}
        width={60}
        loading={false}
        error={undefined}
      />,
    );
    const lines = screen.lastFrame().split("\n");
    expect(lines[0]).toMatch(/^Balances\s+Last update 07:08:09 UTC$/);
    expect(lines[1]).toMatch(/Token\s+Total\s+Free\s+Locked/);
    // the most any value needs (0.0123 has 4 after the point, as 4 decimals from 1 up), for all
    expect(lines[2]).toMatch(/^\s*BTC\s+0\.0123\s+0\.0123\s+0\.0000$/);
    expect(lines[3]).toMatch(/^\s*USDT\s+1,250\.1234\s+1,000\.1234\s+250\.0000$/);
    expect(lines[4]).toMatch(/^\s*DOGE\s+0\.0000\s+0\.0000\s+0\.0000$/);
    // right-aligned with the same decimals: the points line up in each column
    const points = lines.slice(2, 5).map((l) => l.lastIndexOf("."));
    expect(new Set(points).size).toBe(1);
  });

  it("does not mix 1.0100 with 0.99, and gives small balances the decimals they need", () => {
    const rows = balanceRows({
      BTC: { f: "1.01", l: "0" },
      ETH: { f: "0.99", l: "0" },
      PEPE: { f: "0.000012345", l: "0" },
    });
    screen = render(
      <Balances rows={rows} lastUpdate={undefined} maxRows={5} width={60} loading={false} error={undefined} />,
    );
    const frame = screen.lastFrame();
    expect(frame).toMatch(/BTC\s+1\.0100000\s/);
    expect(frame).toMatch(/ETH\s+0\.9900000\s/);
    expect(frame).toMatch(/PEPE\s+0\.0000123\s/);
  });

  it("keeps to the rows it is given", () => {
    const rows = balanceRows({ A: { f: "1", l: "0" }, B: { f: "2", l: "0" }, C: { f: "3", l: "0" } });
    screen = render(<Balances rows={rows} lastUpdate={undefined} maxRows={2} width={60} loading error={undefined} />);
    expect(screen.lastFrame()).toContain("loading…");
    expect(screen.lastFrame()).not.toMatch(/^\s*C\s/m);
  });

  it("shows a failed fetch as an error in place of the table, never as balances (issue 20)", () => {
    const rows = balanceRows({ USDT: { f: "1000", l: "0" } });
    screen = render(
      <Balances
        rows={rows}
        lastUpdate={Date.UTC(2024, 4, 6, 7, 8, 9)}
        maxRows={3}
        width={42}
        loading={false}
        error="ExchangeId: gate, msg: Invalid key provided (code INVALID_KEY)"
      />,
    );
    const frame = screen.lastFrame();
    const lines = frame.split("\n");
    expect(lines[0]).toMatch(/^Balances\s+\[l\] retry$/);
    expect(frame).not.toContain("USDT");
    expect(frame).not.toContain("Token");
    expect(lines.slice(1).join(" ").replace(/\s+/g, " ").trim()).toBe(
      "balances unavailable: ExchangeId: gate, msg: Invalid key provided (code INVALID_KEY)",
    );
  });
});
