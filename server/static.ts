/**
 * Serves the built dashboard (web/dist, `npm run build:web`) beside the API: files under
 * /assets and the root, and index.html for a browser navigation to any app route (seed 000 §2;
 * /login/password is both a page and a POST call, so only GET/HEAD asking for HTML fall back).
 * Returns false when the request is not for the app, so the API router answers it.
 *
 * The page gets its Content-Security-Policy here, with a fresh style nonce written into its
 * `csp-nonce` meta (docs/security-headers.md). A file that vanishes while it is read (web/dist is
 * emptied during a rebuild) is a 503, never an unhandled stream error that stops the server.
 */
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { NON_PAGE_POLICY, pagePolicy } from "./security-headers.js";

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

/** web/index.html's placeholder for the per-answer nonce. */
export const NONCE_PLACEHOLDER = "__SPOTDESK_CSP_NONCE__";

/** Retry-After of the 503 while web/dist is being rebuilt. */
const REBUILD_RETRY_SECONDS = 2;

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

/** The answer while the dashboard's files are missing: plain text for scripts, a script-free page for a browser. */
function unavailable(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const html = (req.headers.accept ?? "").includes("text/html");
  const text = "The dashboard is being rebuilt; try again in a moment.";
  const body = html
    ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>spotdesk: try again</title></head><body><p>${text}</p></body></html>`
    : `${text}\n`;
  res.writeHead(503, {
    "content-type": html ? TYPES[".html"]! : "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "retry-after": String(REBUILD_RETRY_SECONDS),
    "content-security-policy": NON_PAGE_POLICY,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** index.html with a fresh nonce, and the page policy naming it. */
async function sendPage(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
  const template = await readFile(file, "utf8");
  const nonce = randomBytes(18).toString("base64");
  const page = template.replaceAll(NONCE_PLACEHOLDER, nonce);
  res.writeHead(200, {
    "content-type": TYPES[".html"]!,
    "content-length": Buffer.byteLength(page),
    "cache-control": "no-cache",
    "content-security-policy": pagePolicy({ styleNonce: nonce }),
  });
  res.end(req.method === "HEAD" ? undefined : page);
}

/** Any other file, streamed; headers go only once the file is open. */
function sendFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(file);
    stream.once("error", (error) => {
      stream.destroy();
      reject(error);
    });
    stream.once("open", () => {
      const immutable = file.includes(`${sep}assets${sep}`);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      });
      if (req.method === "HEAD") {
        stream.destroy();
        res.end();
        resolve();
        return;
      }
      stream.pipe(res);
      stream.once("end", () => resolve());
    });
    // a client that goes away mid-file: stop reading
    res.once("close", () => {
      stream.destroy();
      resolve();
    });
  });
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
    let isFile = false;
    try {
      isFile = file.startsWith(root + sep) && statSync(file).isFile();
    } catch {
      // not there (or not a valid path): a navigation gets the app's page, anything else is the API's
    }
    const target = isFile
      ? file
      : (req.headers.accept ?? "").includes("text/html")
        ? join(root, "index.html")
        : undefined;
    if (!target) return false;
    const answer = extname(target) === ".html" ? sendPage(req, res, target) : sendFile(req, res, target);
    answer.catch(() => unavailable(req, res));
    return true;
  };
}
