/**
 * The dashboard in Chromium against a real `spotdesk serve` (issue 9 "Checks"). The steps share
 * one server and one browser and run in order: the first admin registers with the setup code,
 * signs in with the outbox code, then with a key, and so on. Each step saves a screenshot under
 * test-results/.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { CDPSession, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  enabled,
  ensureWebBuilt,
  hasChromium,
  lastCode,
  launch,
  ROOT,
  requireChromium,
  type Served,
  shot,
  startServe,
  until,
} from "./harness.js";

requireChromium();

const ADMIN = "admin@example.com";
const ADMIN_PASSWORD = "correct horse battery";
const TRADER = "trader@example.com";
const TRADER_PASSWORD = "trader password 1";

const visibleText = (page: Page, text: string) =>
  page.getByText(text, { exact: true }).first().waitFor({ state: "visible", timeout: 10_000 });

describe.skipIf(!hasChromium)("dashboard in Chromium (docs/dashboard-rules.md)", () => {
  let served: Served;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  let cdp: CDPSession;

  beforeAll(async () => {
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    ensureWebBuilt();
    served = await startServe();
    browser = await launch();
    page = browser.page;
    cdp = await browser.context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  // Issue 23: the page's Content-Security-Policy is enforced in every step; anything it blocks fails the step.
  afterEach(async () => {
    expect(await browser.violations()).toEqual([]);
  });

  it("runs under the page's Content-Security-Policy: an injected inline script is refused and reported (issue 23)", async () => {
    await page.goto(`${served.url}/login/password`);
    await page.locator("input[name=email]").waitFor();
    const ran = await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__injected = true";
      document.head.appendChild(s);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    // a <style> without the page's nonce or a listed hash does not apply either
    const applied = await page.evaluate(() => {
      const s = document.createElement("style");
      s.textContent = "body { display: none }";
      document.head.appendChild(s);
      return s.sheet !== null && getComputedStyle(document.body).display === "none";
    });
    expect(applied).toBe(false);
    const seen = await browser.violations();
    expect(seen.some((v) => v.directive === "script-src-elem" && v.blocked === "inline")).toBe(true);
    expect(seen.some((v) => v.directive === "style-src-elem" && v.blocked === "inline")).toBe(true);
  });

  async function signInForm(
    path: "/registration" | "/login/password",
    email: string,
    password: string,
    code: () => Promise<string> | string,
    createKey = false,
  ) {
    await page.goto(`${served.url}${path}`);
    await page.locator("input[name=email]").fill(email);
    await page.locator("input[name=password]").fill(password);
    if (path === "/registration") await page.locator("input[name=repeat]").fill(password);
    const send = page.getByRole("button", { name: "Send code" });
    await enabled(send);
    await page.locator("input[name=code]").fill(await code());
    if (createKey) await page.getByLabel("Create a public key on this device").check();
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
  }

  async function exit() {
    await page.getByRole("button", { name: "Exit" }).click();
    await visibleText(page, "Are you sure you want to exit?");
    // issue 23: the <style> elements sonner, Radix and the dialog's scroll lock insert all apply under the policy
    const styles = await page.evaluate(() =>
      [...document.querySelectorAll("style")].map((s) => (s.sheet ? s.sheet.cssRules.length : -1)),
    );
    expect(styles.length).toBeGreaterThanOrEqual(2);
    expect(styles.every((n) => n >= 0)).toBe(true);
    await page.getByRole("dialog").getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/\/login\/password$/, { timeout: 15_000 });
  }

  it("shows 'Page not found ;(' for an unknown route and 'Go home' replaces the entry (docs/dashboard-rules.md#screens)", async () => {
    await page.goto(`${served.url}/no/such/page`);
    await page.getByRole("heading", { name: "Page not found ;(" }).waitFor();
    expect(await page.title()).toBe("Page not found ;(");
    const before = await page.evaluate(() => history.length);
    await shot(page, "not-found");
    await page.getByRole("button", { name: "Go home" }).click();
    // not signed in: home's guard sends the visitor on to the login screen
    await page.waitForURL(/\/login\/password$/);
    expect(await page.evaluate(() => history.length)).toBe(before);
  });

  it("registers the first admin with the setup code and lands on Home with the Demo client (docs/dashboard-rules.md#screens, docs/decisions.md#d5)", async () => {
    await signInForm("/registration", ADMIN, ADMIN_PASSWORD, () => served.setupCode);
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    await page.getByRole("link", { name: "API Keys Manager" }).waitFor();
    // 'Connected' is raised first; 'Subscribed' then takes its place (docs/dashboard.md "Toasts")
    await visibleText(page, "Subscribed");
    await shot(page, "registered-home");
  });

  it("signs in with the e-mail code from the outbox and creates a key when asked (docs/dashboard-rules.md#screens WAEnabled)", async () => {
    await exit();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await signInForm(
      "/login/password",
      ADMIN,
      ADMIN_PASSWORD,
      async () => {
        await page.getByRole("button", { name: "Send code" }).click();
        return until("outbox code", async () => lastCode(served.dataDir, ADMIN));
      },
      true,
    );
    expect(await page.evaluate(() => localStorage.getItem("WAEnabled"))).toBe("yes");
    expect(await page.evaluate(() => localStorage.getItem("userId"))).toMatch(/[0-9a-f-]{36}/);
    expect(Number(await page.evaluate(() => localStorage.getItem("refreshTokenExpiry")))).toBeGreaterThan(Date.now());
    await shot(page, "password-login");
  });

  it("keeps the session across a reload through the refresh cookie (docs/dashboard-rules.md#states, docs/decisions.md#d7)", async () => {
    await page.reload();
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    expect(page.url()).toBe(`${served.url}/`);
    await shot(page, "after-reload");
  });

  it("signs in with a key through the virtual authenticator (docs/dashboard-rules.md#screens 'Login with a Key')", async () => {
    await exit();
    await page.goto(`${served.url}/login/key`);
    await page.locator("input[name=email]").fill(ADMIN);
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    await shot(page, "key-login");
  });

  it("stores an API key encrypted in the browser: the server holds only ciphertext (docs/dashboard-rules.md#validation, docs/decisions.md#d3)", async () => {
    await page.getByRole("button", { name: "Encryption key" }).click();
    await page.getByRole("button", { name: "Generate" }).click();
    // shown once with Copy and the warning (docs/dashboard.md "The encryption key"), then Done
    await page.getByTestId("generated-key").waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    expect(
      await page.evaluate(() =>
        JSON.parse(localStorage.getItem("panel_state") ?? "{}").k?.map((p: string) => p.length),
      ),
    ).toEqual([32, 16, 16]);
    await page.getByRole("link", { name: "API Keys Manager" }).click();
    await page.waitForURL(/\/apikeys$/);
    await page.getByText("Needed for Bitmart, Bitget, Kucoin, OKX").waitFor();
    const submit = page.getByRole("form", { name: "Add API keys" }).getByRole("button", { name: "Submit" });
    await page.locator("input[name=client]").fill("Acme");
    await page.locator("input[name=account]").fill("main");
    await page.locator("input[name=pair]").fill("BTC/USDT");
    await page.locator("input[name=api]").fill("plain-api-key-123");
    expect(await submit.isEnabled()).toBe(false);
    await page.locator("input[name=secret]").fill("plain-secret-456");
    await page.locator("select[name=exchange]").selectOption("paper");
    await enabled(submit);
    await submit.click();
    await until("stored key", async () => {
      const db = new Database(join(served.dataDir, "spotdesk.sqlite"), { readonly: true });
      try {
        return db.prepare("SELECT envelope FROM api_keys WHERE client = 'Acme'").get() as
          | { envelope: string }
          | undefined;
      } finally {
        db.close();
      }
    }).then(({ envelope }) => {
      expect(envelope).not.toContain("plain-api-key-123");
      expect(envelope).not.toContain("plain-secret-456");
      expect(JSON.parse(envelope).data).toMatch(/^[0-9a-f]{24}[0-9a-f]{32,}$/);
    });
    await visibleText(page, "API key saved");
    await shot(page, "apikeys");
  });

  it("keeps the Home filters across a reload and clears them (docs/dashboard-rules.md#screens clientFilter, exchangeFilter)", async () => {
    await page.getByRole("link", { name: "Home" }).click();
    await page.getByRole("article", { name: "Client Acme" }).waitFor();
    await page.getByPlaceholder("Filter by name").fill("acm");
    await page.getByRole("article", { name: "Client Demo" }).waitFor({ state: "detached" });
    await page.reload();
    await page.getByRole("article", { name: "Client Acme" }).waitFor();
    expect(await page.getByPlaceholder("Filter by name").inputValue()).toBe("acm");
    expect(await page.evaluate(() => localStorage.getItem("clientFilter"))).toBe("acm");
    expect(await page.getByRole("article", { name: "Client Demo" }).count()).toBe(0);
    await shot(page, "filters");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("clientFilter"))).toBeNull();
  });

  it("keeps the exchange filter across a reload and clears it (docs/dashboard-rules.md#screens exchangeFilter)", async () => {
    // a second exchange to filter on: Beta's account on bybit, stored through the Radix exchange picker
    await page.getByRole("link", { name: "API Keys Manager" }).click();
    await page.waitForURL(/\/apikeys$/);
    await page.locator("input[name=client]").fill("Beta");
    await page.locator("input[name=account]").fill("main");
    await page.locator("input[name=pair]").fill("ETH/USDT");
    await page.locator("input[name=api]").fill("beta-api-key");
    await page.locator("input[name=secret]").fill("beta-secret");
    await page.getByLabel("Exchange", { exact: true }).click();
    await page.getByRole("option", { name: "Bybit" }).click();
    const submit = page.getByRole("form", { name: "Add API keys" }).getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await until("stored key", async () => {
      const db = new Database(join(served.dataDir, "spotdesk.sqlite"), { readonly: true });
      try {
        return db.prepare("SELECT exchange FROM api_keys WHERE client = 'Beta'").get() as
          | { exchange: string }
          | undefined;
      } finally {
        db.close();
      }
    }).then(({ exchange }) => expect(exchange).toBe("bybit"));

    await page.getByRole("link", { name: "Home" }).click();
    await page.getByRole("article", { name: "Client Beta" }).waitFor();
    await page.getByRole("combobox", { name: "Exchange filter" }).click();
    await page.getByRole("option", { name: "Bybit" }).click();
    await page.getByRole("article", { name: "Client Acme" }).waitFor({ state: "detached" });
    expect(await page.evaluate(() => localStorage.getItem("exchangeFilter"))).toBe("bybit");
    await page.reload();
    await page.getByRole("article", { name: "Client Beta" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("exchangeFilter"))).toBe("bybit");
    expect(await page.getByRole("combobox", { name: "Exchange filter" }).textContent()).toContain("Bybit");
    expect(await page.getByRole("article", { name: "Client Acme" }).count()).toBe(0);
    expect(await page.getByRole("article", { name: "Client Demo" }).count()).toBe(0);
    await shot(page, "exchange-filter");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByRole("article", { name: "Client Acme" }).waitFor();
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("exchangeFilter"))).toBeNull();
  });

  it("opens the trading view of a card as /c/[client][exchange][account] (docs/dashboard-rules.md#screens, docs/decisions.md#d13)", async () => {
    await page.getByRole("article", { name: "Client Acme" }).getByRole("link").first().click();
    await page.waitForURL(/\/c\//);
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe("/c/[Acme][paper][main]");
    await page.getByRole("heading", { name: /Acme/ }).waitFor();
    await page.goto(`${served.url}/c/[Acme][paper]`);
    await page.getByTestId("trading-empty").waitFor();
  });

  it("lets an admin permit a user scoped to one client, who then sees only that client (docs/dashboard-rules.md#validation Users)", async () => {
    await page.goto(`${served.url}/user/create`);
    const permit = page.getByRole("button", { name: "Permit login" });
    await page.locator("input[name=email]").fill(TRADER);
    expect(await permit.isEnabled()).toBe(false);
    await page.getByLabel("Acme").check();
    await enabled(permit);
    await permit.click();
    await page.waitForURL(/\/users$/);
    const row = page.getByRole("row", { name: new RegExp(TRADER) });
    await row.waitFor();
    expect(await row.textContent()).toContain("Acme");
    await shot(page, "users");
    await exit();
    await signInForm("/registration", TRADER, TRADER_PASSWORD, async () => {
      await page.getByRole("button", { name: "Send code" }).click();
      return until("outbox code", async () => lastCode(served.dataDir, TRADER));
    });
    await page.getByRole("article", { name: "Client Acme" }).waitFor();
    expect(await page.getByRole("article", { name: "Client Demo" }).count()).toBe(0);
    // docs/decisions.md#d5: no admin navigation for others
    expect(await page.getByRole("link", { name: "Users Manager" }).count()).toBe(0);
    await shot(page, "scoped-user");
  });

  it("shows the seed's toast for a server error code: 606 'No such user...' (docs/api.md#errors)", async () => {
    await exit();
    await page.goto(`${served.url}/login/key`);
    await page.locator("input[name=email]").fill("nobody@example.com");
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await visibleText(page, "No such user...");
    await shot(page, "toast-606");
  });
});
