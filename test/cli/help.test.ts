/**
 * Help that speaks to users (docs/cli.md "Help"): every command's --help lists the global options
 * that command reads, and no help text points at internal documents (decision numbers, seed
 * sections, issue numbers, docs/ paths).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const COMMANDS = [
  [],
  ["exchanges"],
  ["accounts"],
  ["accounts", "add"],
  ["accounts", "list"],
  ["accounts", "set"],
  ["accounts", "remove"],
  ["balances"],
  ["orders"],
  ["order"],
  ["buy"],
  ["sell"],
  ["batch"],
  ["cancel"],
  ["cancel-batch"],
  ["cancel-all"],
  ["book"],
  ["tui"],
  ["serve"],
  ["users", "grant-admin"],
  ["completion"],
  ["report"],
  ["bot"],
  ["bot", "types"],
  ["bot", "run"],
  ["bot", "status"],
  ["bot", "stop"],
];

/** The long names listed under "Global Options:" in a help text. */
function globalOptions(help: string): string[] {
  const section = help.split("Global Options:")[1] ?? "";
  return [...section.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
}

describe("subcommand help", () => {
  it("lists the global options the command reads", async () => {
    const buy = await cli.run(["buy", "--help"]);
    expect(buy.code).toBe(0);
    expect(globalOptions(buy.stdout)).toEqual([
      "--exchange",
      "--account",
      "--base-url",
      "--ws-url",
      "--proxy",
      "--json",
    ]);
    expect(globalOptions((await cli.run(["book", "--help"])).stdout)).toEqual([
      "--exchange",
      "--base-url",
      "--ws-url",
      "--json",
    ]);
    expect(globalOptions((await cli.run(["serve", "--help"])).stdout)).toEqual(["--json"]);
    expect(globalOptions((await cli.run(["accounts", "remove", "--help"])).stdout)).toEqual(["--exchange", "--json"]);
  });

  it("speaks to users: no decision numbers, seed sections or internal documents", async () => {
    for (const command of COMMANDS) {
      const result = await cli.run([...command, "--help"]);
      expect(result.code, command.join(" ")).toBe(0);
      expect(result.stdout, command.join(" ")).not.toMatch(/PRODUCT|\bseed\b|§|\bD\d+\b|issue \d|docs\//i);
    }
  });
});
