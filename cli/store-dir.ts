/**
 * Where the credential store lives, without loading the store itself (`conf` and `ajv`, about
 * 4 MB of a process that only asks whether there is one: the TUI on paper, docs/tui-memory.md).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import envPaths from "env-paths";

/**
 * The store's directory: SPOTDESK_CONFIG_DIR, else the user's config directory from env-paths
 * (~/.config/spotdesk or $XDG_CONFIG_HOME/spotdesk on Linux, ~/Library/Preferences/spotdesk on
 * macOS, %APPDATA%/spotdesk/Config on Windows: the paths spotdesk always used). Computed here so
 * every message can name the file.
 */
export function storeDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPOTDESK_CONFIG_DIR) return env.SPOTDESK_CONFIG_DIR;
  return envPaths("spotdesk", { suffix: "" }).config;
}

/** The store's file (conf's `accounts.json` in storeDir). */
export function storeFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(storeDir(env), "accounts.json");
}

/** Whether a store file exists: without one every account has the default settings. */
export function storeExists(env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(storeFile(env));
}
