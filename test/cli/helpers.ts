/**
 * Runs the BUILT CLI (bin/spotdesk → dist/cli.js) as a child process in a throw-away home.
 * scripts/build.mjs skips an up-to-date build and writes atomically, so every test file may call it.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  /** the temporary HOME with config/ and data/ inside */
  home: string;
  env: Record<string, string>;
  run(
    args: string[],
    options?: { env?: Record<string, string>; stdin?: string; timeoutMs?: number },
  ): Promise<CliResult>;
  /** runs and parses stdout as the one JSON document, failing with stderr when the exit code is not 0 */
  json<T = unknown>(args: string[], options?: { env?: Record<string, string>; stdin?: string }): Promise<T>;
  cleanup(): void;
}

let built: string | undefined;

/** Builds dist/ (a no-op when it is up to date); returns the launcher's path. */
export function buildCli(): string {
  if (built) return built;
  execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  built = join(ROOT, "bin/spotdesk");
  return built;
}

/**
 * The environment of a CLI run in `home`: its config and data directories below it, and nothing
 * from the caller's SPOTDESK_* or proxy variables.
 */
export function isolatedEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    SPOTDESK_CONFIG_DIR: join(home, "config"),
    SPOTDESK_DATA_DIR: join(home, "data"),
    NO_COLOR: "1",
  };
}

/** A throw-away HOME, config and data directory; nothing from the caller's SPOTDESK_* or proxy variables leaks in. */
export function sandbox(): Sandbox {
  const bin = buildCli();
  const home = mkdtempSync(join(tmpdir(), "spotdesk-cli-home-"));
  const env = isolatedEnv(home);
  const run: Sandbox["run"] = (args, options = {}) =>
    new Promise((resolvePromise) => {
      const child = spawn(process.execPath, [bin, ...args], { env: { ...env, ...options.env }, cwd: home });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const timer = options.timeoutMs ? setTimeout(() => child.kill("SIGTERM"), options.timeoutMs) : undefined;
      child.on("close", (code) => {
        if (timer) clearTimeout(timer);
        resolvePromise({ code, stdout, stderr });
      });
      child.stdin.on("error", () => {});
      child.stdin.end(options.stdin ?? "");
    });
  return {
    home,
    env,
    run,
    async json<T>(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<T> {
      const result = await run([...args, "--json"], options);
      if (result.code !== 0) throw new Error(`spotdesk ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}
