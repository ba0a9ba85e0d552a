/**
 * Runs a measuring child (test/tui/memory-frames.tsx, test/tui/line-cache-heap.tsx) under
 * `node --expose-gc --import tsx` and returns the JSON line it prints last.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

export function runJsonChild<T>(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", join("test", "tui", script), ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`${script} exited ${code}: ${err || out}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}
