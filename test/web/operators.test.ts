/**
 * The dashboard as operators live in it (issue 17 part 1, docs/dashboard.md), in Chromium against a
 * real `spotdesk serve` whose request log is read to count what reached the server: the first-run
 * hint, the encryption key shown once and the Exit warning, toast texts, confirmation dialogs and
 * double-click guards, the end of a session (revoked in another tab, expired), a short-lived access
 * token that does not loop, and a server that stops answering. The steps share one server and one
 * browser and run in order; screenshots at 1440x900 dark and light and at 390x844 go to test-results/.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  enabled,
  ensureWebBuilt,
  hasChromium,
  lastCode,
  launch,
  ROOT,
  registerFirstAdmin,
  requireChromium,
  until,
} from "./harness.js";

requireChromium();

const ADMIN = "admin@example.com";
const PASSWORD = "correct horse battery";
const TRADER = "trader@example.com";

interface LoggedServe {
  url: string;
  dataDir: string;
  setupCode: string;
  /** the requests the server logged, as "METHOD /path status" */
  requests(): string[];
  count(method: string, path: RegExp): number;
  stop(): Promise<void>;
}

/** `spotdesk serve` with its request log kept (info level), and an optional config.json. */
async function startLoggedServe(
  config: Record<string, unknown> = {},
  again?: { dataDir: string; port: number },
): Promise<LoggedServe> {
  const dataDir = again?.dataDir ?? mkdtempSync(join(tmpdir(), "spotdesk-ops-"));
  writeFileSync(join(dataDir, "config.json"), JSON.stringify(config));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "bin/spotdesk"), "serve", "--port", String(again?.port ?? 0), "--data", dataDir],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, SPOTDESK_LOG_LEVEL: "info" } },
  );
  const seen: string[] = [];
  let rest = "";
  child.stdout?.on("data", (d: Buffer) => {
    const lines = (rest + d.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as { msg?: string; method?: string; path?: string; status?: number };
        if (entry.msg === "request") seen.push(`${entry.method} ${entry.path} ${entry.status}`);
      } catch {
        // not a log line
      }
    }
  });
  let err = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /server on https?:\/\/[^:]+:(\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  let stopped = false;
  return {
    url: `http://localhost:${port}`,
    dataDir,
    setupCode: again ? "" : readFileSync(join(dataDir, "setup-code"), "utf8").trim(),
    requests: () => [...seen],
    count: (method, path) => seen.filter((r) => r.startsWith(`${method} `) && path.test(r.split(" ")[1] ?? "")).length,
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** The server writes its log lines once per event-loop turn: let the last ones arrive before counting. */
const logSettled = () => new Promise((r) => setTimeout(r, 500));

/** The titles raised through AWAKE_TOAST since the page loaded (an init script records them). */
const raisedTitles = (page: Page) => page.evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? []);

const toast = (page: Page, title: string) =>
  page.locator("[data-sonner-toast]").filter({ has: page.getByText(title, { exact: true }) });

/** Screenshots of the screen as it is: 1440x900 dark and light, and 390x844 (docs/dashboard.md). */
async function shots(page: Page, name: string): Promise<void> {
  const theme = (t: string) =>
    page.evaluate((v) => {
      document.documentElement.dataset.theme = v;
    }, t);
  const path = (suffix: string) => join(ROOT, "test-results", `web-ops-${name}-${suffix}.png`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await theme("dark");
  await page.screenshot({ path: path("1440-dark") });
  await theme("light");
  await page.screenshot({ path: path("1440-light") });
  await theme("dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path("390") });
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe.skipIf(!hasChromium)("the dashboard as operators live in it (issue 17, docs/dashboard.md)", () => {
  let served: LoggedServe;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  let adminId = "";

  beforeAll(async () => {
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    ensureWebBuilt();
    served = await startLoggedServe();
    browser = await launch();
    page = browser.page;
    await page.addInitScript(() => {
      const w = window as unknown as { __toasts?: string[] };
      w.__toasts = [];
      window.addEventListener("AWAKE_TOAST", (e) =>
        w.__toasts?.push((e as CustomEvent<{ title: string }>).detail.title),
      );
    });
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (served) rmSync(served.dataDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    expect(await browser.violations()).toEqual([]);
  });

  it("says on the registration page of a server with no user that the setup code goes in Code; Send code asks nothing of the server", async () => {
    await page.goto(`${served.url}/registration`);
    await page.getByTestId("first-run").waitFor();
    expect(await page.getByTestId("first-run").textContent()).toContain("setup code");
    await page.locator("input[name=email]").fill(ADMIN);
    const send = page.getByRole("button", { name: "Send code" });
    await enabled(send);
    await send.dblclick();
    await toast(
      page,
      "No e-mail code on the first start: the setup code printed by `spotdesk serve` goes in Code",
    ).waitFor();
    expect(await toast(page, "No such user...").count()).toBe(0);
    await logSettled();
    expect(served.count("POST", /^\/code$/)).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("code");
    await shots(page, "first-run");
  });

  it("registers the first admin with the setup code; signed in, the header offers neither Login nor Register; 'Subscribed' takes the place of 'Connected'", async () => {
    await page.locator("input[name=password]").fill(PASSWORD);
    await page.locator("input[name=repeat]").fill(PASSWORD);
    await page.locator("input[name=code]").fill(served.setupCode);
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.dblclick();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
    await logSettled();
    expect(served.count("POST", /^\/register$/)).toBe(1);
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    await toast(page, "Subscribed").waitFor();
    expect(
      await page
        .locator("[data-sonner-toast]")
        .filter({ hasText: /^(Connected|Subscribed)/ })
        .count(),
    ).toBe(1);
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByText("Users Manager", { exact: true }).waitFor();
    expect(await nav.getByText("Login", { exact: true }).count()).toBe(0);
    expect(await nav.getByText("Register", { exact: true }).count()).toBe(0);
    adminId = (await page.evaluate(() => localStorage.getItem("userId"))) ?? "";
    expect(adminId).toMatch(/^[0-9a-f-]{36}$/);
    // Back to the registration page: a signed-in tab is not offered the form again
    await page.goBack();
    await page.waitForURL(/\/registration$/);
    await page.getByRole("heading", { name: "Signed in" }).waitFor();
    expect(await page.locator("input[name=password]").count()).toBe(0);
    await page.getByRole("button", { name: "Go home" }).click();
    await page.waitForURL(`${served.url}/`);
  });

  it("shows a generated encryption key once, with Copy and the warning; Generate asks before replacing a saved key", async () => {
    await page.getByRole("button", { name: "Encryption key" }).click();
    await page.getByRole("button", { name: "Generate" }).click();
    const shown = page.getByTestId("generated-key");
    await shown.waitFor();
    const key = (await shown.textContent()) ?? "";
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const dialog = page.getByRole("dialog", { name: "Encryption key" });
    expect(await dialog.textContent()).toContain("API keys sealed with this key can't be opened without it");
    await dialog.getByRole("button", { name: "Copy" }).waitFor();
    await shots(page, "key-shown-once");
    await dialog.getByRole("button", { name: "Done" }).click();
    const saved = await page.evaluate(() => localStorage.getItem("panel_state"));
    expect(saved).not.toBeNull();
    // opened again: the key is not shown any more
    await page.getByRole("button", { name: "Encryption key" }).click();
    expect(await page.getByTestId("generated-key").count()).toBe(0);
    expect(await page.getByRole("dialog").textContent()).not.toContain(key);
    // Generate with a saved key asks first; Cancel keeps it
    await page.getByRole("button", { name: "Generate" }).click();
    await page.getByText("Replace the saved encryption key?", { exact: false }).waitFor();
    await shots(page, "key-replace-question");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect(await page.evaluate(() => localStorage.getItem("panel_state"))).toBe(saved);
    // confirmed: a new key, shown once
    await page.getByRole("button", { name: "Generate" }).click();
    await page.getByRole("button", { name: "Replace with a new key" }).click();
    await shown.waitFor();
    expect(await shown.textContent()).not.toBe(key);
    expect(await page.evaluate(() => localStorage.getItem("panel_state"))).not.toBe(saved);
    await page.getByRole("button", { name: "Done" }).click();
  });

  it("warns on Exit that the saved key will be forgotten on this browser", async () => {
    await page.getByRole("button", { name: "Exit" }).click();
    const dialog = page.getByRole("dialog", { name: "Are you sure you want to exit?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("The encryption key saved in this browser will be forgotten.");
    await dialog.getByRole("button", { name: "Copy key" }).waitFor();
    await shots(page, "exit-warning");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("opens the key dialog when API keys are submitted without a saved key, sends nothing, then saves once on a double click with a toast in words", async () => {
    // forget the key (asked first)
    await page.getByRole("button", { name: "Encryption key" }).click();
    await page.getByRole("button", { name: "Forget key" }).click();
    await page.getByRole("button", { name: "Forget key" }).last().click();
    await page.getByText("No key is saved.", { exact: false }).waitFor();
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => localStorage.getItem("panel_state"))).toBeNull();

    await page.goto(`${served.url}/apikeys`);
    await page.locator("input[name=client]").fill("Acme");
    await page.locator("input[name=account]").fill("main");
    await page.locator("input[name=pair]").fill("BTC/USDT");
    await page.locator("input[name=api]").fill("plain-api-key");
    await page.locator("input[name=secret]").fill("plain-secret");
    await page.getByLabel("Exchange", { exact: true }).click();
    await page.getByRole("option", { name: "Paper (simulated)" }).click();
    const submit = page.getByRole("form", { name: "Add API keys" }).getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    const keyDialog = page.getByRole("dialog", { name: "Encryption key" });
    await keyDialog.getByText("Save an encryption key first", { exact: false }).waitFor();
    await shots(page, "apikeys-no-key");
    await logSettled();
    expect(served.count("POST", /^\/token\/admin\/apikeys$/)).toBe(0);
    // no saved key: Generate does not ask
    await keyDialog.getByRole("button", { name: "Generate" }).click();
    await page.getByTestId("generated-key").waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    await submit.dblclick();
    await toast(page, "API key saved").waitFor();
    await until("the form emptied", async () => (await page.locator("input[name=client]").inputValue()) === "");
    await logSettled();
    expect(served.count("POST", /^\/token\/admin\/apikeys$/)).toBe(1);
  });

  it("asks before deleting an API key and sends one DELETE for a double click", async () => {
    await page.getByRole("radio", { name: "Acme/paper/main" }).check();
    const del = page.getByRole("form", { name: "Remove API keys" }).getByRole("button", { name: "Delete" });
    await enabled(del);
    await del.click();
    const ask = page.getByRole("alertdialog");
    await ask.getByText("Delete the API key of Acme/paper/main?").waitFor();
    await shots(page, "apikeys-delete-question");
    await ask.getByRole("button", { name: "Cancel" }).click();
    await logSettled();
    expect(served.count("DELETE", /^\/token\/admin\/apikeys$/)).toBe(0);
    await del.click();
    await ask.getByRole("button", { name: "Delete API key" }).dblclick();
    await toast(page, "API key deleted").waitFor();
    await ask.waitFor({ state: "detached" });
    await logSettled();
    expect(served.count("DELETE", /^\/token\/admin\/apikeys$/)).toBe(1);
  });

  it("permits a user once on a double click, changes the scope ('User scope changed'), asks before removing, and removes with one DELETE", async () => {
    await page.goto(`${served.url}/user/create`);
    await page.locator("input[name=email]").fill(TRADER);
    await page.getByLabel("Demo").check();
    const permit = page.getByRole("button", { name: "Permit login" });
    await enabled(permit);
    await permit.dblclick();
    await page.waitForURL(/\/users$/);
    await toast(page, "User permitted to sign in").waitFor();
    await logSettled();
    expect(served.count("POST", /^\/token\/admin\/user$/)).toBe(1);
    await page
      .getByRole("row", { name: new RegExp(TRADER) })
      .getByRole("link", { name: "Edit" })
      .click();
    await page.waitForURL(/\/user\/edit\//);
    await page.getByText(TRADER, { exact: true }).waitFor();
    // Demo is the only client: choosing it again is a valid selection to send
    const change = page.getByRole("button", { name: "Change scope" });
    await enabled(change);
    await change.click();
    await toast(page, "User scope changed").waitFor();
    expect(await page.getByText(/^Success/).count()).toBe(0);

    const remove = page.getByRole("button", { name: "Remove", exact: true });
    await remove.click();
    const ask = page.getByRole("alertdialog");
    await ask.getByText(`Remove ${TRADER}?`).waitFor();
    await shots(page, "user-remove-question");
    await ask.getByRole("button", { name: "Cancel" }).click();
    await logSettled();
    expect(served.count("DELETE", /^\/token\/admin\/user\//)).toBe(0);
    await remove.click();
    await ask.getByRole("button", { name: "Remove user" }).dblclick();
    await page.waitForURL(/\/users$/);
    await toast(page, "User removed").waitFor();
    await logSettled();
    expect(served.count("DELETE", /^\/token\/admin\/user\//)).toBe(1);
    expect(await page.getByRole("row", { name: new RegExp(TRADER) }).count()).toBe(0);
  });

  it("refuses removing yourself: the Remove of your own account is disabled and says why", async () => {
    await page.goto(`${served.url}/user/edit/${adminId}`);
    await page.getByText(ADMIN, { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Remove", exact: true }).isDisabled()).toBe(true);
    await page.getByText("This is your own account: another admin can remove it, you cannot.").waitFor();
    await shots(page, "user-self");
  });

  it("ends the session when it is revoked in another tab: the page says so, the header drops admin entries and Exit, and signing in again returns to the page", async () => {
    await page.goto(`${served.url}/users`);
    await page.getByRole("heading", { name: "Users Manager" }).waitFor();
    const other = await browser.context.newPage();
    try {
      await other.goto(`${served.url}/`);
      await other.getByRole("article", { name: "Client Demo" }).waitFor();
      await other.getByRole("button", { name: "Exit" }).click();
      await other.getByRole("dialog").getByRole("button", { name: "Submit" }).click();
      await other.waitForURL(/\/login\/password$/);
    } finally {
      await other.close();
    }
    await page.waitForURL(/\/login\/password\?redirect=/, { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/users");
    const notice = page.getByTestId("session-ended");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/Your session was ended|You exited in another tab/);
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByText("Users Manager", { exact: true }).count()).toBe(0);
    expect(await nav.getByText("API Keys Manager", { exact: true }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Exit" }).count()).toBe(0);
    // the other tab's Exit cleared the shared storage, the saved key with it: this header says so too
    expect(await page.getByRole("button", { name: "Encryption key" }).textContent()).toBe("Key");
    await nav.getByText("Login", { exact: true }).waitFor();
    await shots(page, "session-ended");

    // sign in again: one code for a double click on Send code, then back to /users
    await page.locator("input[name=email]").fill(ADMIN);
    await page.locator("input[name=password]").fill(PASSWORD);
    const codesBefore = served.count("POST", /^\/code$/);
    const send = page.getByRole("button", { name: "Send code" });
    await enabled(send);
    await send.dblclick();
    const code = await until("outbox code", async () =>
      served.count("POST", /^\/code$/) > codesBefore ? lastCode(served.dataDir, ADMIN) : undefined,
    );
    await page.locator("input[name=code]").fill(code);
    const submit = page.getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await page.waitForURL(/\/users$/, { timeout: 15_000 });
    await logSettled();
    expect(served.count("POST", /^\/code$/)).toBe(codesBefore + 1);
    const outbox = readFileSync(join(served.dataDir, "outbox.jsonl"), "utf8").trim().split("\n");
    expect(outbox.filter((l) => (JSON.parse(l) as { to: string }).to === ADMIN).length).toBe(1);
  });

  it("says so when the server stops answering instead of showing a stale page; the same error every 15 s stays one toast; back, the page is in use again", async () => {
    await page.goto(`${served.url}/`);
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    await served.stop();
    const banner = page.getByRole("alert").filter({ hasText: "The server does not answer" });
    await banner.waitFor({ timeout: 15_000 });
    expect(await page.locator("main").getAttribute("inert")).not.toBeNull();
    await shots(page, "server-down");
    // the live channel fails at each 15 s tick; with the pointer resting on the toasts their timers
    // pause (sonner), so copies would stack: the same error stays one toast instead
    await toast(page, "WebSocket Error").waitFor({ timeout: 20_000 });
    // the front toast of the stack (the Disconnected after the error) takes the pointer: the whole stack pauses
    await page.locator("[data-sonner-toast][data-front=true]").hover({ force: true });
    const before = (await raisedTitles(page)).filter((t) => t === "WebSocket Error").length;
    await until(
      "a second failed attempt",
      async () =>
        (await raisedTitles(page)).filter((t) => t === "WebSocket Error").length > before ? true : undefined,
      20_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await toast(page, "WebSocket Error").count()).toBe(1);
    expect(await banner.count()).toBe(1);

    // the server comes back on the same address with the same data: the banner goes, the page is in use again
    await page.mouse.move(700, 600);
    served = await startLoggedServe({}, { dataDir: served.dataDir, port: Number(new URL(served.url).port) });
    await banner.waitFor({ state: "detached", timeout: 15_000 });
    expect(await page.locator("main").getAttribute("inert")).toBeNull();
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    await page.getByPlaceholder("Filter by name").fill("dem");
    expect(page.url()).toBe(`${served.url}/`);
  }, 60_000);
});

describe.skipIf(!hasChromium)("a short-lived access token (docs/dashboard.md 'Sessions')", () => {
  let served: LoggedServe;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;

  beforeAll(async () => {
    ensureWebBuilt();
    // 20 s: far under the seed's 3-minute refresh margin, which used to refresh in a loop
    served = await startLoggedServe({ accessTtlMs: 20_000 });
    browser = await launch();
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (served) rmSync(served.dataDir, { recursive: true, force: true });
  });

  it("refreshes at half its life instead of looping, and says 'expired' on the login screen when the refresh token lapses", async () => {
    await registerFirstAdmin(page, served, ADMIN, PASSWORD);
    await page.getByRole("article", { name: "Client Demo" }).waitFor();
    const start = served.count("POST", /^\/user\/refresh$/);
    await new Promise((r) => setTimeout(r, 12_000));
    // one refresh about 10 s in (half of 20 s); the loop made about 60 in 10 s
    const refreshes = served.count("POST", /^\/user\/refresh$/) - start;
    expect(refreshes).toBeGreaterThanOrEqual(1);
    expect(refreshes).toBeLessThanOrEqual(2);
    await page.goto(`${served.url}/users`);
    await page.getByRole("heading", { name: "Users Manager" }).waitFor();
    // the refresh token's expiry passes (docs/dashboard-rules.md#states: refresh only while it is valid)
    await page.evaluate(() => localStorage.setItem("refreshTokenExpiry", String(Date.now() - 1)));
    await page.waitForURL(/\/login\/password\?redirect=%2Fusers$/, { timeout: 20_000 });
    await page.getByText("Your session expired. Sign in again to continue.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Exit" }).count()).toBe(0);
  }, 60_000);
});
