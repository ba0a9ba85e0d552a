import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import chalk from "chalk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OrderBook as Book } from "../../lib/orderbook.js";
import { buildBookView } from "../../tui/book-view.js";
import { OrderBook } from "../../tui/components/OrderBook.js";
import { runTui } from "../../tui/index.js";
import { createTheme, noColorFromEnv } from "../../tui/theme.js";
import { type RenderResult, render } from "./render.js";

const ESC = String.fromCharCode(27);
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-runtui-"));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A stream that is not a terminal, collecting what is written. */
function pipe(): PassThrough & { text: () => string; isTTY?: boolean } {
  const stream = new PassThrough() as PassThrough & { text: () => string; isTTY?: boolean };
  let text = "";
  stream.on("data", (d) => (text += d));
  stream.text = () => text;
  return stream;
}

describe("runTui without a terminal", () => {
  it("says so on stderr and prints bounded frames of the live paper book", async () => {
    const stdin = pipe();
    const stdout = pipe();
    const stderr = pipe();
    const code = await runTui({
      pair: "sol/usdt",
      dataDir,
      maxFrames: 2,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WriteStream,
    });
    expect(code).toBe(0);
    expect(stderr.text()).toContain("stdin and stdout are not a terminal");
    const frames = stdout.text().split("\n\n").filter(Boolean);
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatch(/^paper SOL\/USDT live \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(frames[0]).toMatch(/^--- \d+(\.\d+)? ~\d+\.\d+%$/m);
  });

  it("refuses an unknown exchange or a malformed pair with exit code 2", async () => {
    const stderr = pipe();
    const io = {
      stdin: pipe() as unknown as NodeJS.ReadStream,
      stdout: pipe() as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WriteStream,
    };
    expect(await runTui({ exchange: "nasdaq", ...io })).toBe(2);
    expect(stderr.text()).toContain("unknown exchange 'nasdaq'");
    expect(await runTui({ pair: "BTCUSDT", ...io })).toBe(2);
    expect(stderr.text()).toContain("Invalid pair 'BTCUSDT'");
  });
});

describe("NO_COLOR", () => {
  let screen: RenderResult | undefined;
  const level = chalk.level;
  beforeAll(() => {
    chalk.level = 1; // as on a colour terminal
  });
  afterAll(() => {
    chalk.level = level;
  });
  afterEach(() => screen?.unmount());

  const book = () => {
    const b = new Book();
    b.applySnapshot([["99", "1"]], [["101", "2"]]);
    return buildBookView(b, 5);
  };

  it("is read from the environment when set and non-empty (no-color.org)", () => {
    expect(noColorFromEnv({ NO_COLOR: "1" })).toBe(true);
    expect(noColorFromEnv({ NO_COLOR: "" })).toBe(false);
    expect(noColorFromEnv({})).toBe(false);
    expect(Object.values(createTheme(true)).filter((v) => typeof v === "string")).toEqual([]);
  });

  it("draws sides in colour normally and without colour codes under NO_COLOR", () => {
    const props = {
      view: book(),
      pair: "BTC/USDT",
      rowsPerSide: 1,
      width: 40,
      feedState: "live" as const,
      selection: undefined,
      focused: false,
    };
    screen = render(<OrderBook {...props} />, { noColor: false });
    expect(screen.lastRawFrame()).toMatch(new RegExp(`${ESC}\\[3[12]m`));
    screen.unmount();
    screen = render(<OrderBook {...props} />, { noColor: true });
    expect(screen.lastRawFrame()).not.toMatch(new RegExp(`${ESC}\\[3\\dm`));
    expect(screen.lastFrame()).toMatch(/101\s+2\s+202/);
  });
});
