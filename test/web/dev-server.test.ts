/**
 * `npm run web`: Vite's dev server in front of a real `spotdesk serve` keeps the page's policy,
 * relaxed only where the dev loop needs it (issue 23 "The same under Vite's dev server"): the
 * inline React refresh preamble by hash, Vite's <style> elements by the page's nonce, the live
 * channel's origin in connect-src. The page renders, hot reload's socket connects, and nothing is
 * refused.
 */
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launch, ROOT, requireChromium, type Served, shot, startServe } from "./harness.js";

requireChromium();

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((d) => {
      const [n, ...v] = d.trim().split(/\s+/);
      return [n!, v];
    }),
  );
}

describe.skipIf(!hasChromium)("the dashboard under Vite's dev server (issue 23)", () => {
  let served: Served;
  let vite: ViteDevServer;
  let url: string;
  let browser: Awaited<ReturnType<typeof launch>>;
  const saved = { api: process.env.SPOTDESK_API };

  beforeAll(async () => {
    served = await startServe();
    process.env.SPOTDESK_API = served.url;
    vite = await createServer({
      configFile: join(ROOT, "web/vite.config.ts"),
      logLevel: "warn",
      server: { port: 0, host: "localhost", strictPort: false },
    });
    await vite.listen();
    url = `http://localhost:${(vite.httpServer!.address() as AddressInfo).port}`;
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await vite?.close();
    await served?.stop();
    if (saved.api === undefined) delete process.env.SPOTDESK_API;
    else process.env.SPOTDESK_API = saved.api;
  });

  afterEach(async () => {
    expect(await browser.violations()).toEqual([]);
  });

  it("answers the page with the policy: the preamble's hash, a fresh style nonce, the live channel's origin, nothing unsafe for scripts", async () => {
    const res = await fetch(`${url}/login/password`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = directives(res.headers.get("content-security-policy")!);
    expect(csp.get("script-src")![0]).toBe("'self'");
    expect(
      csp
        .get("script-src")!
        .slice(1)
        .every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s)),
    ).toBe(true);
    expect(html).toContain("injectIntoGlobalHook");
    const nonce = /nonce="([^"]+)"/.exec(html)![1]!;
    expect(csp.get("style-src")).toContain(`'nonce-${nonce}'`);
    expect(csp.get("style-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("connect-src")).toContain(new URL(served.url.replace(/^http/, "ws")).origin);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const module = await fetch(`${url}/src/main.tsx`);
    expect(module.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  });

  it("renders the sign-in page with hot reload connected and styles applied, nothing refused", async () => {
    const { page } = browser;
    const hmr = page.waitForEvent("websocket", {
      predicate: (ws) => ws.url().startsWith(url.replace(/^http/, "ws")),
      timeout: 15_000,
    });
    await page.goto(`${url}/login/password`);
    await page.locator("input[name=email]").waitFor({ timeout: 30_000 });
    await hmr;
    // styles.css arrives as a <style> element from Vite's client, with the page's nonce
    const styles = await page.evaluate(() =>
      [...document.querySelectorAll("style")].map((s) => (s.sheet ? s.sheet.cssRules.length : -1)),
    );
    expect(styles.length).toBeGreaterThan(0);
    expect(styles.every((n) => n >= 0)).toBe(true);
    expect(Math.max(...styles)).toBeGreaterThan(10);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toMatch(/^(dark|light)$/);
    await shot(page, "dev-server-login");
  });
});
