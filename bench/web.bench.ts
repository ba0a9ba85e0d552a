/**
 * The dashboard's initial-route weight (issue 9 "Bench"): the gzip size of the JS and CSS that
 * web/dist/index.html loads before the first screen (the entry script, its modulepreloads and
 * stylesheets; chunks loaded on demand by later routes are not counted). Target: under 250 KB.
 * Builds web/dist first when it is missing or older than the sources.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ensureWebBuilt, ROOT } from "../test/web/harness.js";
import type { BenchResult } from "./index.js";

export function initialRouteAssets(html: string): string[] {
  const refs = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+\.(?:js|css))"/g)) refs.add(m[1] as string);
  return [...refs];
}

export async function run(): Promise<BenchResult[]> {
  ensureWebBuilt();
  const dist = join(ROOT, "web/dist");
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const assets = initialRouteAssets(html);
  let gz = 0;
  let raw = 0;
  // as `serve` sends them to a browser that accepts br: the build's .br beside each file (docs/dashboard-delivery.md#delivery)
  let served = 0;
  // issue 13: the chart (lightweight-charts and the provider's loader) loads only with the trading view
  const chartInInitial: string[] = [];
  for (const a of assets) {
    const bytes = readFileSync(join(dist, a.replace(/^\//, "")));
    raw += bytes.length;
    const br = join(dist, `${a.replace(/^\//, "")}.br`);
    served += existsSync(br) ? readFileSync(br).length : bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
    if (/tv-lightweight-charts|s3\.tradingview\.com/.test(bytes.toString("utf8"))) chartInInitial.push(a);
  }
  gz += gzipSync(Buffer.from(html), { level: 9 }).length;
  return [
    {
      name: "web: initial route JS+CSS+HTML (gzip)",
      unit: "KB",
      better: "lower",
      value: Math.round((gz / 1024) * 10) / 10,
      target: 250,
      detail: `${assets.length} files, ${Math.round(raw / 1024)} KB before gzip: ${assets.join(", ")}`,
    },
    {
      name: "web: initial route JS+CSS as served (brotli, precompressed at build)",
      unit: "KB",
      better: "lower",
      value: Math.round((served / 1024) * 10) / 10,
      target: 250,
      detail:
        "the entry script, its modulepreloads and stylesheets; the route's own chunk is measured on the wire by test/web/links-layout.test.ts",
    },
    {
      name: "web: initial-route files holding chart code (chart loads with the trading view only)",
      unit: "files",
      better: "lower",
      value: chartInInitial.length,
      target: 0,
      detail: chartInInitial.length
        ? chartInInitial.join(", ")
        : "lightweight-charts and the provider loader are in the trading view's ChartPanel chunk",
    },
  ];
}
