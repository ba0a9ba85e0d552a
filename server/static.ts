/**
 * Serves the built dashboard (web/dist, `npm run build:web`) beside the API: files under
 * /assets and the root, and index.html for a browser navigation to any app route (seed 000 §2;
 * /login/password is both a page and a POST call, so only GET/HEAD asking for HTML fall back).
 * Returns false when the request is not for the app, so the API router answers it.
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** web/dist from the source tree (server/) or from the bundle (dist/chunks/). */
export function findWebDist(): string | undefined {
  const env = process.env.SPOTDESK_WEB_DIST;
  if (env) return existsSync(join(env, "index.html")) ? env : undefined;
  for (const rel of ["../web/dist", "../../web/dist"]) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, "index.html"))) return dir;
  }
  return undefined;
}

export function createStaticHandler(root: string | undefined): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (!root || (req.method !== "GET" && req.method !== "HEAD")) return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      return false;
    }
    const file = normalize(join(root, pathname));
    let target: string | undefined;
    if (file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) target = file;
    else if ((req.headers.accept ?? "").includes("text/html")) target = join(root, "index.html");
    if (!target) return false;
    const immutable = target.includes(`${sep}assets${sep}`);
    res.writeHead(200, {
      "content-type": TYPES[extname(target)] ?? "application/octet-stream",
      "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(target).pipe(res);
    return true;
  };
}
