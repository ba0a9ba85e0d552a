/**
 * Dashboard tabs opened together, in Chromium against a real `spotdesk serve` (docs/server-limits.md
 * "Refresh", docs/decisions.md#d27). Each new tab holds no access token yet and refreshes with the
 * shared refresh cookie, so 8 tabs send 8 refreshes with one cookie; the issue saw them read as a
 * stolen token, every tab then saying "an admin removed your access". The refreshes are held
 * until all 8 have been sent and then let go together, so every one of them carries the same
 * cookie whatever the machine's speed.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  enabled,
  ensureWebBuilt,
  hasChromium,
  launch,
  ROOT,
  requireChromium,
  type Served,
  shot,
  startServe,
  until,
} from "./harness.js";

requireChromium();
// a browser with 9 tabs and a server on a machine shared with other suites: room for a slow moment, not a timed assertion
vi.setConfig({ testTimeout: 120_000 });

const ADMIN = "admin@example.com";
const PASSWORD = "correct horse battery";
const TABS = 8;

/** What a tab settled on: the dashboard (its Exit button) or the login screen saying the session ended. */
const outcome = (tab: Page) =>
  until(
    "the tab to show the dashboard or the ended session",
    async () => {
      if (await tab.getByTestId("session-ended").isVisible())
        return `signed out: ${await tab.getByTestId("session-ended").textContent()}`;
      if (await tab.getByRole("button", { name: "Exit" }).isVisible()) return "signed in";
      return undefined;
    },
    30_000,
  );

describe.skipIf(!hasChromium)("dashboard tabs opened at once (docs/server-limits.md)", () => {
  let served: Served;
  let browser: Awaited<ReturnType<typeof launch>>;

  beforeAll(async () => {
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    ensureWebBuilt();
    served = await startServe();
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(async () => {
    expect(await browser.violations()).toEqual([]);
  });

  it("8 tabs opened together all stay signed in, and the session lives on", async () => {
    const page = browser.page;
    await page.goto(`${served.url}/registration`);
    await page.locator("input[name=email]").fill(ADMIN);
    await page.locator("input[name=password]").fill(PASSWORD);
    await page.locator("input[name=repeat]").fill(PASSWORD);
    await enabled(page.getByRole("button", { name: "Send code" }));
    await page.locator("input[name=code]").fill(served.setupCode);
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
    expect(await outcome(page)).toBe("signed in");

    // every refresh waits until the 8 tabs have sent theirs (at most 30 s), then all go on together
    const held: Route[] = [];
    let releaseAll: () => void = () => {};
    const allSent = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    const statuses: number[] = [];
    browser.context.on("response", (response) => {
      if (new URL(response.url()).pathname === "/user/refresh") statuses.push(response.status());
    });
    await browser.context.route("**/user/refresh", async (route) => {
      held.push(route);
      if (held.length === TABS) releaseAll();
      await Promise.race([allSent, new Promise((r) => setTimeout(r, 30_000))]);
      await route.continue();
    });

    const tabs = await Promise.all(Array.from({ length: TABS }, () => browser.context.newPage()));
    await Promise.all(tabs.map((tab) => tab.goto(`${served.url}/`)));
    const outcomes = await Promise.all(tabs.map(outcome));
    await shot(tabs[TABS - 1]!, "tabs-eighth");
    // the issue: "5 or more dashboard tabs opened together sign the user out"
    expect(outcomes).toEqual(Array(TABS).fill("signed in"));
    expect(held.length).toBe(TABS);
    expect(statuses).toEqual(Array(TABS).fill(200));

    // the session lives on: a reload refreshes with the cookie the 8 shared, and the first tab still works
    await browser.context.unroute("**/user/refresh");
    await tabs[0]!.reload();
    expect(await outcome(tabs[0]!)).toBe("signed in");
    await page.reload();
    expect(await outcome(page)).toBe("signed in");
    for (const tab of tabs) await tab.close();
  });
});
