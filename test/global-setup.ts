import { execFileSync } from "node:child_process";

/** Builds the CLI once before any test spawns `bin/spotdesk` (the build skips itself when up to date). */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
