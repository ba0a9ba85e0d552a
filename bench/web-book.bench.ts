/**
 * The trading view's main thread under a busy book (issue 13 "Checks"): Chromium on the built
 * dashboard against a real `spotdesk serve`, the paper trading view open, its `/book` socket fed a
 * 50-level book (both sides) that changes every 100 ms. Measured: the share of wall time the page's
 * main thread spends in tasks (CDP Performance.getMetrics TaskDuration) over a window. Target:
 * under 20 %. Baseline: the same page, same window, with a book that does not change, measured
 * alternately in the same browser.
 */
import type { Page } from "playwright-core";
import { ensureWebBuilt, hasChromium, launch, startServe } from "../test/web/harness.js";
import { type BenchOutcome, median } from "./index.js";

const LEVELS = 50;
const CHANGE_MS = 100;
const WINDOW_MS = 5_000;
const ROUNDS = 3;
const PASSWORD = "correct horse battery";

/** A 50-level book around 60 000 whose amounts move with `tick`. */
function bookMessage(tick: number): string {
  const level = (price: number, i: number) => [
    String(price),
    (0.001 + ((i * 7919 + tick * 104729) % 1000) / 1000).toFixed(6),
  ];
  const bids = Array.from({ length: LEVELS }, (_, i) => level(60_000 - 1 - i, i));
  const asks = Array.from({ length: LEVELS }, (_, i) => level(60_000 + 1 + i, i + LEVELS));
  return JSON.stringify({ type: "book", data: { exchange: "paper", pair: "BTC/USDT", bids, asks, version: tick + 1 } });
}

async function busyShare(page: Page, cdp: { send(m: string, p?: object): Promise<unknown> }): Promise<number> {
  const read = async () => {
    const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
    return metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
  };
  const t0 = await read();
  const w0 = Date.now();
  await page.waitForTimeout(WINDOW_MS);
  const t1 = await read();
  return ((t1 - t0) * 1000) / (Date.now() - w0);
}

export async function run(): Promise<BenchOutcome[]> {
  const name = "web: trading view main thread busy, 50-level book changing every 100 ms";
  if (!hasChromium) return [{ name, skipped: "no Chromium (set CHROMIUM_PATH)" }];
  ensureWebBuilt();
  const served = await startServe();
  const browser = await launch();
  try {
    const page = browser.page;
    let changing = false;
    let tick = 0;
    await page.routeWebSocket(/\/book\?/, (ws) => {
      ws.send(bookMessage(tick));
      const timer = setInterval(() => {
        if (changing) ws.send(bookMessage(++tick));
      }, CHANGE_MS);
      ws.onClose(() => clearInterval(timer));
    });
    await page.goto(`${served.url}/registration`);
    await page.locator("input[name=email]").fill("bench@example.com");
    await page.locator("input[name=password]").fill(PASSWORD);
    await page.locator("input[name=repeat]").fill(PASSWORD);
    await page.locator("input[name=code]").fill(served.setupCode);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
    await page.goto(`${served.url}/c/[Demo][paper][main]`);
    await page.getByRole("region", { name: "Order book" }).locator("tr[data-testid=bid-row]").first().waitFor();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.waitForTimeout(1000);
    const busy: number[] = [];
    const idle: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      changing = false;
      idle.push(await busyShare(page, cdp));
      changing = true;
      busy.push(await busyShare(page, cdp));
    }
    changing = false;
    const value = Math.round(median(busy) * 1000) / 10;
    const base = Math.round(median(idle) * 1000) / 10;
    return [
      {
        name,
        unit: "%",
        better: "lower",
        value,
        baseline: { name: "same view, book not changing", value: Math.max(base, 0.1) },
        target: 20,
        detail: `${ROUNDS} alternating ${WINDOW_MS / 1000} s windows; busy ${busy.map((b) => (b * 100).toFixed(1)).join("/")} %, idle ${idle.map((b) => (b * 100).toFixed(1)).join("/")} %; ${tick} book messages`,
      },
    ];
  } finally {
    await browser.close();
    await served.stop();
  }
}
