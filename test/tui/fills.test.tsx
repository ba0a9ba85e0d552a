import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPaperFeed } from "../../exchanges/paper/index.js";
import { Decimal } from "../../lib/decimal.js";
import { diffOpenOrders, fillSince, seenOf } from "../../tui/fills.js";
import { formatFixed, formatPrice } from "../../tui/format.js";
import { defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, type RenderResult, renderPaperDesk } from "./render.js";

/**
 * Fills you see (docs/tui.md "Fills") on the real paper exchange in a temp data directory. The
 * clock is the test's: it holds still while the screen is read, and moves on for the synthetic
 * market to fill a resting order.
 */
const START = Date.UTC(2025, 0, 15, 12, 0, 0);
let clock = START;
const now = () => clock;

let dataDir: string;
let screen: RenderResult | undefined;
let services: TuiServices;

beforeEach(() => {
  clock = START;
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-fills-"));
  services = defaultServices({ dataDir, now });
});

afterEach(() => {
  screen?.unmount();
  screen = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function start(columns = 110, rows = 36): RenderResult {
  screen = renderPaperDesk(services, now, { columns, rows });
  return screen;
}

const ready = (f: string) =>
  /live/.test(f) && /~\d+\.\d+%/.test(f) && f.includes("[b] Buy") && f.includes("Last update");
const escapeRe = (text: string) => text.replace(/[.,]/g, "\\$&");

/** The average price a buy of `amount` pays walking paper's asks from the best, at the test's clock. */
function walkAsks(amount: string): string {
  const feed = createPaperFeed("BTC/USDT", { now });
  feed.start();
  const { asks } = feed.book.top(50);
  feed.stop();
  let left = new Decimal(amount);
  let cost = new Decimal(0);
  for (const [price, size] of asks) {
    const take = Decimal.min(left, size);
    cost = cost.plus(take.times(price));
    left = left.minus(take);
    if (left.isZero()) break;
  }
  return cost.div(amount).toFixed();
}

/** the best levels of paper's synthetic book at the test's clock, as the TUI's feed sees them */
function best(): { bid: string; ask: string } {
  const feed = createPaperFeed("BTC/USDT", { now });
  feed.start();
  const { bids, asks } = feed.book.top(1);
  feed.stop();
  return { bid: bids[0]?.[0] ?? "", ask: asks[0]?.[0] ?? "" };
}

describe("fills you see (issue 21)", () => {
  it("tells of an order that rests and fills later, and lists it with your fills", async () => {
    const s = start();
    await s.waitForFrame(ready);
    expect(s.lastFrame()).toContain("Your fills (0)");
    const { bid } = best();
    await s.press(KEYS.tab, ...bid, KEYS.down, ..."0.001", "b", "y");
    const placed = await s.waitForFrame((f) => f.includes("Open orders (1)") && f.includes("placed"));
    expect(placed).toMatch(/Buy 0\.001 BTC @ \d+ placed · id \S+/);
    expect(placed).not.toContain("at once");
    // the market moves on: the synthetic flow reaches the bid (a second of market time)
    clock += 2000;
    await s.press("o");
    const filled = await s.waitForFrame((f) => f.includes("Filled Buy"));
    const shown = formatFixed(bid, 2);
    expect(filled).toMatch(
      new RegExp(`Filled Buy 0\\.001000 BTC @ ${shown.replace(/[.,]/g, "\\$&")} \\(order \\S+, complete\\)`),
    );
    expect(filled).toContain("Your fills (1)");
    // the fee column shows paper's maker fee (0.1% in the base the buy received, docs/paper-store.md "Fees"), cut to its width
    expect(filled).toMatch(new RegExp(`12:00:0\\d\\s+Buy\\s+${shown.replace(/[.,]/g, "\\$&")}\\s+0\\.001000 0\\.000`));
    expect(filled).toContain("Open orders (0)");
    // the next look does not tell it again
    await s.press("z", "o");
    await new Promise((r) => setTimeout(r, 200));
    expect(s.lastFrame()).not.toContain("Filled Buy");
    expect(s.lastFrame()).toContain("Your fills (1)");
  });

  it("says in the 'placed' message the average price of what filled at once, and lists it", async () => {
    const s = start();
    await s.waitForFrame(ready);
    const { ask } = best();
    // a buy 1% over the best ask takes the asks at once (inside the 5% far-price limit)
    const limit = (Number(ask) * 1.01).toFixed(1);
    await s.press(KEYS.tab, ...limit, KEYS.down, ..."0.001", "b", "y");
    const placed = await s.waitForFrame((f) => f.includes("placed") && f.includes("at once"));
    // the average the asks of the same synthetic market give, walked from the best
    const expected = walkAsks("0.001");
    expect(placed).toMatch(
      new RegExp(`placed · id \\S+ · filled 0\\.001 BTC at once at an average of ${escapeRe(formatPrice(expected))}`),
    );
    expect(placed).toContain("Your fills (1)");
    // the fee column shows paper's taker fee (docs/paper-store.md "Fees"), cut to its width
    expect(placed).toMatch(new RegExp(`Buy\\s+${escapeRe(formatFixed(expected, 2))}\\s+0\\.001000 0\\.000`));
  });

  it("says 'or better' where the exchange gives no average (tui/fills.ts)", () => {
    const order = {
      pair: "BTC/USDT",
      id: "7",
      clientOrderId: "",
      price: "65000",
      amount: "0.002",
      filled: "0.002",
      type: "limit",
      side: "Buy" as const,
      status: "closed" as const,
      timestamp: 0,
    };
    expect(fillSince(undefined, order, 0, true)).toMatchObject({ price: "65000", atLimitOrBetter: true });
    expect(fillSince(undefined, { ...order, average: "64990.5" }, 0, true)).toMatchObject({
      price: "64990.5",
      atLimitOrBetter: false,
    });
  });

  it("follows an edited price with the quote total", async () => {
    const s = start();
    await s.waitForFrame(ready);
    // a pick from the book fills price, amount and total; a new price makes the total follow it
    await s.press(KEYS.up, KEYS.enter);
    await s.waitForFrame((f) => f.includes("panel filled"));
    await s.press(
      KEYS.tab,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      KEYS.backspace,
      ..."1000",
    );
    const frame = await s.waitForFrame((f) => /Price\s+1000▏/.test(f));
    const amount = /Amount\s+(\S+)\s+BTC/.exec(frame)?.[1] ?? "";
    const expected = formatFixed(String(1000 * Number(amount)), 6).replace(/,/g, "");
    expect(frame).toMatch(/Quote\s+≈ \S+\s+USDT/);
    const total = /Quote\s+≈ (\S+)/.exec(frame)?.[1] ?? "";
    expect(Number(total)).toBeCloseTo(Number(expected), 6);
  });
});

describe("telling fills from two looks at the open orders (tui/fills.ts)", () => {
  const order = (id: string, filled: string, amount = "1") => ({
    pair: "BTC/USDT",
    id,
    clientOrderId: "",
    price: "100",
    amount,
    filled,
    type: "limit",
    side: "Buy" as const,
    status: "open" as const,
    timestamp: 0,
  });

  it("reports what grew, not what was filled before the first look, and lists the orders that left", () => {
    const seen = new Map([
      ["a", seenOf(order("a", "0.25"))],
      ["b", seenOf(order("b", "0"))],
    ]);
    const { fills, gone } = diffOpenOrders(seen, [order("a", "0.75"), order("c", "0.5")], 1000);
    expect(fills).toEqual([
      {
        time: 1000,
        side: "Buy",
        pair: "BTC/USDT",
        orderId: "a",
        price: "100",
        atLimitOrBetter: false,
        amount: "0.5",
        complete: false,
      },
    ]);
    // c was first seen part-filled: its fill was before this session looked
    expect(gone).toEqual(["b"]);
    expect(fillSince(seen.get("b"), order("b", "1"), 2000)?.complete).toBe(true);
    expect(fillSince(seen.get("a"), order("a", "0.25"), 2000)).toBeUndefined();
  });

  it("prices a new fill from the two averages and gives its own fee, where the exchange gives them", () => {
    const before = { ...order("d", "0.5"), average: "99", fee: { amount: "0.001", currency: "BTC" } };
    const after = { ...order("d", "1"), average: "99.5", fee: { amount: "0.0025", currency: "BTC" } };
    // 1 × 99.5 − 0.5 × 99 = 50 for the new 0.5: 100 each
    expect(fillSince(seenOf(before), after, 3000)).toMatchObject({
      price: "100",
      amount: "0.5",
      fee: "0.0015 BTC",
      atLimitOrBetter: false,
      complete: true,
    });
    // no fee from the exchange: none made up
    expect(fillSince(seenOf(order("e", "0")), order("e", "1"), 3000)?.fee).toBeUndefined();
  });
});
