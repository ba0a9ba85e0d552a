/**
 * Issue 16 "Deleted means deleted" (docs/decisions.md#d4, docs/server-limits.md): removing an API key or a
 * bot leaves no copy of its credentials in the SQLite file or its -wal, searched byte by byte
 * while the server runs and after it stopped.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { sealCredentials } from "../../lib/envelope.js";
import { DATABASE_FILE } from "../../server/index.js";
import { call, registerFirstAdmin, SQLITE_ONLY, startTestServer, type TestServer } from "./helpers.js";

const KEY = "0123456789abcdef0123456789abcdef";
const grid = { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } };

let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

/** The bytes of the database and of its -wal (and -journal, if any). */
function databaseBytes(dataDir: string): Buffer {
  const files = ["", "-wal", "-journal"].map((suffix) => join(dataDir, DATABASE_FILE + suffix)).filter(existsSync);
  return Buffer.concat(files.map((f) => readFileSync(f)));
}

/** Where a secret (or any 24-character piece of it) still is in the files. */
function traces(dataDir: string, secret: string): string[] {
  const bytes = databaseBytes(dataDir);
  const found: string[] = [];
  for (let i = 0; i + 24 <= secret.length; i += 12) {
    const piece = secret.slice(i, i + 24);
    if (bytes.includes(piece)) found.push(piece);
  }
  return found;
}

async function keyAndBot(t: string, path: AccountPath, secret: string) {
  const apis = await sealCredentials({ api: `AK-${secret}`, secret }, "BTC/USDT", KEY);
  expect((await call(server, "POST", "/token/admin/apikeys", { token: t, body: { path, apis } })).status).toBe(200);
  const bot = await call(server, "POST", "/token/bot", {
    token: t,
    headers: { path: pathHeader(path), key: KEY },
    body: grid,
  });
  expect(bot.status).toBe(200);
  const wrapped = (await server.storage.getBot(bot.body.botId))!.wrappedCredentials!;
  return { envelope: apis.data, wrapped, botId: bot.body.botId as string };
}

describe.skipIf(SQLITE_ONLY !== undefined)(
  `deleted means deleted (issue 16, docs/decisions.md#d4)${SQLITE_ONLY ? ` (${SQLITE_ONLY})` : ""}`,
  () => {
    it("removing an API key leaves neither its envelope nor the bots' copy in the database file or its WAL", async () => {
      server = await startTestServer();
      const t = (await registerFirstAdmin(server)).session.accessToken;
      const path: AccountPath = ["Acme", "bybit", "main"];
      const { envelope, wrapped } = await keyAndBot(t, path, "SK-one-4f1c");
      // the search finds them while they exist
      expect(traces(server.dataDir, envelope).length).toBeGreaterThan(0);
      expect(traces(server.dataDir, wrapped).length).toBeGreaterThan(0);
      // other writes after the key was added, so older page copies pile up in the WAL
      for (let i = 0; i < 5; i++)
        await call(server, "POST", "/token/bot", {
          token: t,
          headers: { path: pathHeader(["Demo", "paper", "main"]) },
          body: grid,
        });

      expect((await call(server, "DELETE", "/token/admin/apikeys", { token: t, body: { path } })).status).toBe(200);
      expect(traces(server.dataDir, envelope)).toEqual([]);
      expect(traces(server.dataDir, wrapped)).toEqual([]);
      await server.close();
      expect(traces(server.dataDir, envelope)).toEqual([]);
      expect(traces(server.dataDir, wrapped)).toEqual([]);
    });

    it("removing a bot leaves no copy of its credentials; the API key it came from stays", async () => {
      server = await startTestServer();
      const t = (await registerFirstAdmin(server)).session.accessToken;
      const path: AccountPath = ["Acme", "bybit", "desk"];
      const { envelope, wrapped, botId } = await keyAndBot(t, path, "SK-two-9e2d");
      expect(traces(server.dataDir, wrapped).length).toBeGreaterThan(0);
      expect((await call(server, "DELETE", "/token/bot", { token: t, body: { botId } })).status).toBe(200);
      expect(traces(server.dataDir, wrapped)).toEqual([]);
      expect(traces(server.dataDir, envelope).length).toBeGreaterThan(0);
    });
  },
);
