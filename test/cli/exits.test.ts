/**
 * Exits that tell the truth and the JSON error contract (docs/cli.md): the built CLI as a child
 * process, with stdout on /dev/full or a closed pipe, signals during --watch, a busy port, an
 * unwritable HOME, usage errors under --json.
 */
import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, openSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer, Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../lib/types.js";
import { buildCli, type CliResult, type Sandbox, sandbox } from "./helpers.js";

const T0 = 1_800_000_000_000;
const at = { SPOTDESK_PAPER_NOW: String(T0) };

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

interface JsonError {
  error: { exchange?: string; kind: string; message: string; exitCode: number; placed?: Order[] };
}
const lastJsonLine = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1)!) as JsonError;

/** Runs the CLI with stdout on a given fd ("/dev/full") or on a pipe its reader closed at once. */
function runWithStdout(args: string[], stdout: "full" | "closed-pipe", env: Record<string, string> = {}) {
  const fd = stdout === "full" ? openSync("/dev/full", "w") : "pipe";
  const child = spawn(process.execPath, [buildCli(), ...args], {
    env: { ...cli.env, ...env },
    cwd: cli.home,
    stdio: ["ignore", fd, "pipe"],
  });
  if (typeof fd === "number") closeSync(fd);
  else child.stdout!.destroy();
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stderr })),
  );
}

describe("a result that cannot be written (docs/cli.md 'Exit codes')", () => {
  it("exits 11 after an order went out to /dev/full, naming the order on stderr", async () => {
    const result = await runWithStdout(
      ["-a", "full", "buy", "BTC/USDT", "0.001", "1000", "--client-order-id", "full-1", "--json"],
      "full",
      at,
    );
    expect(result.code).toBe(11);
    const orders = await cli.json<Order[]>(["-a", "full", "orders", "BTC/USDT"], { env: at });
    expect(orders).toHaveLength(1);
    expect(result.stderr).toContain(`buy order ${orders[0]!.id} placed (client order id full-1)`);
    expect(result.stderr).toContain("Could not write the result to stdout (ENOSPC)");
    expect(lastJsonLine(result.stderr).error).toMatchObject({ exchange: "paper", kind: "output", exitCode: 11 });
  });

  it("exits 11 for --version on /dev/full, as every other command; 0 when the reader closed the pipe", async () => {
    const full = await runWithStdout(["--version"], "full");
    expect(full.code).toBe(11);
    expect(full.stderr).toContain("Could not write the result to stdout (ENOSPC)");
    const json = await runWithStdout(["--version", "--json"], "full");
    expect(json.code).toBe(11);
    expect(lastJsonLine(json.stderr).error).toMatchObject({ kind: "output", exitCode: 11 });
    expect(await runWithStdout(["--version"], "closed-pipe")).toEqual({ code: 0, stderr: "" });
  });

  it("exits 11 when the reader closed the pipe after an order, 0 for a read command", async () => {
    const order = await runWithStdout(["-a", "pipe", "sell", "BTC/USDT", "0.001", "90000"], "closed-pipe", at);
    expect(order.code).toBe(11);
    const [placed] = await cli.json<Order[]>(["-a", "pipe", "orders", "BTC/USDT"], { env: at });
    expect(order.stderr).toContain(`sell order ${placed!.id} placed`);
    const read = await runWithStdout(["-a", "pipe", "orders", "BTC/USDT"], "closed-pipe", at);
    expect(read).toEqual({ code: 0, stderr: "" });
  });

  it("writes a result larger than the pipe whole when stdout is a non-blocking pipe (docs/cli.md 'Cold start')", async () => {
    // A FIFO opened O_NONBLOCK on both ends, read only after the CLI has filled it: the CLI's
    // direct write meets EAGAIN after 64 KiB and must hand the rest to the stream, not drop it.
    const fifo = join(cli.home, "stdout.fifo");
    execFileSync("mkfifo", [fifo]);
    const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeFd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const orders = Array.from({ length: 300 }, (_, i) => ({ side: "buy", amount: "0.001", price: String(20_000 + i) }));
    const batchFile = join(cli.home, "batch-300.json");
    writeFileSync(batchFile, JSON.stringify(orders));
    const child = spawn(
      process.execPath,
      [buildCli(), "-a", "fifo", "batch", "BTC/USDT", batchFile, "--split", "--json"],
      { env: { ...cli.env, ...at }, cwd: cli.home, stdio: ["ignore", writeFd, "pipe"] },
    );
    closeSync(writeFd);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    // Nothing is read until the CLI has written more than the pipe holds, or exited.
    const waited = await new Promise<"exited" | "blocked">((resolve) => {
      const timer = setTimeout(() => resolve("blocked"), 3000);
      child.on("exit", () => {
        clearTimeout(timer);
        resolve("exited");
      });
    });
    expect(waited).toBe("blocked");
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const reader = new Socket({ fd: readFd, readable: true, writable: false });
    let stdout = "";
    reader.on("data", (chunk) => (stdout += chunk));
    await new Promise((resolve) => reader.on("close", resolve));
    const code = await closed;
    expect({ code, stderr: stderr.replace(/^paper account .*\n/, "") }).toEqual({ code: 0, stderr: "" });
    expect(Buffer.byteLength(stdout)).toBeGreaterThan(65_536);
    const placed = JSON.parse(stdout) as Order[];
    expect(placed.map((o) => o.price)).toEqual(orders.map((o) => o.price));
  });

  it("exits 11 when a read's result does not fit on the disk", async () => {
    const result = await runWithStdout(["balances"], "full");
    expect(result.code).toBe(11);
    expect(result.stderr).toContain("ENOSPC");
  });
});

describe("signals during book --watch", () => {
  it("SIGTERM ends the stream with a final 'closed' line and exit 143", async () => {
    const child = spawn(process.execPath, [buildCli(), "book", "BTC/USDT", "--watch", "--json", "--depth", "1"], {
      env: cli.env,
      cwd: cli.home,
    });
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no watch line: ${stdout}`)), 8000);
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("\n")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(143);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { state: string });
    expect(lines[0]!.state).toBe("live");
    expect(lines.at(-1)!.state).toBe("closed");
  });
});

describe("signals during book --watch, as text", () => {
  it("SIGINT ends the table stream with a 'Stopped by SIGINT' line and exit 130", async () => {
    const child = spawn(process.execPath, [buildCli(), "book", "BTC/USDT", "--watch", "--depth", "1"], {
      env: cli.env,
      cwd: cli.home,
    });
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no table: ${stdout}`)), 8000);
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("Total")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^Stopped by SIGINT at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});

describe("serve that cannot start", () => {
  it("a busy port is kind network, exit 8", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const result = await cli.run(["serve", "--port", String(port), "--data", join(cli.home, "srv"), "--json"]);
      expect(result.code).toBe(8);
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(lastJsonLine(result.stderr).error).toMatchObject({ kind: "network", exitCode: 8 });
    } finally {
      busy.close();
    }
  });

  it("a refused host is kind config, exit 2, in the user's words", async () => {
    const result = await cli.run(["serve", "--host", "0.0.0.0", "--port", "0", "--data", join(cli.home, "srv")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Refusing to serve plain HTTP on 0.0.0.0");
    expect(result.stderr).not.toContain("PRODUCT");
  });
});

describe("an unwritable HOME or data directory (kind config, exit 2)", () => {
  it("names SPOTDESK_DATA_DIR and HOME when paper cannot write its data directory", async () => {
    const home = join(cli.home, "home-is-a-file");
    writeFileSync(home, "");
    const env = { HOME: home, SPOTDESK_DATA_DIR: "", XDG_DATA_HOME: "", SPOTDESK_CONFIG_DIR: "", XDG_CONFIG_HOME: "" };
    const balances = await cli.run(["balances", "--json"], { env });
    expect(balances.code).toBe(2);
    expect(balances.stdout).toBe("");
    expect(balances.stderr).toContain("set SPOTDESK_DATA_DIR to a writable directory");
    expect(balances.stderr).toContain(`HOME is '${home}'`);
    expect(lastJsonLine(balances.stderr).error).toMatchObject({ exchange: "paper", kind: "config", exitCode: 2 });

    const accounts = await cli.run(["accounts", "list", "--json"], { env });
    expect(accounts.code).toBe(2);
    expect(accounts.stderr).toContain("set SPOTDESK_CONFIG_DIR to a writable directory");
    expect(lastJsonLine(accounts.stderr).error.kind).toBe("config");

    const dataDir = await cli.run(["orders", "BTC/USDT"], { env: { SPOTDESK_DATA_DIR: join(home, "data") } });
    expect(dataDir.code).toBe(2);
    expect(dataDir.stderr).toContain(`set SPOTDESK_DATA_DIR (now '${join(home, "data")}') to a writable directory`);
  });
});

describe("the JSON contract for every error", () => {
  it("usage errors print the JSON error line with --json, under the exchange named", async () => {
    const unknown = await cli.run(["-e", "bybit", "balances", "--frobnicate", "--json"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(lastJsonLine(unknown.stderr)).toEqual({
      error: { exchange: "bybit", kind: "usage", message: "unknown option '--frobnicate'", exitCode: 2 },
    });
    const missing = await cli.run(["orders", "--json"]);
    expect(lastJsonLine(missing.stderr).error).toMatchObject({ exchange: "paper", kind: "usage", exitCode: 2 });
    // without --json, no JSON line
    expect((await cli.run(["orders"])).stderr).not.toContain('{"error"');
  });

  it("--version --json prints JSON", async () => {
    const result = await cli.run(["--version", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const withGlobals = await cli.run(["-e", "bybit", "-V", "--json"]);
    expect(JSON.parse(withGlobals.stdout)).toEqual(JSON.parse(result.stdout));
  });

  it("no command at all is a usage error, also in JSON", async () => {
    const result = await cli.run(["--json"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(lastJsonLine(result.stderr).error).toMatchObject({ kind: "usage", message: "missing command: see --help" });
  });

  it("names the exchange acted on, and the message does not repeat the prefix", async () => {
    const result: CliResult = await cli.run(["-e", "bybit", "book", "BTC/USDT", "--depth", "0", "--json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ExchangeId: bybit, msg: Invalid depth '0'/);
    const { error } = lastJsonLine(result.stderr);
    expect(error).toMatchObject({ exchange: "bybit", kind: "bad-input", exitCode: 2 });
    expect(error.message).toBe("Invalid depth '0': expected a whole number from 1 to 1000");

    const paper = await cli.run(["buy", "BTC/USDT", "abc", "1000", "--json"]);
    expect(paper.code).toBe(2);
    expect(lastJsonLine(paper.stderr).error.exchange).toBe("paper");
    expect(lastJsonLine(paper.stderr).error.message).not.toContain("ExchangeId");
  });
});

describe("batch --split that fails part way (docs/cli.md 'Partial results')", () => {
  it("prints the orders on the exchange and numbers the failing item by its input position", async () => {
    const env = { ...at };
    // three items placed before, found again by client order id and not sent twice
    const earlier = [1, 2, 3].map((i) => ({
      side: "buy",
      amount: "0.001",
      price: String(900 + i),
      clientOrderId: `early-${i}`,
    }));
    await cli.json(["-a", "split2", "batch", "BTC/USDT"], { env, stdin: JSON.stringify(earlier) });
    const items = [
      ...earlier,
      ...Array.from({ length: 100 }, (_, i) => ({ side: "buy", amount: "0.001", price: String(1000 + i) })),
      // input item 104: far more USDT than the account holds
      { side: "buy", amount: "100", price: "1101" },
    ];
    const result = await cli.run(["-a", "split2", "batch", "BTC/USDT", "--split", "--json"], {
      env,
      stdin: JSON.stringify(items),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("100 of 101 orders placed (");
    expect(result.stderr).toContain("item 104 not placed: the batch of item 104 failed: Batch item 104:");
    const stdout = JSON.parse(result.stdout) as (Order & { account: string })[];
    expect(stdout).toHaveLength(103);
    expect(stdout.slice(0, 3).map((o) => o.clientOrderId)).toEqual(["early-1", "early-2", "early-3"]);
    expect(stdout[3]).toMatchObject({ price: "1000", account: "split2" });
    expect(lastJsonLine(result.stderr).error.placed?.map((o) => o.id)).toEqual(stdout.map((o) => o.id));
    expect(await cli.json<Order[]>(["-a", "split2", "orders", "BTC/USDT"], { env })).toHaveLength(103);

    // without --json, the placed orders are the table on stdout
    const again = [
      ...Array.from({ length: 100 }, (_, i) => ({ side: "buy", amount: "0.001", price: String(2000 + i) })),
      { side: "buy", amount: "100", price: "2100" },
    ];
    const text = await cli.run(["-a", "split3", "batch", "BTC/USDT", "--split"], { env, stdin: JSON.stringify(again) });
    expect(text.code).toBe(4);
    expect(text.stdout.trim().split("\n")).toHaveLength(101);
    expect(text.stdout).toContain("2099");
    expect(text.stderr).toContain("item 101 not placed");
  });
});

describe("colour", () => {
  it("FORCE_COLOR colours a pipe even with NO_COLOR; FORCE_COLOR=0 never", async () => {
    const forced = await cli.run(["balances"], { env: { FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain("\u001b[1m");
    const off = await cli.run(["balances"], { env: { FORCE_COLOR: "0" } });
    expect(off.stdout).not.toContain("\u001b[");
  });
});

describe("-a with a paper account that does not exist yet (docs/cli.md 'Paper accounts')", () => {
  it("says it is creating it, once; the default account and known accounts stay quiet", async () => {
    const first = await cli.run(["-a", "newbie", "balances", "--json"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("paper account 'newbie' does not exist yet: creating it with the demo balances\n");
    expect(JSON.parse(first.stdout)).toMatchObject({ account: "newbie", USDT: { f: "10000", l: "0" } });
    const again = await cli.run(["-a", "newbie", "balances", "--json"]);
    expect(again.stderr).toBe("");
    const fresh = sandbox();
    try {
      expect((await fresh.run(["balances", "--json"])).stderr).toBe("");
    } finally {
      fresh.cleanup();
    }
  });
});
