/**
 * The line parser of the read path (cli/quick.ts, docs/cli.md "Cold start"): which command lines
 * start without commander, and that every other line goes to commander (undefined).
 */
import { describe, expect, it } from "vitest";
import { quickRead, quickVersion } from "../../cli/quick.js";

const words = (line: string) => (line === "" ? [] : line.split(" "));

describe("quickRead", () => {
  it("takes balances, orders PAIR and order PAIR ID on paper with global options before or after the command", () => {
    expect(quickRead(words("balances --json"))).toEqual({
      command: "balances",
      nonzero: false,
      json: true,
      exchangeGiven: false,
    });
    expect(quickRead(words("--json balances --nonzero"))).toEqual({
      command: "balances",
      nonzero: true,
      json: true,
      exchangeGiven: false,
    });
    expect(quickRead(words("balances"))).toEqual({
      command: "balances",
      nonzero: false,
      json: false,
      exchangeGiven: false,
    });
    expect(quickRead(words("-a alice balances -e paper"))).toEqual({
      command: "balances",
      nonzero: false,
      json: false,
      account: "alice",
      exchangeGiven: true,
    });
    expect(quickRead(words("orders --json BTC/USDT --account bob --exchange paper"))).toEqual({
      command: "orders",
      pair: "BTC/USDT",
      json: true,
      account: "bob",
      exchangeGiven: true,
    });
    expect(quickRead(words("order BTC/USDT 17 --json -a carol"))).toEqual({
      command: "order",
      pair: "BTC/USDT",
      id: "17",
      json: true,
      account: "carol",
      exchangeGiven: false,
    });
    // a bad pair, order id or account name is the command's own error, as through commander
    expect(quickRead(["orders", "nope", "--json"])).toMatchObject({ command: "orders", pair: "nope" });
    expect(quickRead(["-a", "bad/name", "balances"])).toMatchObject({ account: "bad/name" });
  });

  it.each([
    "",
    "--json",
    "balances --help",
    "balances -h",
    "balances --version",
    "--nonzero balances",
    "balances extra",
    "orders",
    "orders --json",
    "orders BTC/USDT ETH/USDT",
    "orders BTC/USDT --nonzero",
    "orders -x",
    "balances -e bybit",
    "balances -e PAPER",
    "balances --exchange=paper",
    "balances --account=alice",
    "balances -aalice",
    "balances -a",
    "balances -a -x",
    "balances -a x -a y",
    "balances -e paper -e paper",
    "balances --base-url http://127.0.0.1:1",
    "balances --proxy http://127.0.0.1:1",
    "balances -- --json",
    "order BTC/USDT",
    "order BTC/USDT 1 2",
    "order --nonzero BTC/USDT 1",
    "buy BTC/USDT 1 1",
    "book BTC/USDT",
    "balance --json",
    "-a balances --json",
  ])("leaves %j to commander", (line) => {
    expect(quickRead(words(line))).toBeUndefined();
  });
});

describe("quickVersion", () => {
  it("answers --version alone, and with --json beside global options", () => {
    expect(quickVersion(["--version"])).toEqual({ command: "version", json: false });
    expect(quickVersion(["-V"])).toEqual({ command: "version", json: false });
    expect(quickVersion(["--json", "-V"])).toEqual({ command: "version", json: true });
    expect(quickVersion(["-e", "bybit", "--version", "--json"])).toEqual({ command: "version", json: true });
  });

  it.each(["", "-V -V", "--version balances", "balances --version --json", "--version --nonzero", "-e --version"])(
    "leaves %j to commander",
    (line) => {
      expect(quickVersion(words(line))).toBeUndefined();
    },
  );
});
