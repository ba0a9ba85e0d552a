/**
 * Early, specific validation in Chromium against a real `spotdesk serve` (issue 17 "Early, specific
 * validation", docs/dashboard-delivery.md#validation): a disabled button says what it waits for, a
 * pasted code loses its spaces, Create user has the e-mail dot, and the pair is checked with the
 * server's own schema before anything is sealed or sent.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

const ADMIN = "admin@example.com";
const PASSWORD = "correct horse battery";

/** A paste as the browser delivers it: a `paste` event carrying the clipboard's text. */
const paste = (input: Locator, text: string) =>
  input.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);

/** The text a button is described by (its "waiting for" hint), or "" when it has none. */
const describedBy = (button: Locator) =>
  button.evaluate((b) =>
    (b.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );

describe.skipIf(!hasChromium)("early, specific validation in Chromium (issue 17)", () => {
  let served: Served;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    ensureWebBuilt();
    served = await startServe();
    browser = await launch();
    page = browser.page;
    page.setDefaultTimeout(8_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(async () => {
    expect(await browser.violations()).toEqual([]);
  });

  it("says what Submit waits for on registration, field by field, and trims a pasted code", async () => {
    await page.goto(`${served.url}/login/key`);
    const keySubmit = page.getByRole("button", { name: "Submit" });
    await keySubmit.waitFor();
    expect(await describedBy(keySubmit)).toBe("Waiting for a valid e-mail");
    await page.locator("input[name=email]").fill(ADMIN);
    await enabled(keySubmit);
    expect(await describedBy(keySubmit)).toBe("");

    await page.goto(`${served.url}/registration`);
    const submit = page.getByRole("button", { name: "Submit" });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    expect(await describedBy(submit)).toBe(
      "Waiting for a valid e-mail, a password of 8 or more characters, the password repeated and the 8-character code",
    );
    await page.locator("input[name=email]").fill(ADMIN);
    await page.locator("input[name=password]").fill(PASSWORD);
    await until("the e-mail and password accepted", async () =>
      (await describedBy(submit)) === "Waiting for the password repeated and the 8-character code" ? true : undefined,
    );
    // the setup code as an e-mail client copies it: spaces inside, a line break after
    const code = page.locator("input[name=code]");
    await paste(code, ` ${served.setupCode.slice(0, 4)} ${served.setupCode.slice(4)}\n`);
    expect(await code.inputValue()).toBe(served.setupCode);
    await until("the repeat asked for", async () =>
      (await describedBy(submit)) === "Waiting for the password repeated" ? true : undefined,
    );
    await shot(page, "forms-waiting");
    await page.locator("input[name=repeat]").fill(PASSWORD);
    await enabled(submit);
    expect(await describedBy(submit)).toBe("");
    await submit.click();
    await page.waitForURL(`${served.url}/`, { timeout: 15_000 });
  });

  it("shows the e-mail dot on Create user and says Permit login waits for a client", async () => {
    await page.goto(`${served.url}/user/create`);
    const form = page.getByRole("form", { name: "Create user" });
    const dot = form.getByRole("img", { name: /e-mail/ });
    const permit = form.getByRole("button", { name: "Permit login" });
    await form.locator("input[name=email]").fill("someone@nowhere");
    // the dot judges the settled e-mail (docs/dashboard-rules.md#validation: 500 ms debounce)
    await until("the red dot", async () => ((await dot.getAttribute("class"))?.includes("bad") ? true : undefined));
    expect(await dot.getAttribute("data-valid")).toBe("no");
    expect(await describedBy(permit)).toBe("Waiting for a valid e-mail and a client");
    await form.locator("input[name=email]").fill("someone@example.com");
    await until("the green dot", async () => ((await dot.getAttribute("class"))?.includes("ok") ? true : undefined));
    expect(await dot.getAttribute("data-valid")).toBe("yes");
    expect(await describedBy(permit)).toBe("Waiting for a client");
    expect(await permit.isDisabled()).toBe(true);
    // the form's own e-mail is someone else's: the browser must not fill the operator's in
    expect(await form.locator("input[name=email]").getAttribute("autocomplete")).toBe("off");
  });

  it("checks the pair with the server's schema before sealing anything, naming the format", async () => {
    await page.goto(`${served.url}/apikeys`);
    const form = page.getByRole("form", { name: "Add API keys" });
    const submit = form.getByRole("button", { name: "Submit" });
    await form.locator("input[name=client]").fill("Acme");
    await form.locator("input[name=account]").fill("main");
    await form.locator("input[name=api]").fill("k");
    await form.locator("input[name=secret]").fill("s");
    await form.getByLabel("Exchange", { exact: true }).click();
    await page.getByRole("option", { name: "Paper (simulated)" }).click();
    await form.locator("input[name=pair]").fill("BTCUSDT");
    await form.getByText("Write the pair as BASE/QUOTE, for example BTC/USDT").waitFor();
    expect(await describedBy(submit)).toBe("Waiting for a pair such as BTC/USDT");
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, "forms-pair");
    await form.locator("input[name=pair]").fill("btc/usdt");
    await form.getByText("Write the pair as BASE/QUOTE, for example BTC/USDT").waitFor({ state: "detached" });
    await enabled(submit);
  });
});
