/** The CLI's small pure helpers, tested where they live (no child process). */
import { describe, expect, it } from "vitest";
import { commandName } from "../../cli/commands/index.js";
import { cliClock, proxyUrl } from "../../cli/context.js";
import { formatTable } from "../../cli/output.js";
import { maskKey } from "../../cli/store.js";

describe("commandName: the command after the global options", () => {
  it.each([
    [["balances", "--json"], "balances"],
    [["--json", "-e", "bybit", "orders", "BTC/USDT"], "orders"],
    [["--account", "balances", "buy", "BTC/USDT", "1", "2"], "buy"],
    [["--exchange=okx", "cancel-all", "BTC/USDT"], "cancel-all"],
    [["--json"], undefined],
    [["--", "book"], "book"],
  ])("%j → %s", (argv, name) => {
    expect(commandName(argv)).toBe(name);
  });
});

describe("cliClock: paper's clock knobs", () => {
  it("pins the time with SPOTDESK_PAPER_NOW (ms or ISO)", () => {
    expect(cliClock({ SPOTDESK_PAPER_NOW: "1800000000000" })()).toBe(1_800_000_000_000);
    expect(cliClock({ SPOTDESK_PAPER_NOW: "2027-01-15T00:00:00Z" })()).toBe(Date.parse("2027-01-15T00:00:00Z"));
  });

  it("shifts the real clock with SPOTDESK_CLOCK_OFFSET_MS", () => {
    const shifted = cliClock({ SPOTDESK_CLOCK_OFFSET_MS: "3600000" })();
    expect(Math.abs(shifted - (Date.now() + 3_600_000))).toBeLessThan(1000);
  });

  it("refuses a malformed value as bad input", () => {
    expect(() => cliClock({ SPOTDESK_PAPER_NOW: "yesterday" })).toThrow(/Invalid SPOTDESK_PAPER_NOW/);
    expect(() => cliClock({ SPOTDESK_CLOCK_OFFSET_MS: "soon" })).toThrow(/Invalid SPOTDESK_CLOCK_OFFSET_MS/);
  });
});

describe("proxyUrl (docs/decisions.md#d12)", () => {
  const options = { exchange: "bybit", account: "default" };
  it("prefers --proxy, then SPOTDESK_PROXY, then HTTPS_PROXY", () => {
    const env = { SPOTDESK_PROXY: "http://b", HTTPS_PROXY: "http://c" };
    expect(proxyUrl({ ...options, proxy: "http://a" }, env)).toBe("http://a");
    expect(proxyUrl(options, env)).toBe("http://b");
    expect(proxyUrl(options, { HTTPS_PROXY: "http://c" })).toBe("http://c");
    expect(proxyUrl(options, {})).toBeUndefined();
  });
});

describe("maskKey", () => {
  it("shows the first and last two characters, and nothing of a short key", () => {
    expect(maskKey("abcdefghyz")).toBe("ab…yz");
    expect(maskKey("short")).toBe("…");
  });
});

describe("formatTable", () => {
  it("pads columns to the widest cell, numbers right-aligned, no colour when off", () => {
    const text = formatTable(
      ["Token", "Total"],
      [
        ["BTC", "1.5"],
        ["USDT", "10000"],
      ],
      ["left", "right"],
      false,
    );
    expect(text).toBe("Token  Total\nBTC      1.5\nUSDT   10000\n");
  });
});
