/**
 * Serves the built dashboard (web/dist, `npm run build:web`) beside the API: files under
 * /assets and the root, and index.html for a browser navigation to any app route (docs/dashboard-rules.md#screens;
 * /login/password is both a page and a POST call, so only GET/HEAD asking for HTML fall back).
 * Returns false when the request is not for the app, so the API router answers it.
 *
 * The page gets its Content-Security-Policy here, with a fresh style nonce written into its
 * `csp-nonce` meta (docs/security-headers.md). A file that vanishes while it is read (web/dist is
 * emptied during a rebuild) is a 503, never an unhandled stream error that stops the server.
 *
 * Text files are sent compressed when the browser accepts it: the build writes `.br` and `.gz`
 * beside each (web/vite.config.ts), and the answer is the best one Accept-Encoding allows, with
 * `Vary: Accept-Encoding` (docs/dashboard-delivery.md#delivery). Nothing is compressed per request.
 */
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, fstatSync, type Stats, statSync } from "node:fs";
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

/** The types the build precompresses (web/vite.config.ts); images such as PNG are compressed already. */
export const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json", ".txt", ".map"]);

/** The precompressed forms, best first: the file suffix and its Content-Encoding. */
const ENCODINGS = [
  { suffix: ".br", encoding: "br" },
  { suffix: ".gz", encoding: "gzip" },
] as const;

/**
 * The q-value Accept-Encoding gives a coding (RFC 9110, section 12.5.3): its own entry, else `*`, else 0
 * (1 for identity, which is acceptable unless refused). A malformed q counts as 0.
 */
export function acceptQuality(header: string | undefined, coding: string): number {
  let star: number | undefined;
  let own: number | undefined;
  for (const part of (header ?? "").split(",")) {
    const [name = "", ...params] = part.split(";").map((x) => x.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([01](?:\.\d{0,3})?)$/.exec(p);
      if (p.startsWith("q=")) q = m ? Math.min(1, Number(m[1])) : 0;
    }
    if (name === coding) own = q;
    else if (name === "*") star = q;
  }
  return own ?? star ?? (coding === "identity" ? 1 : 0);
}

/** The precompressed file to send for `file` under this Accept-Encoding, if any: best q first, br before gzip on a tie. */
export function pickEncoding(
  file: string,
  acceptEncoding: string | undefined,
  exists: (path: string) => boolean = (path) => statOrUndefined(path)?.isFile() === true,
): { path: string; encoding: string } | undefined {
  if (!COMPRESSIBLE.has(extname(file))) return undefined;
  let best: { path: string; encoding: string; q: number } | undefined;
  for (const { suffix, encoding } of ENCODINGS) {
    const q = acceptQuality(acceptEncoding, encoding);
    if (q > 0 && (!best || q > best.q) && exists(file + suffix)) best = { path: file + suffix, encoding, q };
  }
  return best && { path: best.path, encoding: best.encoding };
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

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

/** Any other file, streamed (its precompressed form when accepted); headers go only once the file is open. */
function sendFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
  const compressed = pickEncoding(file, req.headers["accept-encoding"]);
  const path = compressed?.path ?? file;
  return new Promise((resolve, reject) => {
    const stream = createReadStream(path);
    stream.once("error", (error) => {
      stream.destroy();
      reject(error);
    });
    stream.once("open", (fd) => {
      const immutable = file.includes(`${sep}assets${sep}`);
      let size: number | undefined;
      try {
        size = fstatSync(fd).size;
      } catch {
        // the length is a courtesy: without it the answer is chunked
      }
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        ...(size !== undefined ? { "content-length": size } : {}),
        ...(compressed ? { "content-encoding": compressed.encoding } : {}),
        // a cache must not hand a br answer to a client that did not ask for it
        ...(COMPRESSIBLE.has(extname(file)) ? { vary: "Accept-Encoding" } : {}),
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
    let pathname: string | undefined;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      // not a file name (a stray `%`): a navigation still gets the app, whose route decides (an
      // account link with a broken segment shows the empty trading view)
    }
    const file = pathname === undefined ? undefined : normalize(join(root, pathname));
    let isFile = false;
    try {
      if (file?.startsWith(root + sep)) isFile = statSync(file).isFile();
    } catch {
      // not there (or not a valid path): a navigation gets the app's page, anything else is the API's
    }
    const target = isFile
      ? (file as string)
      : (req.headers.accept ?? "").includes("text/html")
        ? join(root, "index.html")
        : undefined;
    if (!target) return false;
    const answer = extname(target) === ".html" ? sendPage(req, res, target) : sendFile(req, res, target);
    answer.catch(() => unavailable(req, res));
    return true;
  };
}
