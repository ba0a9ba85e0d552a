/**
 * The CLI at a terminal (docs/cli.md "Confirmations", "Colour and terminals"): the built CLI in a
 * real pseudo-terminal (util-linux `script`), answering its questions through the terminal.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../lib/types.js";
import { buildCli, type Sandbox, sandbox } from "./helpers.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;
const STORE_KEY = "0123456789abcdef0123456789abcdef";
const KEYS = { SPOTDESK_API_KEY: "termkey0123456789", SPOTDESK_API_SECRET: "termsecret0123456789" };

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

/** Runs the CLI on a pseudo-terminal with `input` typed; returns what the terminal showed and the exit code. */
function inTerminal(args: string[], input: string, env: Record<string, string> = {}): { screen: string; code: number } {
  const quoted = [process.execPath, buildCli(), ...args].map((a) => `'${a}'`).join(" ");
  const result = spawnSync("script", ["-qec", `${quoted}; echo EXIT=$?`, "/dev/null"], {
    input,
    env: { ...cli.env, TERM: "xterm", ...env },
    cwd: cli.home,
    encoding: "utf8",
    timeout: 20_000,
  });
  const code = Number(/EXIT=(\d+)/.exec(result.stdout)?.[1] ?? Number.NaN);
  return { screen: result.stdout, code };
}

describe.skipIf(!hasScript)("confirmations on a terminal", () => {
  it("cancel-all asks [y/N]: Enter is no, y cancels, --yes and scripts do not ask", async () => {
    for (const price of ["1000", "1001"]) await cli.json(["-a", "conf", "buy", "BTC/USDT", "0.001", price]);
    const open = () => cli.json<Order[]>(["-a", "conf", "orders", "BTC/USDT"]);

    const no = inTerminal(["-a", "conf", "cancel-all", "BTC/USDT"], "\n");
    expect(no.screen).toContain("Cancel every open BTC/USDT order on paper (account 'conf')? [y/N]");
    expect(no.screen).toContain("Not confirmed: nothing cancelled");
    expect(no.code).toBe(2);
    expect(await open()).toHaveLength(2);

    const yes = inTerminal(["-a", "conf", "cancel-all", "BTC/USDT"], "y\n");
    expect(yes.code).toBe(0);
    expect(await open()).toHaveLength(0);

    await cli.json(["-a", "conf", "buy", "BTC/USDT", "0.001", "1002"]);
    const flag = inTerminal(["-a", "conf", "cancel-all", "BTC/USDT", "--yes"], "");
    expect(flag.screen).not.toContain("[y/N]");
    expect(flag.code).toBe(0);
    expect(await open()).toHaveLength(0);

    // no terminal: a script is not asked (docs/product.md#cli-surface "no prompts when stdin is not a terminal")
    await cli.json(["-a", "conf", "buy", "BTC/USDT", "0.001", "1003"]);
    const piped = await cli.run(["-a", "conf", "cancel-all", "BTC/USDT"]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain("[y/N]");
    expect(await open()).toHaveLength(0);
  });

  it("accounts remove and an accounts add that replaces ask first", async () => {
    const env = { SPOTDESK_STORE_KEY: STORE_KEY, ...KEYS };
    const added = await cli.run(["accounts", "add", "bob", "-e", "bybit"], { env });
    expect(added.code, added.stderr).toBe(0);

    const keep = inTerminal(["accounts", "add", "bob", "-e", "bybit"], "\n", env);
    expect(keep.screen).toMatch(/Replace the stored bybit account 'bob' \(key te…89\)\? \[y\/N\]/);
    expect(keep.code).toBe(2);
    const replace = inTerminal(["accounts", "add", "bob", "-e", "bybit", "--json"], "yes\n", env);
    expect(replace.code).toBe(0);
    expect(replace.screen).toContain('"replaced": true');

    const no = inTerminal(["accounts", "remove", "bob"], "n\n");
    expect(no.screen).toContain("Remove the stored bybit account 'bob' (key te…89)? [y/N]");
    expect(no.code).toBe(2);
    expect(await cli.json<unknown[]>(["accounts", "list"])).toHaveLength(1);
    const yes = inTerminal(["accounts", "remove", "bob"], "y\n");
    expect(yes.code).toBe(0);
    expect(await cli.json<unknown[]>(["accounts", "list"])).toHaveLength(0);
  });
});

describe.skipIf(!hasScript)("TERM=dumb", () => {
  it("book --watch gets no cursor control or colour on a dumb terminal, and does on xterm", () => {
    const args = ["book", "BTC/USDT", "--watch", "--updates", "2", "--depth", "1"];
    const env = { NO_COLOR: "" };
    const dumb = inTerminal(args, "", { ...env, TERM: "dumb" });
    expect(dumb.code).toBe(0);
    expect(dumb.screen).toContain("Price");
    expect(dumb.screen).not.toContain("\u001b");
    const xterm = inTerminal(args, "", env);
    expect(xterm.code).toBe(0);
    expect(xterm.screen).toContain("\u001b[H\u001b[2J");
  });
});
