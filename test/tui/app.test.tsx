import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPaperExchange, createPaperFeed, paperBook } from "../../exchanges/paper/index.js";
import type { BookFeed } from "../../exchanges/types.js";
import { Decimal } from "../../lib/decimal.js";
import { formatFixed } from "../../tui/format.js";
import { defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, maxLineWidth, type RenderResult, renderPaperDesk } from "./render.js";

/**
 * The TUI end to end on the real paper exchange in a temp data directory, with its real feed.
 * The clock is frozen so the synthetic book holds still while a test reads it.
 */
const FROZEN = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = () => FROZEN;

let dataDir: string;
let screen: RenderResult | undefined;
let services: TuiServices;
let feeds: BookFeed[];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-"));
  // each test's own list: a previous test's late open must not land in it
  const opened: BookFeed[] = [];
  feeds = opened;
  const base = defaultServices({ dataDir, now });
  services = {
    ...base,
    async openFeed(exchange, pair, depth) {
      const feed = await base.openFeed(exchange, pair, depth);
      opened.push(feed);
      return feed;
    },
  };
});

afterEach(() => {
  screen?.unmount();
  screen = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function start(columns = 100, rows = 30): RenderResult {
  screen = renderPaperDesk(services, now, { columns, rows });
  return screen;
}

const live = (frame: string) => /live/.test(frame) && /~\d+\.\d+%/.test(frame);
const linesOf = (frame: string) => frame.split("\n");
/** the trading panel's field value, as the text shown after the label */
const field = (frame: string, label: string) =>
  new RegExp(`${label}\\s+([^\\s▏]+)▏?\\s+(BTC|ETH|USDT)`).exec(frame)?.[1];

describe("TUI on paper (issue 5)", () => {
  it("shows a live book with the middle row, balances with a UTC last update, and no open orders", async () => {
    const s = start();
    const frame = await s.waitForFrame((f) => live(f) && /Last update \d\d:\d\d:\d\d UTC/.test(f));
    expect(frame).toMatch(/Price\s+Amount\s+Total/);
    expect(frame).toContain("Open orders (0)");
    expect(frame).toMatch(/USDT\s+10,000\.0000\s+10,000\.0000\s+0\.0000/);
    expect(frame).toContain("spotdesk · Paper (simulated) · default · BTC/USDT");
  });

  it("fills the panel from a selected ask with its price, cumulative amount and cumulative total (docs/dashboard-rules.md#screens)", async () => {
    const s = start();
    await s.waitForFrame(live);
    // an independent copy of the same synthetic market at the same instant
    const reference = createPaperFeed("BTC/USDT", { now });
    reference.start();
    const asks = reference.book.top(3).asks;
    reference.stop();
    expect(asks).toHaveLength(3);
    let amount = new Decimal(0);
    let total = new Decimal(0);
    for (const [p, a] of asks) {
      amount = amount.plus(a);
      total = total.plus(new Decimal(p).times(a));
    }
    await s.press(KEYS.up, KEYS.up, KEYS.up);
    const hovered = await s.waitForFrame((f) => f.includes("Σ 3 asks"));
    // shown with the pair's 2 decimals and thousands separators (docs/tui.md Numbers)
    expect(hovered).toMatch(new RegExp(`▸${formatFixed(asks[2]![0], 2).replace(/[.,]/g, "\\$&")}\\s`));
    await s.press(KEYS.enter);
    const filled = await s.waitForFrame((f) => f.includes("Buy from asks"));
    expect(field(filled, "Price")).toBe(new Decimal(asks[2]![0]).toFixed());
    expect(field(filled, "Amount")).toBe(amount.toFixed());
    expect(field(filled, "Quote")).toBe(total.toFixed());
  });

  it("fills Sell from a selected bid", async () => {
    const s = start();
    await s.waitForFrame(live);
    const reference = createPaperFeed("BTC/USDT", { now });
    reference.start();
    const bids = reference.book.top(2).bids;
    reference.stop();
    await s.press(KEYS.down, KEYS.down, KEYS.enter);
    const filled = await s.waitForFrame((f) => f.includes("Sell from bids"));
    expect(field(filled, "Price")).toBe(new Decimal(bids[1]![0]).toFixed());
    expect(field(filled, "Amount")).toBe(new Decimal(bids[0]![1]).plus(bids[1]![1]).toFixed());
  });

  it("acts on every key of one stdin chunk, as tmux send-keys or a paste delivers them", async () => {
    const s = start(80, 24);
    await s.waitForFrame(live);
    const reference = createPaperFeed("BTC/USDT", { now });
    reference.start();
    const bids = reference.book.top(2).bids;
    reference.stop();
    // Ink hands all three keys over before React renders again: Enter must see the selection
    s.stdin.write(KEYS.down + KEYS.down + KEYS.enter);
    const filled = await s.waitForFrame((f) => f.includes("Sell from bids"));
    expect(filled).not.toContain("Select a level");
    expect(field(filled, "Price")).toBe(new Decimal(bids[1]![0]).toFixed());
    expect(field(filled, "Amount")).toBe(new Decimal(bids[0]![1]).plus(bids[1]![1]).toFixed());
    // plain text comes as one string (Ink splits at escape sequences only): one key per character
    s.stdin.write(`${KEYS.tab}x61000`);
    await s.waitForFrame((f) => field(f, "Price") === "61000");
  });

  it("places an order on paper after confirmation, lists it, and cancels it", async () => {
    const s = start();
    await s.waitForFrame((f) => live(f) && f.includes("[b] Buy"));
    await s.press(KEYS.tab, ..."50000", KEYS.down, ..."0.002", "b");
    const confirm = await s.waitForFrame((f) => f.includes("Send? [y/N]"));
    expect(confirm).toContain("Send? [y/N] Buy 0.002 BTC @ 50000 USDT (≈ 100 USDT) on Paper (simulated)/default");
    // nothing is sent before the answer
    const adapter = createPaperExchange({ api: "", secret: "" }, { dataDir, account: "default", now });
    expect(await adapter.fetchOpenOrders("BTC/USDT")).toHaveLength(0);
    await s.press("y");
    const listed = await s.waitForFrame((f) => f.includes("Open orders (1)"));
    // the pair's decimals (tick 0.01, lot 0.000001) in every row (docs/tui.md Numbers)
    expect(listed).toMatch(/B\s+50,000\.00\s+0\.002000\s+100\.00\b/);
    const [order] = await adapter.fetchOpenOrders("BTC/USDT");
    expect(order).toMatchObject({ side: "Buy", price: "50000", amount: "0.002" });
    // the locked quote shows in balances after the refresh
    await s.waitForFrame((f) => /USDT\s+10,000\.0000\s+9,900\.0000\s+100\.0000/.test(f));

    await s.press(KEYS.tab, "c");
    await s.waitForFrame((f) => f.includes("Open orders (0)") && f.includes("no open orders"));
    expect(await adapter.fetchOpenOrders("BTC/USDT")).toHaveLength(0);
    await adapter.close();
  });

  it('m turns post-only on: a buy that would take is refused by paper and nothing rests (docs/orders.md "Post-only")', async () => {
    const s = start();
    await s.waitForFrame((f) => live(f) && f.includes("[b] Buy") && !f.includes("BTC/USDT post-only"));
    const ask = new Decimal(paperBook("BTC/USDT", { now }).asks[0]![0]);
    const crossing = ask.plus(10).toFixed();
    await s.press("m");
    await s.waitForFrame((f) => f.includes("Trade BTC/USDT post-only"));
    await s.press(KEYS.tab, ...crossing, KEYS.down, ..."0.001", "b");
    const confirm = await s.waitForFrame((f) => f.includes("Send? [y/N]"));
    expect(confirm).toContain(`Send? [y/N] Buy post-only 0.001 BTC @ ${crossing} USDT`);
    await s.press("y");
    await s.waitForFrame((f) => f.includes("Post-only order refused"));
    const adapter = createPaperExchange({ api: "", secret: "" }, { dataDir, account: "default", now });
    expect(await adapter.fetchOpenOrders("BTC/USDT")).toHaveLength(0);
    expect((await adapter.fetchBalances()).BTC).toEqual({ f: "1", l: "0" });
    await adapter.close();
  });

  it("sorts open orders by price descending and cancels all after confirmation", async () => {
    const s = start();
    await s.waitForFrame((f) => live(f) && f.includes("[b] Buy"));
    await s.press(KEYS.tab, ..."50000", KEYS.down, ..."0.001", "b", "y");
    await s.waitForFrame((f) => f.includes("Open orders (1)"));
    await s.press("x", ..."51000", KEYS.down, ..."0.001", "b", "y");
    const two = await s.waitForFrame((f) => f.includes("Open orders (2)"));
    expect(two).toMatch(/B\s+51,000\.00/);
    expect(two.indexOf("51,000.00")).toBeLessThan(two.indexOf("50,000.00"));
    await s.press("C");
    await s.waitForFrame((f) => f.includes("Cancel all? [y/N] 2 open BTC/USDT orders on Paper (simulated)/default"));
    await s.press("n");
    await s.waitForFrame((f) => f.includes("Not sent"));
    expect(s.lastFrame()).toContain("Open orders (2)");
    await s.press("C", "y");
    await s.waitForFrame((f) => f.includes("Open orders (0)"));
  });

  it("refuses a zero amount with the seed's message, also when it comes from a quote (docs/dashboard-rules.md#validation)", async () => {
    const s = start();
    await s.waitForFrame((f) => live(f) && f.includes("[b] Buy"));
    await s.press(KEYS.tab, ..."65000", KEYS.down, "0", "b");
    await s.waitForFrame((f) => f.includes("Incorrect amount / It is zero!"));
    expect(s.lastFrame()).not.toContain("Send? [y/N]");
    // the error stays until Esc (docs/tui.md Messages)
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => !f.includes("Incorrect amount"));
    // quote 0.01 USDT at 65000 is 0.00000015 BTC: zero at paper's 6 decimals (docs/decisions.md#d1)
    await s.press("x", ..."65000", KEYS.down, KEYS.down, ..."0,01");
    expect(field(s.lastFrame(), "Price")).toBe("65000");
    await s.waitForFrame((f) => /Amount\s+≈/.test(f));
    await s.press("s");
    await s.waitForFrame((f) => f.includes("Incorrect amount / It is zero!"));
  });

  it("shows the exchange's error in the toast line", async () => {
    const s = start();
    await s.waitForFrame((f) => live(f) && /BTC\s+1\.0000\s+1\.0000/.test(f));
    // another client spends the BTC after the TUI read its balances: its funds check passes, paper refuses
    const other = createPaperExchange({ api: "", secret: "" }, { dataDir, account: "default", now });
    await other.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "1", price: "90000" });
    await s.press(KEYS.tab, ..."70000", KEYS.down, ..."0.5", "s", "y");
    await s.waitForFrame((f) => /ExchangeId: paper, msg: Insufficient balance/i.test(f) && !f.includes("Send?"));
    expect((await other.fetchOpenOrders("BTC/USDT")).map((o) => o.price)).toEqual(["90000"]);
    await other.close();
  });

  it("keeps the layout inside the terminal at 80x24 and adapts on resize", async () => {
    const s = start(80, 24);
    let frame = await s.waitForFrame((f) => live(f) && f.includes("Balances"));
    const check = (f: string, columns: number, rows: number) => {
      expect(maxLineWidth(f)).toBeLessThanOrEqual(columns);
      expect(linesOf(f).length).toBeLessThanOrEqual(rows);
      expect(f).toMatch(/Price\s+Amount\s+Total/);
      expect(f).toMatch(/~\d+\.\d+%/);
    };
    check(frame, 80, 24);
    expect(frame).toContain("Trade BTC/USDT");
    expect(frame).toContain("Open orders (0)");
    const askRows = (f: string) => linesOf(f).filter((l) => /^\s*[▸]?\d{1,3}(,\d{3})*\.\d\d\s+\d/.test(l)).length;
    const small = askRows(frame);

    s.resize(120, 40);
    frame = await s.waitForFrame((f) => askRows(f) > small);
    check(frame, 120, 40);

    s.resize(60, 20);
    frame = await s.waitForFrame((f) => maxLineWidth(f) <= 60 && f.includes("Trade BTC/USDT"));
    check(frame, 60, 20);
  });

  it("switches pair and account, opening the new book and the new paper account", async () => {
    const s = start();
    await s.waitForFrame(live);
    await s.press("p", ..."eth");
    await s.waitForFrame((f) => f.includes("Switch pair") && f.includes("ETH/USDT"));
    await s.press(KEYS.enter);
    await s.waitForFrame(
      (f) => f.includes("spotdesk · Paper (simulated) · default · ETH/USDT") && live(f) && f.includes("Trade ETH/USDT"),
    );
    expect(feeds.map((f) => `${f.pair} ${f.state}`)).toEqual(["BTC/USDT closed", "ETH/USDT live"]);
    await s.press("a", ..."alice", KEYS.enter);
    await s.waitForFrame((f) => f.includes("· alice · ETH/USDT") && /Last update/.test(f));
  });

  it("offers every exchange by its display name in the exchange switcher, filtered as the trader types", async () => {
    const s = start(100, 30);
    await s.waitForFrame(live);
    await s.press("e");
    const list = await s.waitForFrame((f) => f.includes("Switch exchange"));
    expect(list).toContain("● Paper (simulated) (paper)");
    expect(list).toContain("BIT.TEAM (bitteam)");
    await s.press(..."kuc");
    const filtered = await s.waitForFrame((f) => f.includes("> kuc"));
    expect(filtered).toContain("Kucoin (kucoin)");
    expect(filtered).not.toContain("BIT.TEAM (bitteam)");
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => !f.includes("Switch exchange") && f.includes("Trade BTC/USDT"));
    expect(feeds).toHaveLength(1);
  });

  it("shows the help overlay with every key and closes it on any key", async () => {
    const s = start(80, 24);
    await s.waitForFrame(live);
    await s.press("?");
    const help = await s.waitForFrame((f) => f.includes("any key closes"));
    expect(help).toContain("cancel all (asks to confirm)");
    expect(help).toContain("switch exchange/acct/pair");
    await s.press("z");
    await s.waitForFrame((f) => !f.includes("any key closes") && f.includes("Order book"));
  });

  it("quits on q", async () => {
    const s = start();
    await s.waitForFrame(live);
    const exited = s.instance.waitUntilExit();
    await s.press("q");
    await expect(exited).resolves.toBeUndefined();
    expect(feeds[0]?.state).toBe("closed");
  });
});
