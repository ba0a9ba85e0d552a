// Builds the CLI (and everything it reaches: TUI, server) into plain JavaScript in dist/, so
// bin/spotdesk starts without compiling TypeScript. Dependencies stay external and heavy parts
// are split into chunks loaded on demand, which keeps cold start close to bare node.
import { build } from "esbuild";
import { rmSync } from "node:fs";

const outdir = new URL("../dist/", import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: "cli/main.ts" },
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
});
