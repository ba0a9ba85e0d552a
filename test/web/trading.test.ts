/**
 * The trading view in Chromium against a real `spotdesk serve` on paper (issue 13 "Checks",
 * docs/web-trading.md): the book is live and equals the server's book; hover and click fill the
 * panel with the cumulative numbers; Buy places an order that shows in open orders and locks
 * balance; cancel and Cancel all empty it; a zero amount shows the seed's toast; a far price asks
 * the second confirmation; the bots forms; the chart falls back offline. The page's policy is
 * enforced in every step (issue 23). Screenshots go to test-results/ (dark, light, phone).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { Decimal } from "../../lib/decimal.js";
import {
  enabled,
  ensureWebBuilt,
  hasChromium,
  launch,
  ROOT,
  registerFirstAdmin,
  requireChromium,
  type Served,
  shot,
  startServe,
  until as untilDefault,
} from "./harness.js";

requireChromium();
// a browser and a server on a machine shared with other suites: room for a slow moment, not a timed assertion
vi.setConfig({ testTimeout: 60_000 });

/** the trading view's waits: a browser, a server and the bot runner on a shared machine */
const until = <T>(what: string, check: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> =>
  untilDefault(what, check, ms);
const ADMIN = "admin@example.com";
const PASSWORD = "correct horse battery";
const DEMO = "/c/[Demo][paper][main]";

interface Shown {
  version: number;
  asks: [string, string][];
  bids: [string, string][];
}

/** The levels the page shows (price and amount cells), best first, and the server's version they are (through the relay). */
async function shownBook(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const section = document.querySelector("section[aria-label='Order book']") as HTMLElement;
    const rows = (side: string) =>
      [...section.querySelectorAll(`tr[data-testid='${side}-row']`)].map((tr) => {
        const cells = tr.querySelectorAll("td");
        return [cells[0]!.textContent ?? "", cells[1]!.textContent ?? ""] as [string, string];
      });
    // asks are drawn worst at the top: best first is the reverse
    return { version: Number(section.dataset.sourceVersion), asks: rows("ask").reverse(), bids: rows("bid") };
  });
}

describe.skipIf(!hasChromium)("the trading view on paper (issue 13)", () => {
  let served: Served;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    ensureWebBuilt();
    served = await startServe();
    browser = await launch();
    page = browser.page;
    await registerFirstAdmin(page, served, ADMIN, PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  afterEach(async () => {
    // a test that failed with a dialog open must not take the next tests with it
    for (let i = 0; i < 3 && (await page.getByRole("dialog").count()) > 0; i++) await page.keyboard.press("Escape");
    expect(await browser.violations()).toEqual([]);
  });

  it("shows the live book through the server's relay, equal to the server's book at the same version (docs/dashboard-rules.md#screens, #states)", async () => {
    // the server's own readers of the same relay feed: every book it sends, by version
    const seen = new Map<number, { bids: [string, string][]; asks: [string, string][] }>();
    const ws = new WebSocket(`${served.url.replace(/^http/, "ws")}/book?exchange=paper&pair=BTC-USDT&depth=20`);
    ws.on("message", (m) => {
      const { data } = JSON.parse(String(m)) as {
        data: { version: number; bids: [string, string][]; asks: [string, string][] };
      };
      seen.set(data.version, data);
    });
    try {
      await page.goto(`${served.url}${DEMO}`);
      const book = page.getByRole("region", { name: "Order book" });
      await until("live book", async () => (await book.getAttribute("data-state")) === "live", 30_000);
      expect(await book.getAttribute("data-source")).toBe("relay");
      let matched = 0;
      const versions = new Set<number>();
      await until(
        "three shown books matched",
        async () => {
          const shown = await shownBook(page);
          const server = seen.get(shown.version);
          if (!server || versions.has(shown.version)) return false;
          expect(shown.asks.length).toBe(20);
          expect(shown.bids.length).toBe(20);
          expect(shown.asks).toEqual(server.asks);
          expect(shown.bids).toEqual(server.bids);
          versions.add(shown.version);
          return ++matched >= 3;
        },
        30_000,
      );
      // the middle row: the mid and the "~" spread of the shown book
      const shown = await shownBook(page);
      const mid = new Decimal(shown.asks[0]![0]).plus(shown.bids[0]![0]).dividedBy(2);
      expect(await page.getByTestId("spread").textContent()).toMatch(/^~\d+\.(\d{2}|\d{4})%$/);
      expect(new Decimal((await page.getByTestId("mid").textContent()) ?? "0").isPositive()).toBe(true);
      expect(mid.isPositive()).toBe(true);
      await shot(page, "trading-dark");
    } finally {
      ws.close();
    }
  }, 90_000);

  const panel = () => page.getByRole("region", { name: "Trading panel" });
  const input = (name: "Price" | "Amount" | "Quote") => panel().getByLabel(name, { exact: true });
  const openOrders = () => page.getByRole("region", { name: "Open orders" });

  it("hover highlights the cumulative rows and a click fills the panel with price, cumulative amount and total (docs/dashboard-rules.md#screens)", async () => {
    const book = page.getByRole("region", { name: "Order book" });
    const askRows = book.locator("tr[data-testid=ask-row]");
    const count = await askRows.count();
    // the third ask from the best: asks are drawn worst at the top, so it is third from the bottom
    await askRows.nth(count - 3).hover();
    await until("highlight", async () => (await book.locator("tr.hl").count()) === 3);
    const hovered = await page.evaluate(() => {
      const rows = [...document.querySelectorAll("tr[data-testid='ask-row']")].reverse();
      const cells = rows.slice(0, 3).map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""));
      return { cells, sum: document.querySelector("[data-testid='book-hover']")?.textContent ?? "" };
    });
    const cumAmount = hovered.cells.reduce((a, c) => a.plus(c[1]!), new Decimal(0));
    const cumTotal = hovered.cells.reduce((a, c) => a.plus(new Decimal(c[0]!).times(c[1]!)), new Decimal(0));
    expect(hovered.sum).toBe(`Σ ${cumAmount.toFixed()} BTC · ${cumTotal.toFixed()} USDT`);

    // the click: read the shown rows and click in the same task, so the numbers are the ones clicked
    const clicked = await page.evaluate(() => {
      const rows = [...document.querySelectorAll("tr[data-testid='bid-row']")];
      const cells = rows.slice(0, 4).map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""));
      (rows[3] as HTMLElement).click();
      return cells;
    });
    const amount = clicked.reduce((a, c) => a.plus(c[1]!), new Decimal(0));
    const total = clicked.reduce((a, c) => a.plus(new Decimal(c[0]!).times(c[1]!)), new Decimal(0));
    await until("panel filled", async () => (await input("Price").inputValue()) === clicked[3]![0]);
    expect(await input("Amount").inputValue()).toBe(amount.toFixed());
    expect(await input("Quote").inputValue()).toBe(total.toFixed());
    await shot(page, "trading-picked");
  });

  it("reads the panel's numbers as docs/dashboard-rules.md#validation says: a comma becomes a dot, invalid text reverts on blur", async () => {
    await input("Price").fill("63,5");
    await input("Amount").click();
    expect(await input("Price").inputValue()).toBe("63.5");
    await input("Price").fill("6x3");
    await input("Amount").click();
    expect(await input("Price").inputValue()).toBe("63.5");
    await input("Price").fill("");
  });

  async function bestPrices(): Promise<{ bid: Decimal; ask: Decimal }> {
    const shown = await shownBook(page);
    return { bid: new Decimal(shown.bids[0]![0]), ask: new Decimal(shown.asks[0]![0]) };
  }

  async function fill(price: string, amount: string, quote = "") {
    await input("Price").fill(price);
    await input("Amount").fill(amount);
    await input("Quote").fill(quote);
  }

  it("Buy places an order that appears in open orders and locks the balance (docs/dashboard-rules.md#screens, docs/api.md#calls)", async () => {
    const { bid } = await bestPrices();
    const price = bid.minus(200).integerValue().toFixed();
    await fill(price, "0.01");
    await panel().getByRole("button", { name: "Buy" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Send?" }).waitFor();
    expect(await dialog.textContent()).toContain(`Buy 0.01 BTC @ ${price} USDT on Demo / paper / main`);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await openOrders().getByRole("heading", { name: "Open orders (1)" }).waitFor();
    expect(await openOrders().getByTestId("order-price").textContent()).toBe(price);
    expect(await openOrders().getByTestId("order-total").textContent()).toBe(
      new Decimal(price).times("0.01").toFixed(),
    );
    const locked = new Decimal(price).times("0.01");
    await until(
      "locked USDT",
      async () => (await page.getByTestId("locked-USDT").getAttribute("title")) === locked.toFixed(),
    );
    expect(await page.getByTestId("free-USDT").getAttribute("title")).toBe(new Decimal(10000).minus(locked).toFixed());
    // the row tooltip: id, quantity, status, date, and docs/exchange-rules.md#chart's 200 px lines
    await openOrders().getByRole("listitem").first().hover();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    const text = (await tip.textContent()) ?? "";
    expect(text).toContain("quantity: 0.01");
    expect(text).toContain("status: open");
    expect(text).toMatch(/date: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(text).toContain(`Avg. price: ${new Decimal(price).toFixed(6)}`);
    expect(text).toContain("Amount: 0.01 BTC");
    expect(text).toContain(`Volume: ${locked.toFixed(6)} USDT`);
    expect(await page.locator(".order-tip").evaluate((e) => e.getBoundingClientRect().width)).toBe(200);
    await shot(page, "trading-order");
    await page.mouse.move(0, 0);
  });

  it("cancel takes one order away and Cancel all empties the list (docs/dashboard-rules.md#screens, docs/api.md#calls)", async () => {
    const { bid } = await bestPrices();
    for (const offset of [300, 400]) {
      await fill(bid.minus(offset).integerValue().toFixed(), "0.01");
      await panel().getByRole("button", { name: "Buy" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("dialog").waitFor({ state: "detached" });
    }
    await openOrders().getByRole("heading", { name: "Open orders (3)" }).waitFor();
    // sorted by price descending (docs/dashboard-rules.md#screens)
    const prices = await openOrders().getByTestId("order-price").allTextContents();
    expect(prices).toEqual([...prices].sort((a, b) => new Decimal(b).comparedTo(a) ?? 0));
    await openOrders()
      .getByRole("button", { name: /^Cancel order / })
      .first()
      .click();
    await openOrders().getByRole("heading", { name: "Open orders (2)" }).waitFor();
    await openOrders().getByRole("button", { name: "Cancel all" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel all orders" }).click();
    await openOrders().getByRole("heading", { name: "Open orders (0)" }).waitFor();
    await openOrders().getByText("No open orders").waitFor();
    await until("nothing locked", async () => (await page.getByTestId("locked-USDT").getAttribute("title")) === "0");
  });

  it('the Post-only toggle sends a maker-only order: paper refuses one that would take, and a resting one is placed (docs/orders.md "Post-only")', async () => {
    if (!page.url().endsWith(encodeURI(DEMO)) && !page.url().endsWith(DEMO)) await page.goto(`${served.url}${DEMO}`);
    const book = page.getByRole("region", { name: "Order book" });
    await until("live book", async () => (await book.getAttribute("data-state")) === "live", 30_000);
    await until(
      "book rows",
      async () => (await shownBook(page)).asks.length > 0 && (await shownBook(page)).bids.length > 0,
    );
    const toggle = panel().getByRole("checkbox", { name: /Post-only/ });
    expect(await toggle.isEnabled()).toBe(true);
    await toggle.check();
    const { ask } = await bestPrices();
    const crossing = ask.plus(20).integerValue().toFixed();
    await fill(crossing, "0.01");
    await panel().getByRole("button", { name: "Buy" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Send?" }).waitFor();
    expect(await dialog.textContent()).toContain(`Buy 0.01 BTC @ ${crossing} USDT on Demo / paper / main (post-only)`);
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    if ((await dialog.getByRole("heading", { name: "Send anyway?" }).count()) > 0)
      await dialog.getByRole("button", { name: "Send anyway" }).click();
    await page
      .getByText(/Post-only order refused: a buy at/)
      .first()
      .waitFor();
    await openOrders().getByRole("heading", { name: "Open orders (0)" }).waitFor();
    const { bid } = await bestPrices();
    const resting = bid.minus(250).integerValue().toFixed();
    await fill(resting, "0.01");
    await panel().getByRole("button", { name: "Buy" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Send", exact: true }).click();
    await openOrders().getByRole("heading", { name: "Open orders (1)" }).waitFor();
    await toggle.uncheck();
    await openOrders().getByRole("button", { name: "Cancel all" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel all orders" }).click();
    await openOrders().getByRole("heading", { name: "Open orders (0)" }).waitFor();
  });

  it("refuses a Buy the free balance cannot pay before asking, saying what is missing in full (issue 20)", async () => {
    const { bid } = await bestPrices();
    await fill(bid.toFixed(), "1");
    await panel().getByRole("button", { name: "Buy" }).click();
    const alert = panel().getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^Not enough USDT to buy 1 BTC @ \d+ USDT: needs \d+ USDT, 10000 USDT free, \d+ USDT missing\. Not sent\.$/,
    );
    expect(await page.getByRole("dialog").count()).toBe(0);
  });

  it("asks a second, explicit confirmation for a far price, naming how far and the cost against the mid (issue 20)", async () => {
    const { ask } = await bestPrices();
    await fill(ask.times("1.5").integerValue().toFixed(), "0.01");
    await panel().getByRole("button", { name: "Buy" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByRole("heading", { name: "Send anyway?" }).waitFor();
    const warning = await dialog.getByRole("alert").textContent();
    expect(warning).toMatch(
      /^FAR PRICE: Buy price \d+ USDT is 50(\.\d+)?% above the best ask \d+ USDT \(far-price limit 5%\), about [\d.]+ USDT more than at the mid [\d.]+; press 'Send anyway' to send it as typed$/,
    );
    await shot(page, "trading-far-price");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await openOrders().getByRole("button", { name: "Refresh open orders" }).click();
    await page.waitForTimeout(500);
    expect(await openOrders().getByRole("heading", { name: "Open orders (0)" }).count()).toBe(1);
  });

  it("sets the pair's decimals and shows 'Incorrect amount / It is zero!' for an amount that is zero after them (docs/dashboard-rules.md#validation, docs/api.md#errors, docs/decisions.md#d1)", async () => {
    await page.getByRole("button", { name: "Decimals not set" }).click();
    await page.locator("input[name=priceDecimals]").fill("2");
    await page.locator("input[name=amountDecimals]").fill("4");
    await page.getByRole("button", { name: "Save decimals" }).click();
    await page.getByRole("button", { name: "Decimals 2/4" }).waitFor();
    await page.keyboard.press("Escape");
    const { bid } = await bestPrices();
    await fill(bid.toFixed(), "0.00001");
    await panel().getByRole("button", { name: "Buy" }).click();
    await page.getByText("Incorrect amount", { exact: true }).waitFor();
    await page.getByText("It is zero!", { exact: true }).first().waitFor();
    expect(await panel().getByRole("alert").textContent()).toBe("Incorrect amount / It is zero!");
    expect(await page.getByRole("dialog").count()).toBe(0);
    // the quote path: amount = quote / price, cut to 4 decimals
    await fill(bid.toFixed(), "", "0.5");
    await panel().getByRole("button", { name: "Buy" }).click();
    await page.getByText("It is zero!", { exact: true }).first().waitFor();
    await fill(bid.toFixed(), "", "1000");
    await panel().getByRole("button", { name: "Buy" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Send?" }).waitFor();
    const amount = new Decimal(1000).dividedBy(bid).decimalPlaces(4, Decimal.ROUND_DOWN).toFixed();
    expect(await dialog.textContent()).toContain(`Buy ${amount} BTC @ ${bid.toFixed()} USDT`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await shot(page, "trading-zero-toast");
  });

  /** Per bot form: values the seed refuses (Create stays disabled, the message shows), then valid values. */
  const BOT_CASES: {
    button: string;
    form: string;
    invalid: [string, string][];
    error: string | RegExp;
    valid: [string, string][];
    /** what the runner publishes (docs/decisions.md#d21-#d25): the floating order, grid counts, SD's orders and daily quote, or 'not run' (docs/decisions.md#d16) */
    state: RegExp;
    letter: string;
  }[] = [
    {
      button: "Floating Order",
      form: "Floating Order bot",
      invalid: [
        ["Quote", "10"],
        ["module:dynamic-price", "on"],
        ["dynamic-price min", "3"],
        ["dynamic-price max", "2"],
      ],
      error: "Incorrect params for dynamic-price module",
      valid: [["dynamic-price min", "0.5"]],
      state: /^(order Buy [\d.]+ @ [\d.]+|no order)/,
      letter: "F",
    },
    {
      button: "Grid",
      form: "Grid bot",
      invalid: [
        ["Quote", "100"],
        ["Order count", "3"],
      ],
      error: "size: Order count must be greater than 0 and even",
      valid: [["Order count", "4"]],
      state: /^onBuy \d+ · onSell \d+/,
      letter: "G",
    },
    {
      button: "SD",
      form: "SD bot",
      invalid: [["Refill period", "0"]],
      error: "refillPeriod: Refill period must be greater than 0",
      valid: [["Refill period", "60"]],
      state: /^\d+ orders · left Buy [\d.]+ · Sell [\d.]+/,
      letter: "SD",
    },
    {
      button: "CC",
      form: "CC bot",
      invalid: [
        ["Quote", "5"],
        ["Acceptable spread", "1"],
      ],
      error: "acceptableSpread: Acceptable spread must be greater than 1",
      valid: [["Acceptable spread", "1.5"]],
      state: /^not run$/,
      letter: "CC",
    },
    {
      button: "Volume",
      form: "Volume bot",
      invalid: [
        ["Volume", "1000"],
        ["Min quote", "1"],
        ["Price range min", "2"],
        ["Price range max", "1"],
        ["Step range min", "1"],
        ["Step range max", "2"],
      ],
      error: "priceRange: Range minimum must not exceed its maximum",
      valid: [["Price range max", "3"]],
      state: /^not run$/,
      letter: "V",
    },
    {
      button: "Heavy Volume",
      form: "Heavy Volume bot",
      invalid: [
        ["Price range min", "1"],
        ["Price range max", "2"],
        ["Trades range min", "1"],
        ["Trades range max", "5"],
        ["Quote range min", "10"],
        ["Quote range max", "20"],
        ["Step range min", "9"],
        ["Step range max", "3"],
      ],
      error: "stepRange: Range minimum must not exceed its maximum",
      valid: [["Step range min", "1"]],
      state: /^not run$/,
      letter: "HV",
    },
    {
      button: "Liquidity",
      form: "Liquidity bot",
      invalid: [
        ["Orders amount", "5"],
        ["P0", "0"],
        ["P1", "61000"],
        ["Q0", "10"],
        ["Q1", "20"],
      ],
      error: "P0: P0 must be greater than 0",
      valid: [
        ["P0", "60000"],
        ["Side", "Sell"],
      ],
      state: /^running/,
      letter: "L",
    },
  ];

  async function setField(form: Locator, label: string, value: string) {
    if (label.startsWith("module:")) return form.getByRole("checkbox", { name: label.slice(7) }).check();
    const field = form.getByLabel(label, { exact: true });
    if ((await field.evaluate((e) => e.tagName)) === "SELECT") return field.selectOption(value);
    return field.fill(value);
  }

  it("each bot form refuses the seed's invalid values and creates a valid bot that shows in the list with its state; Remove takes it away (docs/dashboard-rules.md#screens, #validation)", async () => {
    await page.goto(`${served.url}${DEMO}`);
    await page.getByRole("button", { name: /^Bots/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Bots · BTC/USDT" }).waitFor();
    const list = dialog.getByRole("list", { name: "Running bots" });
    for (const c of BOT_CASES) {
      await dialog.getByRole("group", { name: "New bot" }).getByRole("button", { name: c.button, exact: true }).click();
      const form = dialog.getByRole("form", { name: c.form });
      await form.waitFor();
      const create = form.getByRole("button", { name: "Create" });
      for (const [label, value] of c.invalid) await setField(form, label, value);
      expect(await create.isDisabled(), c.form).toBe(true);
      const problems = await form.getByRole("list", { name: "Problems" }).locator("li").allTextContents();
      expect(
        problems.some((p) => (typeof c.error === "string" ? p === c.error : c.error.test(p))),
        `${c.form}: ${problems.join(" | ")}`,
      ).toBe(true);
      for (const [label, value] of c.valid) await setField(form, label, value);
      await enabled(create);
      const before = await list.locator("li").count();
      await create.click();
      await form.waitFor({ state: "detached" });
      await until(`${c.form} in the list`, async () => (await list.locator("li").count()) === before + 1);
    }
    // in the seed's order (docs/dashboard-rules.md#constants): floating, SD, CC, heavy volume, volume, grid, then liquidity
    const cards = list.locator("li");
    expect(await cards.locator(".letter").allTextContents()).toEqual(["F", "SD", "CC", "HV", "V", "G", "L"]);
    // the runner's records as it publishes them (the runner trades on paper: the values move)
    await until(
      "states",
      async () => {
        const states = await cards.getByTestId("bot-state").allTextContents();
        const order = ["F", "SD", "CC", "HV", "V", "G", "L"];
        return states.every((text, i) => BOT_CASES.find((c) => c.letter === order[i])!.state.test(text));
      },
      45_000,
    ); // the runner trades on paper beside the whole loaded suite: give it time to publish
    // docs/decisions.md#d16: the bots that are not run show the grey "not run" indicator
    expect(await cards.nth(3).getByRole("img").getAttribute("aria-label")).toBe("not run");
    // the details dialog holds the setup as formatted JSON
    await cards.nth(5).getByRole("button", { name: "Details" }).click();
    const json = JSON.parse((await page.getByTestId("bot-json").textContent()) ?? "{}");
    expect(json).toMatchObject({ pair: "BTC/USDT", quote: 100, size: 4, percent: 5, profit: 0.2, RF: 0.5 });
    await shot(page, "trading-bot-details");
    await page.getByRole("button", { name: "Close" }).first().click();
    await shot(page, "trading-bots");
    // Remove takes a bot away, and its order with it (docs/decisions.md#d25: removing a bot cancels its orders first)
    const first = cards.first();
    const id = await first.getAttribute("aria-label");
    await until("the floating order", async () =>
      /^order /.test((await first.getByTestId("bot-state").textContent()) ?? ""),
    );
    const price = /@ ([\d.]+)/.exec((await first.getByTestId("bot-state").textContent()) ?? "")![1]!;
    await first.getByRole("button", { name: "Remove" }).click();
    // a risky action asks first (docs/dashboard.md "Risky actions")
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove bot" }).click();
    await page.getByRole("alertdialog").waitFor({ state: "detached" });
    await until("bot removed", async () => (await list.getByRole("listitem", { name: id! }).count()) === 0);
    expect(await cards.count()).toBe(6);
    await page.keyboard.press("Escape");
    await openOrders().getByRole("button", { name: "Refresh open orders" }).click();
    await until("its order cancelled", async () => {
      await openOrders().getByRole("button", { name: "Refresh open orders" }).click();
      return !(await openOrders().getByTestId("order-price").allTextContents()).includes(price);
    });
  }, 120_000);

  it("shows what the live channel publishes for a bot: its records, its indicator, its removal (docs/dashboard-rules.md#states, docs/decisions.md#d21-#d25)", async () => {
    const p = await browser.context.newPage();
    let channel: { send(m: string): void } | undefined;
    await p.routeWebSocket(`${served.url.replace(/^http/, "ws")}/`, (ws) => {
      ws.connectToServer();
      channel = ws;
    });
    try {
      await p.goto(`${served.url}${DEMO}`);
      await p.getByRole("button", { name: /^Bots/ }).click();
      const list = p.getByRole("list", { name: "Running bots" });
      const grid = list.locator("li[data-bot-type=grid-bot]");
      await grid.waitFor();
      const botId = (await grid.getAttribute("aria-label"))!.replace(/^Bot /, "");
      await until("channel", async () => channel !== undefined);
      const base = {
        botId,
        botType: "grid-bot",
        path: ["Demo", "paper", "main"],
        paths: [],
        setup: { pair: "BTC/USDT", quote: 100, size: 4 },
        created: 1,
      };
      channel!.send(JSON.stringify({ type: "delta", data: { ...base, status: "running", onBuy: 2, onSell: 2 } }));
      await until(
        "grid records",
        async () => (await grid.getByTestId("bot-state").textContent()) === "onBuy 2 · onSell 2",
      );
      expect(await grid.getByRole("img").getAttribute("aria-label")).toBe("ok");
      channel!.send(JSON.stringify({ type: "delta", data: { ...base, status: "running", onBuy: 2 } }));
      await until(
        "one side missing",
        async () => (await grid.getByRole("img").getAttribute("aria-label")) === "warning",
      );
      channel!.send(
        JSON.stringify({
          type: "delta",
          data: {
            ...base,
            status: "backing-off",
            onBuy: 2,
            onSell: 2,
            lastError: "ExchangeId: paper, msg: insufficient funds",
          },
        }),
      );
      await until(
        "error",
        async () =>
          (await grid.getByTestId("bot-state").textContent()) ===
          "backing off: ExchangeId: paper, msg: insufficient funds · onBuy 2 · onSell 2",
      );
      expect(await grid.getByRole("img").getAttribute("aria-label")).toBe("alert");
      await shot(p, "trading-bot-live-state");
      channel!.send(JSON.stringify({ type: "delta", data: { botId, removed: true } }));
      await grid.waitFor({ state: "detached" });
    } finally {
      await p.close();
    }
  });

  it('pauses, resumes and edits a bot from its card (docs/bots.md "Create, edit, pause")', async () => {
    await page.getByRole("button", { name: /^Bots/ }).click();
    const list = page.getByRole("dialog").getByRole("list", { name: "Running bots" });
    const grid = list.locator("li[data-bot-type=grid-bot]");
    await grid.waitFor();
    await until("the grid running", async () =>
      /^onBuy 2/.test((await grid.getByTestId("bot-state").textContent()) ?? ""),
    );
    await grid.getByRole("button", { name: "Pause" }).click();
    await until("paused", async () => /^paused/.test((await grid.getByTestId("bot-state").textContent()) ?? ""));
    expect(await grid.getByRole("button", { name: "Resume" }).count()).toBe(1);
    await grid.getByRole("button", { name: "Resume" }).click();
    await until("running again", async () =>
      /^onBuy 2 · onSell 2/.test((await grid.getByTestId("bot-state").textContent()) ?? ""),
    );
    // Edit: the setup as JSON, checked by the same schema before Save
    await grid.getByRole("button", { name: "Details" }).click();
    await page.getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("form", { name: /^Edit bot / });
    const text = editor.getByLabel("Setup JSON");
    const setup = JSON.parse(await text.inputValue()) as Record<string, unknown>;
    await text.fill(JSON.stringify({ ...setup, size: 3 }));
    expect(await editor.getByTestId("bot-edit-errors").textContent()).toContain(
      "Order count must be greater than 0 and even",
    );
    expect(await editor.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await text.fill(JSON.stringify({ ...setup, size: 6 }));
    await enabled(editor.getByRole("button", { name: "Save" }));
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.waitFor({ state: "detached" });
    await until(
      "the new setup",
      async () => JSON.parse((await page.getByTestId("bot-json").textContent()) ?? "{}").size === 6,
    );
    await page.getByRole("button", { name: "Close" }).first().click();
    await until(
      "6 grid orders",
      async () => /^onBuy 3 · onSell 3/.test((await grid.getByTestId("bot-state").textContent()) ?? ""),
      30_000,
    );
    await page.keyboard.press("Escape");
  }, 90_000);

  it("shows the bot status letters with their indicator colours on the home cards, and a card opens the trading view (docs/dashboard-rules.md#screens, #states)", async () => {
    await page.getByRole("link", { name: "Home" }).click();
    const card = page.getByRole("article", { name: "Client Demo" }).getByRole("link").first();
    await until("letters", async () => (await card.locator(".letter").count()) === 6);
    // in the seed's order (docs/dashboard-rules.md#constants), the floating bot removed
    expect(await card.locator(".letter").allTextContents()).toEqual(["SD", "CC", "HV", "V", "G", "L"]);
    await until(
      "indicators",
      async () => (await card.locator(".letter", { hasText: /^CC$/ }).getAttribute("data-indicator")) === "not-run",
    );
    // the grid runs on paper: ok or a warning while a side refills (docs/dashboard-rules.md#states), never grey
    expect(["good", "warning"]).toContain(
      await card.locator(".letter", { hasText: /^G$/ }).getAttribute("data-indicator"),
    );
    await shot(page, "home-cards");
    await card.click();
    await page.waitForURL(/\/c\//);
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(DEMO);
  });

  it('shows a bot\'s PnL, fills and halt; "Stop all bots" asks first, then stops every bot (docs/bots.md "What each bot did", "Risk limits and the kill switch")', async () => {
    const p = await browser.context.newPage();
    let channel: { send(m: string): void } | undefined;
    await p.routeWebSocket(`${served.url.replace(/^http/, "ws")}/`, (ws) => {
      ws.connectToServer();
      channel = ws;
    });
    try {
      await p.goto(`${served.url}${DEMO}`);
      await p.getByRole("button", { name: /^Bots/ }).click();
      const grid = p.getByRole("list", { name: "Running bots" }).locator("li[data-bot-type=grid-bot]");
      await grid.waitFor();
      const botId = (await grid.getAttribute("aria-label"))!.replace(/^Bot /, "");
      await until("channel", async () => channel !== undefined);
      const reason = "Stopped: its maxLoss 5 USDT reached: the loss since the start is 5.5 USDT";
      channel!.send(
        JSON.stringify({
          type: "delta",
          data: {
            botId,
            botType: "grid-bot",
            path: ["Demo", "paper", "main"],
            paths: [],
            setup: { pair: "BTC/USDT", quote: 100, size: 4 },
            created: 1,
            status: "stopped",
            reason,
            halted: { reason, at: 1, by: "limit" },
            pnl: {
              fills: 3,
              inventory: "0.002",
              cost: "130.6",
              realized: "1.25",
              volume: "250",
              fees: { BTC: "0.000002", USDT: "0.12" },
              feesInQuote: "0.25",
              mid: "65050",
              value: "130.1",
              unrealized: "-0.5",
              pnl: "0.750000000001",
            },
          },
        }),
      );
      await until(
        "the PnL line",
        async () =>
          (await grid.getByTestId("bot-pnl").textContent()) ===
          "PnL 0.75 · realized 1.25 · inventory 0.002 BTC (value 130.1) · volume 250 · fees 0.25 · 3 fills",
      );
      expect(await grid.getByTestId("bot-state").textContent()).toBe(`stopped: ${reason}`);
      await grid.getByRole("button", { name: "Resume" }).waitFor();
      // the details hold the fills table (this grid's own fills on paper, if any yet)
      await grid.getByRole("button", { name: "Details" }).click();
      await p.getByRole("heading", { name: "Fills" }).waitFor();
      await until(
        "the fills",
        async () =>
          (await p.getByText("No fills yet").count()) + (await p.getByRole("table", { name: "Fills" }).count()) > 0,
      );
      await shot(p, "trading-bot-money");
    } finally {
      await p.close();
    }
    // the kill switch: on the home page, asked first
    await page.getByRole("link", { name: "Home" }).click();
    await page.getByRole("button", { name: "Stop all bots" }).click();
    const confirm = page.getByRole("alertdialog");
    expect(await confirm.getByRole("heading").textContent()).toBe("Stop all bots?");
    await shot(page, "home-stop-all");
    await confirm.getByRole("button", { name: "Stop all bots" }).click();
    await confirm.waitFor({ state: "detached" });
    await page.goto(`${served.url}${DEMO}`);
    await page.getByRole("button", { name: /^Bots/ }).click();
    const cards = page.getByRole("list", { name: "Running bots" }).locator("li");
    await until("every bot that runs stopped until resumed", async () => {
      const states = await cards.getByTestId("bot-state").allTextContents();
      const stopped = states.filter((t) => /^stopped: Stopped by .+ \(stop all\)$/.test(t));
      return stopped.length === 3 && states.every((t) => t === "not run" || stopped.includes(t));
    });
    expect(await cards.getByRole("button", { name: "Resume" }).count()).toBe(3);
    await page.keyboard.press("Escape");
  });

  it("greys a book that is not live, says since when, refuses to fill the panel from it and asks the stale confirmation (issue 20)", async () => {
    const p = await browser.context.newPage();
    const sockets: { close(): Promise<void> }[] = [];
    let allow = true;
    await p.routeWebSocket(/\/book\?/, (ws) => {
      if (!allow) return void ws.close({ code: 1011, reason: "test: relay down" });
      ws.connectToServer();
      sockets.push(ws);
    });
    try {
      await p.goto(`${served.url}${DEMO}`);
      const book = p.getByRole("region", { name: "Order book" });
      await until("live", async () => (await book.getAttribute("data-state")) === "live");
      allow = false;
      for (const s of sockets) await s.close();
      await until("not live", async () => (await book.getAttribute("data-state")) !== "live", 5000);
      const banner = await book.getByRole("status").textContent();
      expect(banner).toMatch(
        /^⚠ Order book not live: disconnected since \d\d:\d\d:\d\d UTC \(connection lost, reconnecting\)$/,
      );
      expect(await p.getByTestId("mid").textContent()).toBe("—");
      await book.locator("tr[data-testid=bid-row]").first().click();
      await p.getByText("Not filled from the book", { exact: true }).waitFor();
      const panel = p.getByRole("region", { name: "Trading panel" });
      expect(await panel.getByLabel("Price", { exact: true }).inputValue()).toBe("");
      await panel.getByLabel("Price", { exact: true }).fill("100");
      await panel.getByLabel("Amount", { exact: true }).fill("0.01");
      await panel.getByRole("button", { name: "Buy" }).click();
      const dialog = p.getByRole("dialog");
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await dialog.getByRole("heading", { name: "Send anyway?" }).waitFor();
      expect(await dialog.getByRole("alert").textContent()).toMatch(
        /^BOOK NOT LIVE, disconnected since \d\d:\d\d:\d\d UTC \(connection lost, reconnecting\): Buy at 100 USDT not checked: no live BTC\/USDT order book/,
      );
      await shot(p, "trading-stale");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      // the relay comes back: the book is live again
      allow = true;
      await until("live again", async () => (await book.getAttribute("data-state")) === "live", 20_000);
      expect(await book.getByRole("status").count()).toBe(0);
    } finally {
      await p.close();
    }
  });

  it("puts the built-in candle chart in place of the provider's widget when its script cannot load (docs/exchange-rules.md#chart)", async () => {
    // a second account on a real exchange, stored through the API Keys Manager with a saved encryption key
    await page.getByRole("button", { name: "Encryption key" }).click();
    await page.getByRole("button", { name: "Generate" }).click();
    await page.keyboard.press("Escape");
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
    await page.getByText("API key saved", { exact: true }).first().waitFor();
    // offline: the provider's script fails; the chart is the candle chart of live mids, never an empty box
    await page.goto(`${served.url}/c/[Beta][bybit][main]`);
    const chart = page.getByRole("region", { name: "Chart" });
    await chart.getByTestId("candle-chart").waitFor({ timeout: 20_000 });
    // no mid yet (the exchange is out of reach): the box says so rather than staying empty
    await chart.getByText("Waiting for prices…").waitFor();
    expect(await chart.getByTestId("candle-chart").getAttribute("aria-label")).toBe(
      "ETH/USDT live mid prices since the view opened, 5-minute candles",
    );
    expect(await chart.getByTestId("provider-chart").count()).toBe(0);
    await shot(page, "trading-chart-fallback");
    // failed balances and orders calls read as errors, never as an empty list or a zero count (issue 20)
    const balancesAlert = page.getByRole("region", { name: "Balances" }).getByRole("alert");
    await balancesAlert.waitFor();
    expect(await balancesAlert.textContent()).toMatch(/^balances unavailable: ExchangeId: bybit, msg: /);
    const ordersAlert = page.getByRole("region", { name: "Open orders" }).getByRole("alert");
    await ordersAlert.waitFor();
    expect(await ordersAlert.textContent()).toMatch(/^orders unavailable: ExchangeId: bybit, msg: /);
    expect(await page.getByRole("region", { name: "Open orders" }).getByRole("heading").textContent()).toBe(
      "Open orders",
    );
    // the book: straight from bybit first; out of reach, the server's relay takes over (docs/decisions.md#d14),
    // whose upstream has no book either: not live, never an empty book taken for a live one
    const book = page.getByRole("region", { name: "Order book" });
    await until("relay source", async () => (await book.getAttribute("data-source")) === "relay", 30_000);
    expect(await book.getByRole("status").textContent()).toMatch(
      /^⚠ Order book not live: disconnected since \d\d:\d\d:\d\d UTC \(connecting\)$/,
    );
    // the manual refresh (docs/exchange-rules.md#states) says why there is no book rather than showing an empty one
    await book.getByRole("button", { name: "Refresh order book" }).click();
    await page.getByText("book refresh: the server's bybit feed is connecting", { exact: true }).waitFor();
    expect(await book.locator("tr[data-testid=bid-row]").count()).toBe(0);
  });

  it("reads a real exchange's book straight from the exchange's socket in the browser (docs/decisions.md#d14): bybit's snapshot and delta", async () => {
    const p = await browser.context.newPage();
    const subscriptions: string[] = [];
    // bybit's public socket, played by the test: the feed module subscribes, gets a snapshot, then a delta
    await p.routeWebSocket("wss://stream.bybit.com/v5/public/spot", (ws) => {
      ws.onMessage((m) => {
        const msg = JSON.parse(String(m)) as { op: string; args?: string[] };
        if (msg.op !== "subscribe") return;
        const topic = msg.args![0]!;
        subscriptions.push(topic);
        ws.send(JSON.stringify({ op: "subscribe", success: true }));
        ws.send(
          JSON.stringify({
            topic,
            type: "snapshot",
            data: {
              s: "ETHUSDT",
              b: [
                ["3000.5", "1.25"],
                ["3000", "2"],
              ],
              a: [
                ["3001", "0.5"],
                ["3002.25", "4"],
              ],
              u: 1,
              seq: 1,
            },
          }),
        );
        setTimeout(
          () =>
            ws.send(
              JSON.stringify({
                topic,
                type: "delta",
                data: { s: "ETHUSDT", b: [["3000.5", "0"]], a: [["3001", "0.75"]], u: 2, seq: 2 },
              }),
            ),
          1500,
        );
      });
    });
    try {
      await p.goto(`${served.url}/c/[Beta][bybit][main]`);
      const book = p.getByRole("region", { name: "Order book" });
      await until(
        "direct live",
        async () =>
          (await book.getAttribute("data-state")) === "live" && (await book.getAttribute("data-source")) === "direct",
      );
      expect(subscriptions).toEqual(["orderbook.50.ETHUSDT"]);
      // the view is taken at the next 500 ms refresh
      await until("snapshot shown", async () => (await shownBook(p)).bids.length === 2);
      const first = await shownBook(p);
      expect(first.bids).toEqual([
        ["3000.5", "1.25"],
        ["3000", "2"],
      ]);
      expect(first.asks).toEqual([
        ["3001", "0.5"],
        ["3002.25", "4"],
      ]);
      expect(await p.getByTestId("mid").textContent()).toBe("3000.75");
      // the delta: amount 0 removes a level (docs/exchange-rules.md#states), another amount replaces it
      await until("delta shown", async () => (await shownBook(p)).bids.length === 1);
      const second = await shownBook(p);
      expect(second.bids).toEqual([["3000", "2"]]);
      expect(second.asks).toEqual([
        ["3001", "0.75"],
        ["3002.25", "4"],
      ]);
      await shot(p, "trading-direct-bybit");
    } finally {
      await p.close();
    }
  });

  it("switches to another account of the same client and exchange by replacing the route (docs/dashboard-rules.md#screens)", async () => {
    await page.getByRole("link", { name: "API Keys Manager" }).click();
    await page.waitForURL(/\/apikeys$/);
    await page.locator("input[name=client]").fill("Demo");
    await page.locator("input[name=account]").fill("desk");
    await page.locator("input[name=pair]").fill("BTC/USDT");
    await page.locator("input[name=api]").fill("unused");
    await page.locator("input[name=secret]").fill("unused");
    await page.getByLabel("Exchange", { exact: true }).click();
    await page.getByRole("option", { name: "Paper (simulated)" }).click();
    const submit = page.getByRole("form", { name: "Add API keys" }).getByRole("button", { name: "Submit" });
    await enabled(submit);
    await submit.click();
    await page.getByText("API key saved", { exact: true }).first().waitFor();
    await page.goto(`${served.url}${DEMO}`);
    const switcher = page.getByRole("navigation", { name: "Accounts" });
    await switcher.getByRole("button", { name: "desk" }).waitFor();
    expect(await switcher.getByRole("button", { name: "main" }).getAttribute("aria-current")).toBe("page");
    const length = await page.evaluate(() => history.length);
    await switcher.getByRole("button", { name: "desk" }).click();
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === "/c/[Demo][paper][desk]");
    expect(await page.evaluate(() => history.length)).toBe(length);
    expect(await switcher.getByRole("button", { name: "desk" }).getAttribute("aria-current")).toBe("page");
    // the balances of the other account (a fresh paper account: nothing locked)
    await until("desk balances", async () => (await page.getByTestId("locked-USDT").getAttribute("title")) === "0");
  });

  it("looks right in light mode and on a phone, stacked (issue 13 'Looks')", async () => {
    await page.goto(`${served.url}${DEMO}`);
    await page.getByRole("region", { name: "Order book" }).locator("tr[data-testid=bid-row]").first().waitFor();
    const html = page.locator("html");
    if ((await html.getAttribute("data-theme")) !== "dark") await page.getByRole("button", { name: /mode/i }).click();
    await until("dark", async () => (await html.getAttribute("data-theme")) === "dark");
    await shot(page, "trading-dark");
    await page.getByRole("button", { name: /mode/i }).click();
    await until("light", async () => (await html.getAttribute("data-theme")) === "light");
    await shot(page, "trading-light");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(600);
    const top = async (name: string) => (await page.getByRole("region", { name }).boundingBox())!.y;
    expect(await top("Order book")).toBeLessThan(await top("Trading panel"));
    expect(await top("Trading panel")).toBeLessThan(await top("Open orders"));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await shot(page, "trading-phone");
    await page.setViewportSize({ width: 1366, height: 800 });
  });
});
