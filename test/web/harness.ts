/**
 * Browser-test harness: a real `spotdesk serve` on an ephemeral port with a fresh data directory
 * serving the built app, and Debian's Chromium through playwright-core with a new empty profile.
 * When CI=true a missing Chromium fails the suite; locally the suite is skipped with a message.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ROOT = new URL("../..", import.meta.url).pathname;
export const hasChromium = existsSync(CHROMIUM);

export function requireChromium(): void {
  if (!hasChromium && process.env.CI === "true")
    throw new Error(`Chromium is missing at ${CHROMIUM}: browser tests cannot run in CI`);
  if (!hasChromium) console.warn(`[test/web] skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
}

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else if (!/\.test\.tsx?$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/** Builds web/dist once, only when it is older than web/src, lib or the Vite config. */
export function ensureWebBuilt(): void {
  const index = join(ROOT, "web/dist/index.html");
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(
    newest(join(ROOT, "web/src")),
    newest(join(ROOT, "web/public")),
    newest(join(ROOT, "lib")),
    statSync(join(ROOT, "web/vite.config.ts")).mtimeMs,
    statSync(join(ROOT, "web/index.html")).mtimeMs,
  );
  if (built > sources) return;
  execFileSync(
    process.execPath,
    [
      join(ROOT, "node_modules/vite/bin/vite.js"),
      "build",
      "--config",
      join(ROOT, "web/vite.config.ts"),
      "--logLevel",
      "warn",
    ],
    {
      cwd: ROOT,
      stdio: "inherit",
      // vitest sets NODE_ENV=test, which would give React's development build
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
}

export interface Served {
  url: string;
  /** the serve process, for a test that stops it (SIGSTOP) and lets it go on */
  pid: number;
  dataDir: string;
  setupCode: string;
  stop(): Promise<void>;
}

/**
 * Starts the built `serve` on a free port with its own data directory. `config` is written as that
 * directory's `config.json` (server/README.md) before the start, e.g. a suite's own call limit.
 */
export async function startServe(config?: Record<string, unknown>): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-web-"));
  if (config) writeFileSync(join(dataDir, "config.json"), JSON.stringify(config));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, "bin/spotdesk"), "serve", "--port", "0", "--data", dataDir],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, SPOTDESK_LOG_LEVEL: "warn" },
    },
  );
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
    child.stdout?.resume();
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  const setupCode = readFileSync(join(dataDir, "setup-code"), "utf8").trim();
  return {
    // localhost: the WebAuthn relying party id of the server (docs/decisions.md#d7)
    url: `http://localhost:${port}`,
    pid: child.pid ?? 0,
    dataDir,
    setupCode,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The last code the server wrote to the outbox for an e-mail (docs/decisions.md#d18). */
export function lastCode(dataDir: string, email: string): string {
  const lines = readFileSync(join(dataDir, "outbox.jsonl"), "utf8").trim().split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = JSON.parse(lines[i] as string) as { to: string; code: string };
    if (m.to === email) return m.code;
  }
  throw new Error(`no code for ${email}`);
}

/** A Content-Security-Policy violation seen in the browser (issue 23: every browser test runs with the policy enforced). */
export interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  page: string;
}

/**
 * Chromium with a fresh profile. Every page records the `securitypolicyviolation` events of its
 * documents (an init script, so it listens before the app's first script runs) and Chromium's own
 * CSP console errors; `violations()` hands them over and forgets them, for an `afterEach` that
 * expects none.
 */
export async function launch(): Promise<{
  context: BrowserContext;
  page: Page;
  violations(): Promise<Violation[]>;
  close(): Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), "spotdesk-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
    viewport: { width: 1366, height: 800 },
  });
  let seen: Violation[] = [];
  await context.exposeBinding("__spotdeskCspViolation", (_source, v: Violation) => {
    seen.push(v);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (e) => {
        const report = (window as unknown as { __spotdeskCspViolation(v: unknown): Promise<void> })
          .__spotdeskCspViolation;
        void report({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample, page: e.documentURI });
      },
      true,
    );
  });
  const watch = (p: Page) =>
    p.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text()))
        seen.push({ directive: "console", blocked: "", sample: m.text(), page: p.url() });
    });
  context.pages().forEach(watch);
  context.on("page", watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async violations() {
      // the events reach us through a binding: let any in flight arrive first
      await new Promise((r) => setTimeout(r, 100));
      const out = seen;
      seen = [];
      return out;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ROOT, "test-results", `web-${name}.png`), fullPage: true });
}

/** Polls `check` every 100 ms until it gives a value, or fails naming `what` after `ms`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until a control is enabled. */
export const enabled = (l: Locator, ms = 15_000): Promise<true> =>
  until("enabled", async () => (await l.isEnabled()) || undefined, ms);

/** The first admin registers with the setup code (docs/decisions.md#d5) and lands on Home. */
export async function registerFirstAdmin(
  page: Page,
  served: Pick<Served, "url" | "setupCode">,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${served.url}/registration`);
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(password);
  await page.locator("input[name=repeat]").fill(password);
  await page.locator("input[name=code]").fill(served.setupCode);
  const submit = page.getByRole("button", { name: "Submit" });
  await enabled(submit);
  await submit.click();
  await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
}
