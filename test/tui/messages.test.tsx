import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPaperExchange } from "../../exchanges/paper/index.js";
import { defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, type RenderResult, renderPaperDesk } from "./render.js";

/**
 * Prompts and messages (docs/tui.md "Order checks", "Messages", "Keys") on the real paper exchange
 * in a temp data directory, with a frozen clock.
 */
const FROZEN = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = () => FROZEN;

let dataDir: string;
let screen: RenderResult | undefined;
let services: TuiServices;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-msg-"));
  services = defaultServices({ dataDir, now });
});

afterEach(() => {
  screen?.unmount();
  screen = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function start(columns = 100, rows = 30): RenderResult {
  screen = renderPaperDesk(services, now, { columns, rows });
  return screen;
}

const ready = (f: string) => /live/.test(f) && f.includes("[b] Buy") && f.includes("Last update");
const field = (frame: string, label: string) =>
  new RegExp(`${label}\\s+([^\\s▏]+)▏?\\s+(BTC|ETH|USDT)`).exec(frame)?.[1];

describe("prompts that say what Enter does (issue 21)", () => {
  it("asks [y/N] and takes Enter as no: nothing is sent", async () => {
    const s = start();
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."50000", KEYS.down, ..."0.025", "b");
    // the total in full with thousands separators, never 1.25K (docs/tui.md Numbers)
    await s.waitForFrame((f) => f.includes("Send? [y/N] Buy 0.025 BTC @ 50000 USDT (≈ 1,250 USDT)"));
    await s.press(KEYS.enter);
    await s.waitForFrame((f) => f.includes("Not sent") && !f.includes("Send?"));
    const paper = createPaperExchange({ api: "", secret: "" }, { dataDir, account: "default", now });
    expect(await paper.fetchOpenOrders("BTC/USDT")).toHaveLength(0);
    await paper.close();
  });

  it("says at once why a key cannot go into a number, and keeps the field a number", async () => {
    const s = start();
    await s.waitForFrame(ready);
    await s.press(KEYS.tab, ..."1.2.");
    const said = await s.waitForFrame((f) => f.includes("not a number"));
    expect(said).toContain(`Price: "1.2." is not a number: it has one decimal point; "." not typed`);
    expect(field(said, "Price")).toBe("1.2");
    await s.press("-");
    await s.waitForFrame((f) => f.includes(`"1.2-" is not a number: a minus goes first`));
  });

  it("says there is nothing to cancel when C finds no open orders", async () => {
    const s = start();
    await s.waitForFrame((f) => ready(f) && f.includes("Open orders (0)"));
    await s.press("C");
    const frame = await s.waitForFrame((f) => f.includes("Nothing to cancel"));
    expect(frame).toContain("Nothing to cancel: no open BTC/USDT orders");
    expect(frame).not.toContain("Cancel all?");
  });

  it("backs out with Esc: the trading panel and open orders to the book, the book's selection, the prompts", async () => {
    const s = start();
    await s.waitForFrame(ready);
    // Esc from the trading panel: digits no longer go into the price, j moves the book's selection
    await s.press(KEYS.tab, "1", KEYS.escape, "j");
    await s.waitForFrame((f) => f.includes("▸"));
    expect(field(s.lastFrame(), "Price")).toBe("1");
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => !f.includes("▸"));
    // from open orders as well
    await s.press(KEYS.tab, KEYS.tab, KEYS.escape, "k");
    await s.waitForFrame((f) => f.includes("▸"));
    // the pair picker and the help overlay
    await s.press("p");
    await s.waitForFrame((f) => f.includes("Switch pair"));
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => !f.includes("Switch pair"));
    await s.press("?");
    await s.waitForFrame((f) => f.includes("this help"));
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => !f.includes("this help"));
  });
});

describe("messages that stay long enough to read (issue 21)", () => {
  it("keeps a message until the next key, and an error until Esc", async () => {
    const s = start();
    await s.waitForFrame(ready);
    await s.press("C");
    await s.waitForFrame((f) => f.includes("Nothing to cancel"));
    // a key that does nothing else takes the message away
    await s.press("z");
    await s.waitForFrame((f) => !f.includes("Nothing to cancel"));
    // an error: a buy without a price
    await s.press("b");
    const error = await s.waitForFrame((f) => f.includes("Esc to dismiss"));
    await s.press("z", "z", KEYS.tab, KEYS.tab);
    expect(s.lastFrame()).toContain("Esc to dismiss");
    const text = error.split("\n").find((l) => l.includes("Esc to dismiss"));
    expect(s.lastFrame()).toContain(text);
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => !f.includes("Esc to dismiss"));
  });

  it("backs out of a question with the first Esc even while an error waits under it", async () => {
    const s = start();
    await s.waitForFrame(ready);
    await s.press("b");
    await s.waitForFrame((f) => f.includes("Esc to dismiss"));
    await s.press(KEYS.tab, ..."50000", KEYS.down, ..."0.001", "b");
    await s.waitForFrame((f) => f.includes("Send? [y/N]"));
    await s.press(KEYS.escape);
    await s.waitForFrame((f) => f.includes("Not sent") && !f.includes("Send?"));
  });
});
