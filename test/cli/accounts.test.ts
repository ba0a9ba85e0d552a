/**
 * The local credential store (issue 2 item 5; docs/decisions.md#d3): entries sealed with lib/envelope.ts,
 * the key from SPOTDESK_STORE_KEY (no prompt without a terminal), never a credential in output or
 * in clear in the file, a corrupt file left untouched.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, sandbox } from "./helpers.js";

const STORE_KEY = "correct horse battery staple 32"; // 31 characters: not a valid entered key
const GOOD_KEY = "0123456789abcdef0123456789abcdef"; // 32 characters
const API_KEY = "AKIAXREALAPIKEY0001";
const API_SECRET = "topsecretvalue-do-not-print";
const PASSPHRASE = "my-passphrase-42";

let cli: Sandbox;
let storeFile: string;
beforeAll(() => {
  cli = sandbox();
  storeFile = join(cli.env.SPOTDESK_CONFIG_DIR!, "accounts.json");
});
afterAll(() => cli.cleanup());

const secrets = { SPOTDESK_API_KEY: API_KEY, SPOTDESK_API_SECRET: API_SECRET, SPOTDESK_API_PASSWORD: PASSPHRASE };

function expectNoCredential(text: string): void {
  for (const secret of [API_KEY, API_SECRET, PASSPHRASE, GOOD_KEY]) expect(text).not.toContain(secret);
}

describe("accounts add | list | remove", () => {
  it("needs the store key: with no terminal and no SPOTDESK_STORE_KEY, a clear auth error and no prompt", async () => {
    const result = await cli.run(["accounts", "add", "main", "--exchange", "okx"], { env: secrets });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("SPOTDESK_STORE_KEY");
    expect(result.stderr).toContain("not a terminal");
  });

  it("refuses a store key that is not 16, 24 or 32 characters (docs/decisions.md#d3)", async () => {
    const result = await cli.run(["accounts", "add", "main", "--exchange", "okx"], {
      env: { ...secrets, SPOTDESK_STORE_KEY: STORE_KEY },
    });
    expect(result.code).toBe(2);
    // the rule of docs/decisions.md#d36 too: a 64-hex generated key is taken
    expect(result.stderr).toContain(
      "Encryption key must be 16, 24 or 32 characters, or the 64 hex characters of a generated key",
    );
  });

  it("asks for --exchange rather than storing keys for paper", async () => {
    const result = await cli.run(["accounts", "add", "main"], { env: { ...secrets, SPOTDESK_STORE_KEY: GOOD_KEY } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--exchange");
  });

  it("adds an okx account from the environment, encrypted at rest, the key shown masked", async () => {
    const result = await cli.run(["accounts", "add", "main", "--exchange", "okx", "--json"], {
      env: { ...secrets, SPOTDESK_STORE_KEY: GOOD_KEY },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      exchange: "okx",
      name: "main",
      key: "AK…01",
      pair: null,
      farPricePercent: null,
      replaced: false,
    });
    expectNoCredential(result.stdout + result.stderr);
    const file = readFileSync(storeFile, "utf8");
    expectNoCredential(file);
    const stored = JSON.parse(file);
    expect(stored.accounts["okx/main"].envelope.data).toMatch(/^[0-9a-f]{24}[0-9a-f]+$/);
  });

  it("adds a second account (bybit) under the same store key", async () => {
    const result = await cli.run(["accounts", "add", "desk2", "--exchange", "bybit"], {
      env: { SPOTDESK_API_KEY: "BYBITKEY12345678", SPOTDESK_API_SECRET: "bybitsecret", SPOTDESK_STORE_KEY: GOOD_KEY },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Added bybit account 'desk2' (key BY…78)");
  });

  it("refuses a store key that does not open the existing store", async () => {
    const result = await cli.run(["accounts", "add", "other", "--exchange", "bybit"], {
      env: { SPOTDESK_API_KEY: "x".repeat(10), SPOTDESK_API_SECRET: "y", SPOTDESK_STORE_KEY: "fedcba9876543210" },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Wrong store key");
  });

  it("lists exchange, name and masked key — without the store key, and never a credential", async () => {
    const rows = await cli.json<Array<Record<string, unknown>>>(["accounts", "list"]);
    expect(rows.map((r) => [r.exchange, r.name, r.key])).toEqual([
      ["bybit", "desk2", "BY…78"],
      ["okx", "main", "AK…01"],
    ]);
    const table = await cli.run(["accounts", "list"]);
    expect(table.stdout).toMatch(/okx\s+main\s+AK…01/);
    expectNoCredential(table.stdout + table.stderr);
  });

  it("uses the stored account for a real exchange: the wrong store key is an auth error before any request", async () => {
    const result = await cli.run(
      ["--exchange", "okx", "--account", "main", "--base-url", "http://127.0.0.1:9", "balances"],
      {
        env: { SPOTDESK_STORE_KEY: "fedcba9876543210" },
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Wrong store key");
  });

  it("names the command to add an account that is not stored", async () => {
    const result = await cli.run(["--exchange", "bybit", "--account", "nope", "balances"], {
      env: { SPOTDESK_STORE_KEY: GOOD_KEY },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("spotdesk accounts add nope --exchange bybit");
  });

  it("removes an account", async () => {
    const removed = await cli.json<Record<string, unknown>>(["accounts", "remove", "desk2"]);
    expect(removed).toEqual({ exchange: "bybit", name: "desk2", removed: true });
    const rows = await cli.json<Array<Record<string, unknown>>>(["accounts", "list"]);
    expect(rows.map((r) => r.name)).toEqual(["main"]);
    const again = await cli.run(["accounts", "remove", "desk2"]);
    expect(again.code).toBe(2);
  });

  it("reports a corrupt store file clearly and leaves it untouched", async () => {
    const corrupt = '{"version": 1, "accounts": {';
    writeFileSync(storeFile, corrupt);
    for (const args of [
      ["accounts", "list"],
      ["accounts", "remove", "main"],
      ["--exchange", "okx", "balances"],
    ]) {
      const result = await cli.run(args, { env: { SPOTDESK_STORE_KEY: GOOD_KEY } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("is corrupt");
      expect(result.stderr).toContain(storeFile);
    }
    const added = await cli.run(["accounts", "add", "x", "--exchange", "bybit"], {
      env: { ...secrets, SPOTDESK_STORE_KEY: GOOD_KEY },
    });
    expect(added.code).toBe(2);
    expect(readFileSync(storeFile, "utf8")).toBe(corrupt);
    writeFileSync(storeFile, JSON.stringify({ version: 1, accounts: { "okx/main": { exchange: "okx" } } }));
    const shape = await cli.run(["accounts", "list"]);
    expect(shape.code).toBe(2);
    expect(shape.stderr).toContain("is corrupt");
  });
});
