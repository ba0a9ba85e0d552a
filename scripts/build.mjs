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

import { createHash } from "node:crypto";
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

/** A file of rolldown's output as it is written: chunks in ASCII (asciiOnly), source maps as they are. */
const contentsOf = (file) => (file.type === "chunk" ? asciiOnly(file.code) : file.source);

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

/** rolldown's options shared by both builds. */
const common = {
  cwd: root,
  platform: "node",
  external: isExternal,
  transform: { jsx: "react-jsx" },
  // A module imported both statically and dynamically stays where the static import puts it:
  // expected here (the core chunk), not a problem to report on every build.
  onLog(level, log, handler) {
    if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
    // lazyChildProcess replaces one line by one line: the source map's lines stay right
    if (log.code === "SOURCEMAP_BROKEN" && log.plugin === lazyChildProcess.name) return;
    handler(level, log);
  },
};

/**
 * The full CLI as ES modules: dist/cli.js and its chunks (commander and every command).
 */
async function buildCli() {
  const bundle = await rolldown({
    ...common,
    input: { cli: join(root, "cli/main.ts") },
    plugins: [builtinsByRequire, lazyChildProcess],
  });
  const { output } = await bundle.generate({
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    sourcemap: true,
    codeSplitting: { groups: [{ name: "core", test: CORE }] },
  });
  await bundle.close();
  return output;
}

const READ_KEY = "@@READ-CACHE-KEY";

/**
 * What the read path never loads (it opens paper only, sends nothing, asks no key: cli/quick.ts
 * takes no other exchange and no --dry-run): the registry's fifteen venue adapters, the key store
 * (conf, which `require` cannot load), --dry-run and its pseudo-requests. In dist/read.cjs these
 * dynamic imports become a module that refuses, so none of their code, nor what they share with
 * paper, is split into chunks of the read path.
 */
const NOT_IN_READ_PATH = [
  { importer: /[\\/]exchanges[\\/]registry\.ts$/, id: /^\.\/[a-z]+\/rest\.js$/ },
  { importer: /[\\/]exchanges[\\/]open\.ts$/, id: /^\.\/core\/rest\.js$/ },
  { importer: /[\\/]cli[\\/](exchange|run)\.ts$/, id: /^\.\/(store|dry-run)\.js$/ },
];
const REFUSED_PREFIX = "\0not-in-read-path:";
const readPathOnly = {
  name: "read-path-only",
  resolveId(id, importer, { kind }) {
    if (kind !== "dynamic-import" || importer === undefined) return null;
    if (!NOT_IN_READ_PATH.some((rule) => rule.importer.test(importer) && rule.id.test(id))) return null;
    return { id: `${REFUSED_PREFIX}${id}` };
  },
  load(id) {
    if (!id.startsWith(REFUSED_PREFIX)) return null;
    return `throw new Error(${JSON.stringify(`${id.slice(REFUSED_PREFIX.length)} is not in the read path (dist/read.cjs opens paper only)`)});`;
  },
};

/**
 * The read path runs as CommonJS: a package one of its files requires must be one `require` can
 * load on Node 20 (not an ES-module-only one), or every read would fail. Checked here, once.
 */
function assertRequirable(files) {
  const requireFromRoot = createRequire(join(root, "package.json"));
  for (const file of files) {
    for (const [, name] of file.contents.matchAll(/\brequire\("([^".][^"]*)"\)/g)) {
      if (name.startsWith("node:")) continue;
      try {
        requireFromRoot(name);
      } catch (error) {
        throw new Error(
          `dist/${file.fileName} requires '${name}', which require() cannot load (${error.code ?? error.message}): keep it off the read path (docs/cli.md "Cold start")`,
        );
      }
    }
  }
}

/**
 * The launcher's first step and the read path, as CommonJS (no ES module loader, and a V8 code
 * cache: cli/code-cache.ts): dist/start.cjs (cli/start.ts: --version and the line parser,
 * cli/quick.ts) and dist/read.cjs (cli/read.ts with paper), whose lazy parts go to
 * dist/read-chunks/. The hash of read.cjs goes into start.cjs, naming the code cache.
 */
async function buildRead() {
  const bundle = await rolldown({
    ...common,
    input: { start: join(root, "cli/start.ts"), read: join(root, "cli/read.ts") },
    plugins: [readPathOnly],
    // what a lazy chunk shares with read.cjs stays in read.cjs (exported from it) instead of
    // small chunks of its own that every read would load (cli/code-cache.ts keeps one copy)
    preserveEntrySignatures: "allow-extension",
  });
  const { output } = await bundle.generate({
    format: "cjs",
    entryFileNames: "[name].cjs",
    chunkFileNames: "read-chunks/[name]-[hash].cjs",
    sourcemap: true,
  });
  await bundle.close();
  const read = output.find((file) => file.fileName === "read.cjs");
  const start = output.find((file) => file.fileName === "start.cjs");
  if (start.code.split(READ_KEY).length !== 2) throw new Error(`start.cjs: expected ${READ_KEY} once`);
  // the key hashes read.cjs as it is written
  const readContents = contentsOf(read);
  const key = createHash("sha256").update(readContents).digest("hex").slice(0, READ_KEY.length);
  const files = output.map((file) => ({
    fileName: file.fileName,
    contents:
      file === start ? asciiOnly(start.code.replace(READ_KEY, key)) : file === read ? readContents : contentsOf(file),
  }));
  assertRequirable(files.filter((file) => file.fileName.endsWith(".cjs")));
  return { output: files, key };
}

/** Writes the files atomically; returns their paths. */
function writeOutput(output) {
  const written = new Set();
  for (const file of output) {
    const path = join(outdir, file.fileName);
    const contents = file.contents ?? contentsOf(file);
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, contents);
    renameSync(tmp, path);
    written.add(path);
  }
  return written;
}

/** Drops what earlier builds wrote into `dir` and this one did not (chunks are named by their hash). */
function dropStale(dir, written, keep = () => false) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!written.has(path) && !keep(name)) rmSync(path, { force: true });
  }
}

if (process.argv.includes("--force") || !upToDate()) {
  const [cli, { output: read, key }] = await Promise.all([buildCli(), buildRead()]);
  // dist/cli.js last: its time says the build is complete (upToDate), and bin/spotdesk starts
  // only when it exists, so start.cjs and read.cjs are there by then.
  const last = cli.filter((file) => file.fileName.startsWith("cli.js"));
  const written = writeOutput([...read, ...cli.filter((file) => !last.includes(file))]);
  for (const path of writeOutput(last)) written.add(path);
  dropStale(join(outdir, "chunks"), written);
  dropStale(join(outdir, "read-chunks"), written);
  // the code cache of this read.cjs stays (written by its first run); those of earlier ones go
  dropStale(outdir, written, (name) => !/^read-.*\.v8cache/.test(name) || name.startsWith(`read-${key}.`));
}
