/**
 * Loads the entry module of a part that is built by another issue (tui/, server/). The import is
 * a pattern (`../tui/index*`) on purpose: esbuild bundles whatever index file exists there when the
 * CLI is built, and the CLI still builds while the folder is empty. Loaded only by the command
 * that needs it, so the Ink and server code never slow down other commands' cold start.
 */
import { ExchangeError } from "../lib/errors.js";

type Part = "tui" | "server";
const EXTENSIONS = [".ts", ".tsx"] as const;

async function importPart(part: Part, ext: string): Promise<Record<string, unknown>> {
  return part === "tui" ? import(`../tui/index${ext}`) : import(`../server/index${ext}`);
}

/** The module, or undefined when this build has no such part. */
export async function loadPart(part: Part): Promise<Record<string, unknown> | undefined> {
  for (const ext of EXTENSIONS) {
    try {
      return await importPart(part, ext);
    } catch (error) {
      // esbuild's bundle map says "Module not found in bundle" for a file that did not exist at build time.
      if (!String((error as Error).message).includes("not found in bundle")) throw error;
    }
  }
  return undefined;
}

/** The first of `names` the part exports as a function. */
export function pickExport<F>(part: Part, module: Record<string, unknown>, names: readonly string[]): F {
  for (const name of names) {
    if (typeof module[name] === "function") return module[name] as F;
  }
  throw new ExchangeError("spotdesk", `${part}/index does not export ${names.join(" or ")}`, { kind: "unsupported" });
}
