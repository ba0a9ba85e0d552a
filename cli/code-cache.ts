/**
 * Loads a CommonJS file with a V8 code cache beside it (docs/cli.md "Cold start"): V8 takes the
 * compiled code from the cache instead of parsing and compiling the source. Where Node has a
 * compile cache of its own (`module.enableCompileCache`, 22.1+) that is used, in a directory
 * beside the cache file; Node 20 has none for our files, so there this is `vm.Script` with
 * `cachedData` (a Node-20-only path: docs/node-versions.md).
 *
 * The cache is written when there is none or V8 rejected it (another Node version or V8 flags),
 * at the process's exit so that the functions compiled during the run are in it, atomically
 * (temp file + rename), and never at the cost of the command: a cache that cannot be written is
 * skipped. V8 checks the source only by its length, so the cache file's name must change with the
 * source's content (the caller puts a hash of it in the name).
 */
import { readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { constants, Script } from "node:vm";

/** What the load did with the cache, for tests and for SPOTDESK_DEBUG; "node": Node's own compile cache. */
export type CacheUse = "used" | "rejected" | "absent" | "node";

/** `module.enableCompileCache` of Node 22.1+, absent on Node 20. */
type EnableCompileCache = (directory: string) => { status: number; directory?: string };
const enableCompileCache = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;

/** Whether this Node has a compile cache of its own (22.1+). */
export const hasNodeCompileCache = typeof enableCompileCache === "function";

/**
 * Runs `file` as a CommonJS module compiled with the cache in `cacheFile`; returns its exports.
 * `nodeCache: false` takes the Node 20 path on any Node (its tests run everywhere).
 */
export function requireCached(
  path: string,
  cacheFile: string,
  { nodeCache = hasNodeCompileCache }: { nodeCache?: boolean } = {},
): { exports: unknown; cache: CacheUse } {
  // by its real path, as Node's loader names modules: a chunk that requires it back finds it
  const file = realpathSync(path);
  if (nodeCache && enableCompileCache) {
    // Node keys its entries by the source's hash; a directory it cannot create only costs the cache
    enableCompileCache(join(dirname(cacheFile), "node-compile-cache"));
    return { exports: createRequire(file)(file), cache: "node" };
  }
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // an import() in the file goes to Node's loader, as in a module Node loaded itself (20.12+)
    ...(constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
      ? { importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
      : {}),
  });
  const cache: CacheUse = cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "used";
  if (cache !== "used") process.once("exit", () => writeCache(script, cacheFile));
  // A real module in require's cache: a chunk the file loads later that requires the file back
  // gets these exports, not a second copy of every class and every module's state.
  const require = createRequire(file);
  const module = new Module(file);
  module.filename = file;
  require.cache[file] = module;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, file, dirname(file));
  module.loaded = true;
  return { exports: module.exports, cache };
}

function writeCache(script: Script, cacheFile: string): void {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cacheFile);
  } catch {
    // a read-only install, a full disk: the next start compiles the source again
    try {
      rmSync(tmp, { force: true });
    } catch {}
  }
}
