import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EXCHANGE_IDS } from "../lib/types.js";
import { CATALOGUE, exchangeName, isSupported } from "./catalogue.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const biome = join(root, "node_modules", ".bin", "biome");

/** The pure-data files (docs/exchanges.md "The layering rule"). */
const PURE = [
  "exchanges/catalogue.ts",
  "exchanges/core/info.ts",
  ...readdirSync(join(root, "exchanges"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "core")
    .map((entry) => `exchanges/${entry.name}/info.ts`),
];

/** Runs biome lint in `cwd`, resolving to its exit code and output. */
function lint(cwd: string, files: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(biome, ["lint", "--colors=off", ...files], { cwd }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A throw-away project with this repository's biome.json and one exchange folder holding `source` as info.ts. */
function probe(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-catalogue-"));
  scratch.push(dir);
  cpSync(join(root, "biome.json"), join(dir, "biome.json"));
  mkdirSync(join(dir, "exchanges", "probe"), { recursive: true });
  writeFileSync(join(dir, "exchanges", "probe", "info.ts"), source);
  return dir;
}

describe("the catalogue (docs/exchanges.md)", () => {
  it("holds every exchange id once, under its own id, paper first", () => {
    expect(Object.keys(CATALOGUE).sort()).toEqual([...EXCHANGE_IDS].sort());
    expect(Object.keys(CATALOGUE)[0]).toBe("paper");
    for (const id of EXCHANGE_IDS) expect(CATALOGUE[id].id, id).toBe(id);
    expect(exchangeName("bitteam")).toBe("BIT.TEAM");
    expect(isSupported("okx", "cancelAll")).toBe(false);
    expect(isSupported("okx", "createBatch")).toBe(true);
  });

  it("is a folder per exchange: every exchange folder has an info.ts the catalogue reads", () => {
    for (const id of EXCHANGE_IDS) expect(PURE, id).toContain(`exchanges/${id}/info.ts`);
  });

  it("imports only types and other pure-data modules in info.ts and the catalogue", () => {
    const allowed = /^(\.\.\/core\/info\.js|\.\.\/\.\.\/lib\/types\.js|\.\.\/lib\/types\.js|\.\/[a-z]+\/info\.js)$/;
    for (const file of PURE) {
      const source = readFileSync(join(root, file), "utf8");
      const specifiers = [...source.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(allowed);
    }
  });

  it("passes the lint rule as written", async () => {
    const result = await lint(root, PURE);
    expect(result.output).not.toContain("noRestrictedImports");
    expect(result.code).toBe(0);
  });

  it("fails the lint rule on a node:* import in an info.ts, naming the rule", async () => {
    const dir = probe(
      'import { readFileSync } from "node:fs";\nimport type { ExchangeInfo } from "../core/info.js";\n\nexport const X: ExchangeInfo | string = String(readFileSync);\n',
    );
    const result = await lint(dir, ["exchanges/probe/info.ts"]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("lint/style/noRestrictedImports");
    expect(result.output).toContain("pure data");
  });

  it("fails the lint rule on a runtime module (lib/errors) in an info.ts, and passes the allowed imports", async () => {
    const bad = probe(
      'import { ExchangeError } from "../../lib/errors.js";\n\nexport const X = String(ExchangeError);\n',
    );
    const refused = await lint(bad, ["exchanges/probe/info.ts"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("lint/style/noRestrictedImports");
    const good = probe(
      'import type { ExchangeInfo } from "../core/info.js";\nimport type { ExchangeId } from "../../lib/types.js";\n\nexport const X: ExchangeInfo | ExchangeId | undefined = undefined;\n',
    );
    const accepted = await lint(good, ["exchanges/probe/info.ts"]);
    expect(accepted.output).not.toContain("noRestrictedImports");
    expect(accepted.code).toBe(0);
  });
});
