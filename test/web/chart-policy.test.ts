/**
 * The built-in candle chart (lightweight-charts, bundled: the fallback of docs/exchange-rules.md#chart's chart and
 * paper's chart, docs/decisions.md#d13) draws under the dashboard's own page policy (issue 23 "the offline
 * fallback keeps working under the policy"): a loopback page with exactly the headers `spotdesk
 * serve` gives the app's page loads the library from 'self' and draws candles, with its
 * attribution style applied by hash and nothing refused. The trading view that will host it is
 * issue 13's; this pins the policy side now.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { commonHeaders, pagePolicy } from "../../server/security-headers.js";
import { hasChromium, launch, ROOT, requireChromium, shot } from "./harness.js";

requireChromium();

const DRAW = `
const chart = LightweightCharts.createChart(document.getElementById("chart"), { width: 600, height: 300 });
const series = chart.addSeries(LightweightCharts.CandlestickSeries, {});
const start = Date.UTC(2026, 0, 1) / 1000;
series.setData(Array.from({ length: 60 }, (_, i) => {
  const open = 100 + Math.sin(i / 5) * 10;
  const close = open + (i % 2 ? 2 : -2);
  return { time: start + i * 300, open, high: Math.max(open, close) + 1, low: Math.min(open, close) - 1, close };
}));
window.chartDrawn = true;
`;

describe.skipIf(!hasChromium)(
  "the built-in candle chart under the page policy (issue 23, docs/exchange-rules.md#chart)",
  () => {
    let server: Server;
    let url: string;
    let browser: Awaited<ReturnType<typeof launch>>;

    beforeAll(async () => {
      const files: Record<string, [string, string]> = {
        "/": [
          "text/html; charset=utf-8",
          `<!doctype html><html><head><link rel="stylesheet" href="/page.css"></head><body><div id="chart"></div><script src="/lightweight-charts.js"></script><script src="/draw.js"></script></body></html>`,
        ],
        "/page.css": ["text/css", "#chart { width: 600px; height: 300px; position: relative; }"],
        "/lightweight-charts.js": [
          "text/javascript",
          readFileSync(
            join(ROOT, "node_modules/lightweight-charts/dist/lightweight-charts.standalone.production.js"),
            "utf8",
          ),
        ],
        "/draw.js": ["text/javascript", DRAW],
      };
      server = createServer((req, res) => {
        const file = files[req.url ?? ""];
        res.writeHead(file ? 200 : 404, {
          ...commonHeaders({ hsts: false }),
          "content-type": file?.[0] ?? "text/plain",
          ...(req.url === "/" ? { "content-security-policy": pagePolicy({ styleNonce: "bm9uY2U" }) } : {}),
        });
        res.end(file?.[1] ?? "");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launch();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => server?.close(r));
    });

    afterEach(async () => {
      expect(await browser.violations()).toEqual([]);
    });

    it("draws candles with nothing refused", async () => {
      const { page } = browser;
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { chartDrawn?: boolean }).chartDrawn === true);
      await page.waitForTimeout(200);
      const painted = await page.evaluate(() =>
        [...document.querySelectorAll("canvas")].some((c) => {
          const ctx = c.getContext("2d");
          if (!ctx || c.width === 0 || c.height === 0) return false;
          const { data } = ctx.getImageData(0, 0, c.width, c.height);
          const first = data.slice(0, 4).join();
          for (let i = 4; i < data.length; i += 4) if (data.slice(i, i + 4).join() !== first) return true;
          return false;
        }),
      );
      expect(painted).toBe(true);
      // the attribution logo's <style> applied (its hash is in style-src)
      expect(await page.evaluate(() => getComputedStyle(document.getElementById("tv-attr-logo")!).position)).toBe(
        "absolute",
      );
      await shot(page, "chart-under-policy");
    });
  },
);
