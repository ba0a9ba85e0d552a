// Builds the CLI (and everything it reaches: TUI, server) into plain JavaScript in dist/, so
// bin/spotdesk starts without compiling TypeScript. Dependencies stay external and heavy parts
// are split into chunks loaded on demand, which keeps cold start close to bare node.
//
// Safe to call from several test files at once: it skips the build when dist/ is newer than every
// source, and writes each output file atomically (temp file + rename), so a concurrent reader
// never sees half a file. `--force` always builds.
import { build } from "esbuild";
import { mkdirSync, readdirSync, rmSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist");
const SOURCE_DIRS = ["lib", "exchanges", "cli", "tui", "server"];

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
  const result = await build({
    entryPoints: { cli: join(root, "cli/main.ts") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    jsx: "automatic",
    logLevel: "warning",
    chunkNames: "chunks/[name]-[hash]",
    write: false,
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
  // Chunks of earlier builds are named by their hash: drop those this build no longer wrote.
  const written = new Set(result.outputFiles.map((file) => file.path));
  const chunks = join(outdir, "chunks");
  for (const name of readdirSync(chunks)) {
    const path = join(chunks, name);
    if (!written.has(path)) rmSync(path, { force: true });
  }
}
