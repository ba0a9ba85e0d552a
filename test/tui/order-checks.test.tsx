import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPaperExchange } from "../../exchanges/paper/index.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import { App } from "../../tui/app.js";
import { defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, maxLineWidth, type RenderResult, render } from "./render.js";

/**
 * docs/tui.md "Order checks" on the real paper exchange and its real feed (frozen clock, so the
 * synthetic BTC/USDT book holds still around 64–65k): the funds check before "Send?", and the
 * far-price guard's second, explicit confirmation (issue 20's regression: Tab, 6370 Enter, 0.5, s, y).
 */
const FROZEN = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = () => FROZEN;

let dataDir: string;
let screen: RenderResult | undefined;
let paper: ExchangeAdapter;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-checks-"));
  paper = createPaperExchange({ api: "", secret: "" }, { dataDir, account: "default", now });
});

afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await paper.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(options: { columns?: number; rows?: number; services?: Partial<TuiServices> } = {}): RenderResult {
  const services = { ...defaultServices({ dataDir, now }), ...options.services };
  screen = render(
    <App
      services={services}
      exchange="paper"
      account="default"
      pair="BTC/USDT"
      refreshMs={50}
      ordersPollMs={60_000}
      balancesPollMs={60_000}
      now={now}
    />,
    { columns: options.columns ?? 100, rows: options.rows ?? 30 },
  );
  return screen;
}

/** ready to trade: a live book and balances loaded (the funds check needs them) */
const ready = (f: string) => /live/.test(f) && /~\d+\.\d+%/.test(f) && /Last update/.test(f) && f.includes("[b] Buy");
/** the frame's text as one line, so a wrapped message reads whole */
const flat = (f: string) => f.replace(/\s+/g, " ");

async function untouched(): Promise<void> {
  expect(await paper.fetchOpenOrders("BTC/USDT")).toHaveLength(0);
  const balances = await paper.fetchBalances();
  expect(balances.BTC).toEqual({ f: "1", l: "0" });
  expect(balances.USDT).toEqual({ f: "10000", l: "0" });
}

describe("TUI far-price guard (docs/orders.md 'Far-price guard', docs/tui.md 'Order checks')", () => {
  it("does not send Tab, 6370 Enter, 0.5, s, y (90% under the bid) without a typed 'yes' (issue 20 regression)", async () => {
    const s = start({ columns: 80, rows: 24 });
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."6370", KEYS.enter, ..."0.5", "s");
    // the first question already warns
    const asked = await s.waitForFrame((f) => f.includes("Send? [y/N] Sell 0.5 BTC @ 6370 USDT"));
    expect(flat(asked)).toMatch(
      /FAR PRICE: Sell price 6370 USDT is 9\d(\.\d+)?% below the best bid 6\d{4}(\.\d+)? USDT/,
    );
    await s.press("y");
    const second = await s.waitForFrame((f) => flat(f).includes("send anyway? Type yes and Enter"));
    const text = flat(second);
    expect(text).toMatch(/is 9\d(\.\d+)?% below the best bid/);
    expect(text).toMatch(/about \d+(\.\d+)? USDT less than at the mid 6\d{4}/);
    expect(text).toContain("far-price limit 5%");
    expect(maxLineWidth(second)).toBeLessThanOrEqual(80);
    await untouched();
    // a second "y" out of habit is not the answer
    await s.press("y");
    await s.waitForFrame((f) => f.includes("> y▏"));
    await untouched();
    await s.press(KEYS.enter);
    await s.waitForFrame((f) => f.includes("Not sent"));
    await untouched();

    // the explicit answer sends it
    await s.press("s", "y", ..."yes", KEYS.enter);
    await s.waitForFrame((f) => f.includes("placed · id"));
    const after = await paper.fetchBalances();
    expect(after.BTC?.f).toBe("0.5");
  });

  it("keeps the frame inside a 60x20 terminal while the warning wraps", async () => {
    const s = start({ columns: 60, rows: 20 });
    // stacked: the balances are not drawn at this size
    await s.waitForFrame((f) => /live/.test(f) && /~\d+\.\d+%/.test(f) && f.includes("[b] Buy"));
    await s.press(KEYS.tab, ..."6370", KEYS.enter, ..."0.5", "s", "y");
    const second = await s.waitForFrame((f) => flat(f).includes("send anyway? Type yes and Enter"));
    expect(flat(second)).toMatch(/about \d+(\.\d+)? USDT less than at the mid/);
    expect(maxLineWidth(second)).toBeLessThanOrEqual(60);
    expect(second.split("\n").length).toBeLessThanOrEqual(20);
    await untouched();
  });

  it("asks the same of a buy 50% over the ask, and Esc sends nothing", async () => {
    const s = start();
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."97000", KEYS.enter, ..."0.01", "b", "y");
    const second = await s.waitForFrame((f) => flat(f).includes("send anyway? Type yes and Enter"));
    expect(flat(second)).toMatch(/Buy price 97000 USDT is 5\d(\.\d+)?% above the best ask 6\d{4}(\.\d+)? USDT/);
    expect(flat(second)).toMatch(/USDT more than at the mid/);
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => f.includes("Not sent"));
    await untouched();
  });

  it("sends an order inside the limit after one 'y', with no warning", async () => {
    const s = start();
    await s.waitForFrame(ready);
    // 50000 is under the ask: a resting buy, not through the market
    await s.press(KEYS.tab, ..."50000", KEYS.enter, ..."0.002", "b");
    const asked = await s.waitForFrame((f) => f.includes("Send? [y/N] Buy 0.002 BTC @ 50000 USDT"));
    expect(asked).not.toContain("FAR PRICE");
    await s.press("y");
    await s.waitForFrame((f) => f.includes("Open orders (1)"));
  });

  it("asks again when the book stops being live between the question and the 'yes'", async () => {
    const base = defaultServices({ dataDir, now });
    const feeds: BookFeed[] = [];
    const s = start({
      services: {
        async openFeed(exchange, pair, depth) {
          const feed = await base.openFeed(exchange, pair, depth);
          feeds.push(feed);
          return feed;
        },
      },
    });
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."6370", KEYS.enter, ..."0.5", "s", "y");
    await s.waitForFrame((f) => flat(f).includes("send anyway? Type yes and Enter"));
    feeds[0]?.stop();
    await s.waitForFrame((f) => /disconnected since 12:00:00 UTC \(feed closed\)/.test(f));
    await s.press(..."yes", KEYS.enter);
    // the far price was acknowledged, the book that is gone was not: nothing sent, asked again
    const again = await s.waitForFrame((f) => flat(f).includes("BOOK NOT LIVE, disconnected since 12:00:00 UTC"));
    expect(flat(again)).toContain("send anyway? Type yes and Enter (n, Esc: not sent) > ▏");
    await untouched();
    await s.press(..."yes", KEYS.enter);
    await s.waitForFrame((f) => f.includes("placed · id"));
    expect((await paper.fetchBalances()).BTC?.f).toBe("0.5");
  });

  it("takes the account's own limit from the services", async () => {
    const s = start({ services: { farPricePercent: async () => "95" } });
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."6370", KEYS.enter, ..."0.5", "s");
    const asked = await s.waitForFrame((f) => f.includes("Send? [y/N] Sell 0.5 BTC @ 6370 USDT"));
    expect(asked).not.toContain("FAR PRICE");
    await s.press("y");
    await s.waitForFrame((f) => f.includes("placed · id"));
    expect((await paper.fetchBalances()).BTC?.f).toBe("0.5");
  });
});

describe("TUI funds check before 'Send?' (docs/tui.md 'Order checks')", () => {
  it("refuses a sell beyond the free base and says in full, wrapped at 80 columns, what is missing", async () => {
    const s = start({ columns: 80, rows: 24 });
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."70000", KEYS.enter, ..."100", "s");
    const refused = await s.waitForFrame((f) => f.includes("Not enough BTC"));
    expect(flat(refused)).toContain(
      "Not enough BTC to sell 100 BTC @ 70000 USDT: needs 100 BTC, 1 BTC free, 99 BTC missing. Not sent.",
    );
    expect(refused).not.toContain("Send?");
    expect(maxLineWidth(refused)).toBeLessThanOrEqual(80);
    expect(refused.split("\n").length).toBeLessThanOrEqual(24);
    await untouched();
  });

  it("refuses a buy beyond the free quote", async () => {
    const s = start({ columns: 80, rows: 24 });
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."60000", KEYS.enter, ..."1", "b");
    const refused = await s.waitForFrame((f) => f.includes("Not enough USDT"));
    expect(flat(refused)).toContain(
      "Not enough USDT to buy 1 BTC @ 60000 USDT: needs 60000 USDT, 10000 USDT free, 50000 USDT missing. Not sent.",
    );
    expect(refused).not.toContain("Send?");
    await untouched();
  });
});
