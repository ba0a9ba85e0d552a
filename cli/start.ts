/**
 * What bin/spotdesk runs first (docs/cli.md "Cold start"), built as CommonJS into dist/start.cjs:
 * `--version`, and the paper reads cli/quick.ts understands, run through dist/read.cjs with its
 * V8 code cache; false for everything else, which bin/spotdesk hands to the full CLI
 * (dist/cli.js, commander). CommonJS because Node's ES module loader alone costs a read 5-10% of
 * its start, and only a script (not a module) can use a code cache on Node 20.
 */
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { requireCached } from "./code-cache.js";
import { quickRead, quickVersion, versionLine } from "./quick.js";
import { writeVersion } from "./version-out.js";

/** For test/cli/code-cache.test.ts, which loads files through the built loader. */
export { requireCached };

/** A hash of dist/read.cjs, put here by scripts/build.mjs: the code cache's name changes with the code. */
const READ_KEY = "@@READ-CACHE-KEY";

/** Runs the command line when it is one of the quick ones (and never returns then); else false. */
export function start(argv: readonly string[], dist: string): boolean {
  const version = quickVersion(argv);
  if (version) {
    process.exit(writeVersion(versionLine(version, pkg.version), version.json));
  }
  const read = quickRead(argv);
  if (!read) return false;
  const { exports } = requireCached(join(dist, "read.cjs"), join(dist, `read-${READ_KEY}.v8cache`));
  void (exports as typeof import("./read.js")).runRead(read);
  return true;
}
