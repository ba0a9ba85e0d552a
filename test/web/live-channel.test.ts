/**
 * The live channel, toasts and the e-mail debounce as behaviour, in Chromium against a real
 * `spotdesk serve` (docs/dashboard-rules.md#states "Live channel", docs/dashboard-rules.md#constants; issue 13 "Live channel"): Connected and
 * Subscribed on sign-in, Disconnected with the close code, 'ping' every 15 s while open, a new
 * socket at the next 15 s tick after a close, WebSocket Error when it cannot connect; toasts
 * leave after their seed durations; the e-mail dot settles 500 ms after the last keystroke.
 * Timers run on Playwright's clock, so the 15 s and the durations are exact, not waited for.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page, WebSocketRoute } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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
// a browser and a server on a machine shared with other suites: room for a slow moment, not a timed assertion
vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = "correct horse battery";

describe.skipIf(!hasChromium)(
  "live channel, toasts and debounce in the browser (docs/dashboard-rules.md#states, #constants)",
  () => {
    let served: Served;
    let browser: Awaited<ReturnType<typeof launch>>;
    let page: Page;
    const sockets: WebSocketRoute[] = [];
    const sent: string[] = [];
    const received: string[] = [];

    const toast = (title: string) =>
      page.locator("[data-sonner-toast]").filter({ has: page.getByText(title, { exact: true }) });
    /** The titles raised through AWAKE_TOAST since the page loaded (Connected is replaced by Subscribed in its place). */
    const raised = () => page.evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? []);
    /** 'Connected' raised, then 'Subscribed' shown in the same place: one toast, not two (docs/dashboard.md "Toasts"). */
    const connectedThenSubscribed = async (before: number) => {
      await toast("Subscribed").waitFor();
      const titles = (await raised()).slice(before);
      expect(titles.indexOf("Connected")).toBeGreaterThanOrEqual(0);
      expect(titles.indexOf("Subscribed")).toBeGreaterThan(titles.indexOf("Connected"));
      expect(
        await page
          .locator("[data-sonner-toast]")
          .filter({ hasText: /^(Connected|Subscribed)/ })
          .count(),
      ).toBe(1);
    };

    beforeAll(async () => {
      mkdirSync(join(ROOT, "test-results"), { recursive: true });
      ensureWebBuilt();
      served = await startServe();
      browser = await launch();
      page = browser.page;
      await page.addInitScript(() => {
        const w = window as unknown as { __toasts?: string[] };
        w.__toasts = [];
        window.addEventListener("AWAKE_TOAST", (e) =>
          w.__toasts?.push((e as CustomEvent<{ title: string }>).detail.title),
        );
      });
      // Playwright's clock: each test pauses it where it measures a duration, and resumes it after
      await page.clock.install();
      // the live channel is the websocket at the host's root; each connection passes through here
      await page.routeWebSocket(new URL("/", served.url.replace(/^http/, "ws")).href, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          sent.push(String(m));
          server.send(m);
        });
        server.onMessage((m) => {
          received.push(String(m));
          ws.send(m);
        });
        sockets.push(ws);
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await served?.stop();
    });

    afterEach(async () => {
      expect(await browser.violations()).toEqual([]);
    });

    /**
     * Stops the page's clock now: time moves only by runFor until resume(). On a loaded machine more
     * than the 100 ms margin can pass between reading the page's time and pausing ("Cannot
     * fast-forward to the past"): read it again and retry rather than fail.
     */
    const pause = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
        } catch (error) {
          if (attempt >= 5 || !String(error).includes("to the past")) throw error;
        }
      }
    };

    it("settles the e-mail 500 ms after the last keystroke: no dot before, the green dot at 500 ms (docs/dashboard-rules.md#validation, #constants)", async () => {
      await page.goto(`${served.url}/registration`);
      await pause();
      const dot = page.getByRole("img", { name: /e-mail/ });
      await page.locator("input[name=email]").pressSequentially("admin@example.com");
      await page.clock.runFor(499);
      expect(await dot.getAttribute("class")).toBe("dot ");
      await page.clock.runFor(1);
      await page.waitForFunction(() => document.querySelector(".dot")?.className === "dot ok");
      await page.locator("input[name=email]").press("Backspace");
      await page.locator("input[name=email]").pressSequentially("@");
      await page.clock.runFor(499);
      expect(await dot.getAttribute("class")).toBe("dot ok");
      await page.clock.runFor(1);
      await page.waitForFunction(() => document.querySelector(".dot")?.className === "dot bad");
      await page.clock.resume();
    });

    it("toasts 'Connected' then 'Subscribed' with the channel on sign-in, in one place; the success toast leaves after 1000 ms (docs/dashboard-rules.md#states, #constants)", async () => {
      await page.locator("input[name=email]").fill("admin@example.com");
      await page.locator("input[name=password]").fill(PASSWORD);
      await page.locator("input[name=repeat]").fill(PASSWORD);
      await page.locator("input[name=code]").fill(served.setupCode);
      await page.getByRole("button", { name: "Submit" }).click();
      await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
      await connectedThenSubscribed(0);
      expect(await toast("Subscribed").textContent()).toContain("For channel 'sub_for_bots'");
      expect(JSON.parse(sent.find((m) => m.startsWith("{"))!)).toMatchObject({
        purpose: "sub_for_bots",
        userId: expect.any(String),
        token: expect.any(String),
      });
      await pause();
      await shot(page, "live-connected");
      // seen within a few hundred ms of its start: still there at +600 ms, gone once 1000 ms (and the exit animation) passed
      await page.clock.runFor(600);
      expect(await toast("Subscribed").count()).toBe(1);
      await page.clock.runFor(1_000);
      await toast("Subscribed").waitFor({ state: "detached" });
      await page.clock.resume();
    });

    const pings = () => sent.filter((m) => m === "ping").length;

    it("sends 'ping' every 5 s while the socket is open, and the server answers 'pong' (docs/dashboard-rules.md#states, docs/decisions.md#d37)", async () => {
      await pause();
      // the routed socket delivers the answers through the page's timers: time moves in steps of 100 ms
      const step = async () => {
        await page.clock.runFor(100);
        await new Promise((r) => setTimeout(r, 10));
      };
      // find the tick: step until a ping goes out
      const first = pings();
      for (let i = 0; i < 60 && pings() === first; i++) await step();
      expect(pings()).toBe(first + 1);
      // within 100 ms after a tick: nothing for the next 4.8 s, one ping by 5.2 s
      for (let i = 0; i < 48; i++) await step();
      expect(pings()).toBe(first + 1);
      for (let i = 0; i < 4 && pings() === first + 1; i++) await step();
      await expect.poll(pings).toBe(first + 2);
      await expect.poll(() => received.filter((m) => m === "pong").length).toBeGreaterThanOrEqual(2);
      // answered: the page is in use, no banner
      expect(await page.getByRole("alert").filter({ hasText: "The server does not answer" }).count()).toBe(0);
      await page.clock.resume();
    });

    it("toasts 'Disconnected' 'With code: …' on a close, shown 3000 ms, and reconnects at the next 15 s tick (docs/dashboard-rules.md#states, #constants)", async () => {
      const open = sockets.length;
      // (the routed socket delivers its events through the page's timers: the clock runs while it closes)
      await sockets.at(-1)!.close({ code: 4001, reason: "test" });
      await toast("Disconnected").waitFor();
      await pause();
      expect(await toast("Disconnected").textContent()).toContain("With code: 4001");
      await page.clock.runFor(2_500);
      expect(await toast("Disconnected").count()).toBe(1);
      await page.clock.runFor(1_000);
      await toast("Disconnected").waitFor({ state: "detached" });
      await page.clock.resume();
      // no new socket before the tick; one at it, subscribed again
      expect(sockets.length).toBe(open);
      const before = (await raised()).length;
      await page.clock.runFor(15_000);
      await expect.poll(() => sockets.length).toBe(open + 1);
      await connectedThenSubscribed(before);
    });

    it("toasts 'WebSocket Error' when the channel cannot connect, and tries again at the next tick (docs/dashboard-rules.md#states, docs/api.md#errors)", async () => {
      // the network itself refuses: no route in between
      await page.unrouteAll();
      await browser.context.setOffline(true);
      await sockets.at(-1)!.close({ code: 4002, reason: "test" });
      await toast("Disconnected").waitFor();
      await page.clock.runFor(15_000);
      await toast("WebSocket Error").waitFor();
      await shot(page, "live-error");
      await browser.context.setOffline(false);
      const before = (await raised()).length;
      await page.clock.runFor(15_000);
      await connectedThenSubscribed(before);
    });
  },
);
