/**
 * Loads a CommonJS file with a V8 code cache beside it (docs/cli.md "Cold start"): V8 takes the
 * compiled code from the cache instead of parsing and compiling the source. Node 20 has no
 * compile cache of its own for our files (`module.enableCompileCache` is 22.1+), so this is
 * `vm.Script` with `cachedData`.
 *
 * The cache is written when there is none or V8 rejected it (another Node version or V8 flags),
 * at the process's exit so that the functions compiled during the run are in it, atomically
 * (temp file + rename), and never at the cost of the command: a cache that cannot be written is
 * skipped. V8 checks the source only by its length, so the cache file's name must change with the
 * source's content (the caller puts a hash of it in the name).
 */
import { readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname } from "node:path";
import { constants, Script } from "node:vm";

/** What the load did with the cache, for tests and for SPOTDESK_DEBUG. */
export type CacheUse = "used" | "rejected" | "absent";

/** Runs `file` as a CommonJS module compiled with the cache in `cacheFile`; returns its exports. */
export function requireCached(path: string, cacheFile: string): { exports: unknown; cache: CacheUse } {
  // by its real path, as Node's loader names modules: a chunk that requires it back finds it
  const file = realpathSync(path);
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
