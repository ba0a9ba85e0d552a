/**
 * `spotdesk completion bash|zsh|fish` (docs/cli.md "Completion"): the scripts come from the built
 * CLI; bash must accept its script (`bash -n`) and complete real command lines with it, calling
 * the CLI back for account names and pairs. zsh and fish are checked for structure (neither
 * shell is installed here).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
let bashScript: string;
let script: string;
let path: string;
beforeAll(async () => {
  cli = sandbox();
  // `spotdesk` on PATH, as the scripts call it back for accounts and pairs
  const bin = join(cli.home, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "spotdesk"), `#!/bin/sh\nexec "${process.execPath}" "${buildCli()}" "$@"\n`);
  chmodSync(join(bin, "spotdesk"), 0o755);
  path = `${bin}:${cli.env.PATH}`;
  const result = await cli.run(["completion", "bash"]);
  expect(result.code, result.stderr).toBe(0);
  bashScript = result.stdout;
  script = join(cli.home, "spotdesk.bash");
  writeFileSync(script, bashScript);
});
afterAll(() => cli.cleanup());

/** What bash offers for the command line `words`, the last word being completed. */
function complete(...words: string[]): string[] {
  const array = words.map((w) => `'${w}'`).join(" ");
  const out = execFileSync(
    "bash",
    [
      "-c",
      `source '${script}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _spotdesk; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { env: { ...cli.env, PATH: path }, encoding: "utf8" },
  );
  return out.split("\n").filter((l) => l !== "");
}

describe("bash", () => {
  it("is accepted by bash -n", () => {
    expect(() => execFileSync("bash", ["-n", script])).not.toThrow();
    expect(bashScript).toContain("complete -F _spotdesk spotdesk");
  });

  it("completes commands, subcommands and options", () => {
    expect(complete("spotdesk", "ca")).toEqual(["cancel", "cancel-batch", "cancel-all"]);
    expect(complete("spotdesk", "accounts", "re")).toEqual(["remove"]);
    expect(complete("spotdesk", "-e", "bybit", "book", "BTC/USDT", "--de")).toEqual(["--depth"]);
    expect(complete("spotdesk", "buy", "--dry")).toEqual(["--dry-run"]);
    expect(complete("spotdesk", "--js")).toEqual(["--json"]);
    expect(complete("spotdesk", "completion", "")).toEqual(["bash", "zsh", "fish"]);
  });

  it("completes exchange ids, account names and pairs", async () => {
    expect(complete("spotdesk", "-e", "by")).toEqual(["bybit"]);
    expect(complete("spotdesk", "--exchange", "b")).toEqual([
      "bingx",
      "bitget",
      "bitrue",
      "bitmart",
      "bitteam",
      "bybit",
    ]);
    await cli.run(["-a", "alice", "balances"]);
    expect(complete("spotdesk", "-a", "al")).toEqual(["alice"]);
    expect(complete("spotdesk", "-e", "okx", "orders", "")).toEqual(["BTC/USDT", "ETH/BTC", "ETH/USDT", "SOL/USDT"]);
    expect(complete("spotdesk", "buy", "ETH/")).toEqual(["ETH/BTC", "ETH/USDT"]);
    // after the pair, buy takes numbers: nothing to offer; an option's value is not a pair either
    expect(complete("spotdesk", "buy", "BTC/USDT", "")).toEqual([]);
    expect(complete("spotdesk", "book", "--depth", "")).toEqual([]);
  });
});

describe("zsh and fish", () => {
  it("zsh loads the bash function through bashcompinit", async () => {
    const result = await cli.run(["completion", "zsh"]);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("#compdef spotdesk\n")).toBe(true);
    expect(result.stdout).toContain("bashcompinit");
    expect(result.stdout).toContain("complete -F _spotdesk spotdesk");
    const file = join(cli.home, "spotdesk.zsh");
    writeFileSync(file, result.stdout);
    expect(() => execFileSync("bash", ["-n", file])).not.toThrow();
  });

  it("fish: one complete line per entry, every command and the dynamic lists", async () => {
    const result = await cli.run(["completion", "fish"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    for (const line of lines) {
      expect(line.startsWith("complete -c spotdesk") || line.startsWith("#"), line).toBe(true);
      expect((line.match(/'/g) ?? []).length % 2, line).toBe(0);
    }
    for (const command of ["buy", "sell", "batch", "cancel-all", "book", "accounts", "serve", "completion"]) {
      expect(result.stdout).toContain(`-n '__fish_use_subcommand' -a ${command} `);
    }
    expect(result.stdout).toContain("(spotdesk completion --list pairs 2>/dev/null)");
    expect(result.stdout).toContain("-l exchange -r -x -a 'paper bingx");
  });

  it("refuses an unknown shell with exit 2", async () => {
    const result = await cli.run(["completion", "tcsh"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown shell 'tcsh': spotdesk completion bash|zsh|fish");
  });
});
