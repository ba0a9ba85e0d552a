/**
 * The V8 code cache of the read path (cli/code-cache.ts, docs/cli.md "Cold start"), through the
 * built loader (dist/start.cjs) in real Node processes: the cache is written at the first exit,
 * used by the next start, rewritten when V8 rejects it, and a cache that cannot be written never
 * costs the command anything.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, ROOT } from "./helpers.js";

let dir: string;
beforeAll(() => {
  buildCli();
  dir = mkdtempSync(join(tmpdir(), "spotdesk-code-cache-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loads `file` with the cache `cacheFile` in a new process; prints what the load reported and what the module computed. */
function load(
  file: string,
  cacheFile: string,
  how: "hand" | "node" = "hand",
): { cache: string; value: unknown; same?: boolean } {
  const script = `
    const { requireCached } = require(${JSON.stringify(join(ROOT, "dist", "start.cjs"))});
    const { exports, cache } = requireCached(process.argv[1], process.argv[2], { nodeCache: process.argv[3] === "node" });
    Promise.resolve(exports.value()).then((value) => {
      process.stdout.write(JSON.stringify({ cache, value, same: exports.again ? exports.again() === exports : undefined }));
    });`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script, file, cacheFile, how], { encoding: "utf8" }));
}

function module(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

/** Node 22.1+ (docs/node-versions.md): there the read path uses Node's own compile cache. */
const nodeHasCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe("requireCached on Node's own compile cache (Node 22.1+; scripts/node24.sh runs it)", () => {
  it.runIf(nodeHasCompileCache)("fills the directory beside the cache file, and runs the code from it", () => {
    const file = module("native.cjs", "exports.value = () => 'from node';\n");
    const cacheFile = join(dir, "native-cache", "native.v8cache");
    mkdirSync(join(dir, "native-cache"));
    expect(load(file, cacheFile, "node")).toEqual({ cache: "node", value: "from node" });
    expect(readdirSync(join(dir, "native-cache", "node-compile-cache")).length).toBeGreaterThan(0);
    expect(load(file, cacheFile, "node")).toEqual({ cache: "node", value: "from node" });
    expect(existsSync(cacheFile)).toBe(false);
  });

  it.runIf(!nodeHasCompileCache)("is not there on this Node, which takes the hand-made path by default", () => {
    const file = module("default.cjs", "exports.value = () => 1;\n");
    expect(load(file, join(dir, "default.v8cache"), "node")).toEqual({ cache: "absent", value: 1 });
  });
});

describe("requireCached, the Node 20 path (vm.Script with cachedData)", () => {
  it("writes the cache at the first exit and takes it at the next start", () => {
    const file = module("sum.cjs", "exports.value = () => [1, 2, 3].reduce((a, b) => a + b, 0);\n");
    const cacheFile = join(dir, "sum.v8cache");
    expect(load(file, cacheFile)).toEqual({ cache: "absent", value: 6 });
    expect(readFileSync(cacheFile).length).toBeGreaterThan(0);
    expect(load(file, cacheFile)).toEqual({ cache: "used", value: 6 });
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("rewrites a cache V8 rejects, and still runs the code", () => {
    const file = module("reject.cjs", "exports.value = () => 'still right';\n");
    const cacheFile = join(dir, "reject.v8cache");
    const garbage = Buffer.alloc(4096, 7);
    writeFileSync(cacheFile, garbage);
    expect(load(file, cacheFile)).toEqual({ cache: "rejected", value: "still right" });
    expect(readFileSync(cacheFile).equals(garbage)).toBe(false);
    expect(load(file, cacheFile)).toEqual({ cache: "used", value: "still right" });
  });

  it("runs the command when the cache cannot be written, leaving nothing behind", () => {
    const file = module("nowhere.cjs", "exports.value = () => 42;\n");
    const notADir = module("not-a-dir", "");
    const cacheFile = join(notADir, "nowhere.v8cache");
    expect(load(file, cacheFile)).toEqual({ cache: "absent", value: 42 });
    expect(load(file, cacheFile)).toEqual({ cache: "absent", value: 42 });
    expect(existsSync(cacheFile)).toBe(false);
  });

  it("keeps one copy of the module when a chunk it loads requires it back", () => {
    module("back.cjs", "module.exports = require('./main.cjs');\n");
    const file = module(
      "main.cjs",
      "exports.value = () => require('./back.cjs').marker;\nexports.marker = 'one copy';\nexports.again = () => require('./back.cjs');\n",
    );
    expect(load(file, join(dir, "main.v8cache"))).toEqual({ cache: "absent", value: "one copy", same: true });
    // reached through a symbolic link, as a linked install is
    const link = join(dir, "linked");
    symlinkSync(dir, link);
    expect(load(join(link, "main.cjs"), join(dir, "main.v8cache"))).toEqual({
      cache: "used",
      value: "one copy",
      same: true,
    });
  });

  it("lets the module import() an ES module", () => {
    const esm = module("esm.mjs", "export const answer = 'from esm';\n");
    const file = module(
      "dynamic.cjs",
      `exports.value = () => import(${JSON.stringify(`file://${esm}`)}).then((m) => m.answer);\n`,
    );
    expect(load(file, join(dir, "dynamic.v8cache"))).toEqual({ cache: "absent", value: "from esm" });
  });
});
