import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEY_HINTS, MIN_COLUMNS, MIN_ROWS } from "../../tui/app.js";
import { localeIsUtf8, toAscii } from "../../tui/ascii.js";
import { defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, maxLineWidth, type RenderResult, renderPaperDesk } from "./render.js";

/** Every size (docs/tui.md "Every size") and the footer's hints, on the real paper exchange. */
const FROZEN = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = () => FROZEN;

let dataDir: string;
let screen: RenderResult | undefined;
let services: TuiServices;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-sizes-"));
  services = defaultServices({ dataDir, now });
});

afterEach(() => {
  screen?.unmount();
  screen = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function start(columns: number, rows: number): RenderResult {
  screen = renderPaperDesk(services, now, { columns, rows });
  return screen;
}

const live = (f: string) => /live/.test(f) && /~\d+\.\d+%/.test(f);
const levelRows = (f: string) => f.split("\n").filter((l) => /^\s*[▸]?\d{1,3}(,\d{3})*\.\d\d\s+\d/.test(l)).length;

describe("every size (issue 21)", () => {
  it("shows as many levels as fit at 200x60, past the old 20 a side, with no blank band in the book", async () => {
    const s = start(200, 60);
    const frame = await s.waitForFrame((f) => live(f) && levelRows(f) > 40);
    expect(maxLineWidth(frame)).toBeLessThanOrEqual(200);
    expect(frame.split("\n").length).toBeLessThanOrEqual(60);
    // the book runs from the header to its footer without empty level rows
    const lines = frame.split("\n");
    const first = lines.findIndex((l) => /Price\s+Amount\s+Total/.test(l));
    const footer = lines.findIndex((l, i) => i > first && /select|Σ/.test(l));
    const book = lines.slice(first + 1, footer).map((l) => l.slice(0, 60).trim());
    expect(book.filter((l) => l === "")).toEqual([]);
    expect(book.length).toBe(levelRows(frame) + 1);
  });

  it("keeps every balance, the quote's too, beside your fills at 80x24", async () => {
    const s = start(80, 24);
    const frame = await s.waitForFrame((f) => live(f) && f.includes("Last update"));
    expect(frame).toContain("Your fills (0)");
    for (const token of ["BTC", "ETH", "SOL", "USDT"])
      expect(frame).toMatch(new RegExp(`^.*\\s${token}\\s+[\\d,]+\\.\\d{4}\\s`, "m"));
    expect(frame.split("\n").length).toBeLessThanOrEqual(24);
  });

  it("says the terminal is too small below the smallest usable size, and draws again when it grows", async () => {
    const s = start(MIN_COLUMNS - 1, 12);
    const small = await s.waitForFrame((f) => f.includes("terminal too small"));
    // wrapped to the narrow terminal, read as one line
    expect(small.replace(/\s*\n\s*/g, " ")).toContain(
      `terminal too small (need ${MIN_COLUMNS}x${MIN_ROWS}, have ${MIN_COLUMNS - 1}x12)`,
    );
    expect(small).not.toContain("Order book");
    s.resize(MIN_COLUMNS, MIN_ROWS);
    const fits = await s.waitForFrame((f) => live(f) && f.includes("Trade BTC/USDT"));
    expect(maxLineWidth(fits)).toBeLessThanOrEqual(MIN_COLUMNS);
    expect(fits.split("\n").length).toBeLessThanOrEqual(MIN_ROWS);
    expect(fits).toMatch(/Price/);
    expect(fits).toMatch(/Amount/);
    expect(levelRows(fits)).toBeGreaterThanOrEqual(2);
  });

  it("writes the footer's hints for the panel that has the focus", async () => {
    const s = start(120, 30);
    const book = await s.waitForFrame(live);
    expect(book).toContain(KEY_HINTS.book[0]);
    await s.press(KEYS.tab);
    await s.waitForFrame((f) => f.includes(KEY_HINTS.trade[0] as string));
    await s.press(KEYS.tab);
    await s.waitForFrame((f) => f.includes(KEY_HINTS.orders[0] as string));
    await s.press("p");
    await s.waitForFrame((f) => f.includes("Enter switch · type to filter · Esc back"));
  });

  it("offers only paper's pairs on paper and refuses another typed pair", async () => {
    const s = start(120, 30);
    await s.waitForFrame(live);
    await s.press("p");
    const picker = await s.waitForFrame((f) => f.includes("Switch pair"));
    expect(picker).toContain("ETH/USDT");
    expect(picker).not.toContain("XRP/USDT");
    await s.press(..."XRP/USDT", KEYS.enter);
    await s.waitForFrame((f) => /Paper trades .*: not XRP\/USDT/.test(f));
  });
});

describe("ASCII where the locale is not UTF-8 (issue 21)", () => {
  it("reads the locale as the C library does: LC_ALL, then LC_CTYPE, then LANG; none is C", () => {
    expect(localeIsUtf8({ LANG: "en_US.UTF-8" })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: "C", LANG: "en_US.UTF-8" })).toBe(false);
    expect(localeIsUtf8({ LC_CTYPE: "de_DE.utf8" })).toBe(true);
    expect(localeIsUtf8({ LANG: "POSIX" })).toBe(false);
    expect(localeIsUtf8({})).toBe(false);
  });

  it("writes every symbol as one ASCII character, so the layout holds", () => {
    const line = "▸63,764.50  0.5  31,882.25◂ · Σ 2 asks ≈ 1 … ⚠ ▁▄█ ↑↓ ⏎ ▏ ≤ ≥ —";
    const ascii = toAscii(line);
    expect(ascii).toBe(">63,764.50  0.5  31,882.25< - S 2 asks ~ 1 ~ ! _-# ^v < | < > -");
    expect([...ascii].length).toBe([...line].length);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range \x00-\x7f
    expect(toAscii("日本 ✓")).toMatch(/^[\x00-\x7f]+$/);
  });
});
