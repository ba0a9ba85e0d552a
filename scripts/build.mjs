// Builds the CLI (and everything it reaches: TUI, server) into plain JavaScript in dist/, so
// bin/spotdesk starts without compiling TypeScript. The bundler is rolldown (the one inside Vite):
// unlike esbuild it can group modules into named chunks, so everything on the path of a simple
// command (the CLI core, lib core, paper, commander) loads as one file, while the heavy parts
// (Ink, the server, the adapters, feeds, zod, conf) stay in chunks loaded on demand. Cold start
// is measured by `npm run bench` (bench/cli-start.bench.ts).
//
// Safe to call from several test files at once: it skips the build when dist/ is newer than every
// source, and writes each output file atomically (temp file + rename), so a concurrent reader
// never sees half a file. `--force` always builds.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist");
const SOURCE_DIRS = ["lib", "exchanges", "cli", "tui", "server"];

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
// commander is on every command's path: bundled into the core chunk. Every other package stays
// external and is imported where it is used.
const BUNDLED = new Set(["commander", "bignumber.js"]);
const EXTERNAL = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));
// Built-ins are resolved by builtinsByRequire below.
const isExternal = (id) => id === "node:module" || EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));

/** What a simple command (`balances --json` on paper, `orders`, `buy`) needs, as one chunk. */
const CORE =
  /\/(cli\/(run|context|output|exchange|args|commands\/[a-z-]+)|lib\/(errors|types|pair|decimal|orderbook|format|log|random)|exchanges\/(catalogue|open|registry|[a-z]+\/info|paper\/[a-z-]+|core\/(client-order-id|info|limits)))\.ts$|\/node_modules\/(commander|bignumber\.js)\//;

/**
 * Node's built-in modules reached through `require` instead of `import`. Importing a built-in as
 * ESM builds its facade, which reads every export, lazy getters included: `node:fs`'s
 * `ReadStream` getter alone loads the whole streams stack (about 2 ms of a 60 ms start, issue 21).
 * Each built-in our code imports becomes a small module that requires it and re-exports what it
 * has as plain values; a getter is read only where a module imports it by name.
 */
const requireBuiltin = createRequire(import.meta.url);
const BUILTIN_PREFIX = "\0builtin:";
const builtinsByRequire = {
  name: "builtins-by-require",
  resolveId(id, importer, { kind }) {
    if (!id.startsWith("node:") || id === "node:module" || importer?.startsWith(BUILTIN_PREFIX)) return null;
    // a require() or import() takes the whole module anyway: left to node
    if (kind !== "import-statement") return { id, external: true };
    return { id: `${BUILTIN_PREFIX}${id}`, moduleSideEffects: false };
  },
  load(id) {
    if (!id.startsWith(BUILTIN_PREFIX)) return null;
    const name = id.slice(BUILTIN_PREFIX.length);
    const names = Object.keys(requireBuiltin(name)).filter(
      (key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== "default",
    );
    return {
      code: [
        'import { createRequire } from "node:module";',
        `const builtin = createRequire(import.meta.url)(${JSON.stringify(name)});`,
        "export default builtin;",
        ...names.map((key) => `export const ${key} = /* @__PURE__ */ (() => builtin.${key})();`),
      ].join("\n"),
      moduleSideEffects: false,
    };
  },
};

/**
 * commander requires `node:child_process` at load for its executable subcommands, which spotdesk
 * does not have; loading it (and `net`, `stream`) cost about 2 ms of every start. It is required
 * when first spawned instead.
 */
const lazyChildProcess = {
  name: "commander-lazy-child-process",
  transform(code, id) {
    if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
    const eager = "const childProcess = require('node:child_process');";
    if (!code.includes(eager)) throw new Error(`${id}: commander no longer requires child_process as expected`);
    return code.replace(
      eager,
      "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
    );
  },
};

/**
 * V8 keeps a script's source for as long as the script lives: one byte a character when every
 * character is Latin-1, else two bytes a character for the whole source. One "—" or "…" in the
 * core chunk doubled it (0.35 MB to 0.7 MB, in every process). So every non-ASCII character is
 * written as its \u escape, which means the same in a string, a regular expression, an
 * identifier or a comment. A character right after a backslash, or a line separator, would change
 * meaning: a chunk with one is written as it is (docs/tui-memory.md "Script sources").
 */
function asciiOnly(code) {
  let kept = false;
  const escaped = code.replace(/(\\*)([^ -~\t\n\r])/g, (match, slashes, char) => {
    // a line separator ends a line comment: as an escape it would not
    if (slashes.length % 2 === 1 || char === "\u2028" || char === "\u2029") {
      kept = true;
      return match;
    }
    return `${slashes}\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return kept ? code : escaped;
}

function newestSource() {
  let newest = statSync(join(root, "package.json")).mtimeMs;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|json|proto)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of SOURCE_DIRS) walk(join(root, d));
  walk(join(root, "scripts"));
  return newest;
}

function upToDate() {
  try {
    return statSync(join(outdir, "cli.js")).mtimeMs > newestSource();
  } catch {
    return false;
  }
}

if (process.argv.includes("--force") || !upToDate()) {
  const bundle = await rolldown({
    input: { cli: join(root, "cli/main.ts") },
    cwd: root,
    platform: "node",
    external: isExternal,
    transform: { jsx: "react-jsx" },
    plugins: [builtinsByRequire, lazyChildProcess],
    // A module imported both statically and dynamically stays where the static import puts it:
    // expected here (the core chunk), not a problem to report on every build.
    onLog(level, log, handler) {
      if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
      // lazyChildProcess replaces one line by one line: the source map's lines stay right
      if (log.code === "SOURCEMAP_BROKEN" && log.plugin === lazyChildProcess.name) return;
      handler(level, log);
    },
  });
  const { output } = await bundle.generate({
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    sourcemap: true,
    codeSplitting: { groups: [{ name: "core", test: CORE }] },
  });
  await bundle.close();
  const written = new Set();
  for (const file of output) {
    const path = join(outdir, file.fileName);
    const contents = file.type === "chunk" ? asciiOnly(file.code) : file.source;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, contents);
    renameSync(tmp, path);
    written.add(path);
  }
  // Chunks of earlier builds are named by their hash: drop those this build no longer wrote.
  const chunks = join(outdir, "chunks");
  for (const name of readdirSync(chunks)) {
    const path = join(chunks, name);
    if (!written.has(path)) rmSync(path, { force: true });
  }
}
