/**
 * The dashboard in a hostile browser (issue 23 "Checks"): a page of another origin that frames the
 * dashboard gets nothing rendered in the frame (frame-ancestors 'none', X-Frame-Options DENY),
 * while the same page's frame of its own origin renders, so the check can fail.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Frame } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBuilt, hasChromium, launch, requireChromium, type Served, shot, startServe } from "./harness.js";

requireChromium();

/** A second loopback server: another origin (127.0.0.1 vs localhost, and another port). */
async function startFramer(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    if (req.url === "/own") res.end("<!doctype html><title>own</title><p id=own>framed fine</p>");
    else
      res.end(
        `<!doctype html><title>framer</title>` +
          `<iframe id=own name=own src="/own" width=400 height=300></iframe>` +
          `<iframe id=dashboard name=dashboard src="${target}/login/password" width=800 height=600></iframe>` +
          `<iframe id=api name=api src="${target}/health" width=400 height=300></iframe>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function textOf(frame: Frame): Promise<string> {
  return frame.evaluate(() => document.body?.textContent ?? "").catch(() => "");
}

describe.skipIf(!hasChromium)("the dashboard framed by another origin (issue 23)", () => {
  let served: Served;
  let framer: { url: string; server: Server };
  let browser: Awaited<ReturnType<typeof launch>>;

  beforeAll(async () => {
    ensureWebBuilt();
    served = await startServe();
    framer = await startFramer(served.url);
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => framer?.server.close(r));
    await served?.stop();
  });

  afterEach(async () => {
    // the refused frames are logged by Chromium; nothing else may be
    const seen = await browser.violations();
    expect(seen.filter((v) => !/frame-ancestors|X-Frame-Options/i.test(v.sample))).toEqual([]);
  });

  it("renders nothing of the dashboard or its API inside a frame of another origin", async () => {
    const { page } = browser;
    const loads: string[] = [];
    page.on("response", (r) => loads.push(r.url()));
    await page.goto(framer.url);
    const own = page.frame({ name: "own" })!;
    await own.locator("#own").waitFor();
    expect(await textOf(own)).toBe("framed fine");
    // the dashboard's page answered, and the browser refused to show it
    await expect.poll(() => loads.some((u) => u.startsWith(`${served.url}/login/password`))).toBe(true);
    for (const name of ["dashboard", "api"]) {
      const frame = page.frame({ name })!;
      await frame.waitForLoadState();
      expect(frame.url(), name).not.toContain(served.url);
      expect(await frame.locator("input[name=email]").count(), name).toBe(0);
      expect(await textOf(frame), name).not.toMatch(/Sign in|Login|status/i);
    }
    // and the app's own scripts never ran in it: no request for the bundle
    expect(loads.filter((u) => u.startsWith(`${served.url}/assets/`))).toEqual([]);
    await shot(page, "framed-by-another-origin");
  });

  it("still renders the dashboard at the top level", async () => {
    const { page } = browser;
    await page.goto(`${served.url}/login/password`);
    await page.locator("input[name=email]").waitFor();
  });
});
