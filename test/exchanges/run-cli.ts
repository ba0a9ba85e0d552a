import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../bin/spotdesk", import.meta.url));

/**
 * Runs the BUILT CLI (`node bin/spotdesk ...`, built by the vitest global setup) with a private
 * HOME, config and data directory, and the given environment (credentials). `input` is piped to stdin.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), "spotdesk-cli-"));
  const child = spawn(process.execPath, [bin, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SPOTDESK_CONFIG_DIR: join(home, "config"),
      SPOTDESK_DATA_DIR: join(home, "data"),
      NO_COLOR: "1",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  child.stdin.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      rmSync(home, { recursive: true, force: true });
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
