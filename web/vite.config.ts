/**
 * The dashboard's build (root web/, output web/dist, served by `spotdesk serve`) and its dev loop
 * (`npm run web`): API calls are proxied to a running `spotdesk serve` (SPOTDESK_API, default
 * http://127.0.0.1:8787) so the refresh cookie stays same-origin; page loads of the app's own
 * routes (/login/password is both a page and a POST call) are answered by Vite.
 */
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { routePrefixes } from "../lib/api.js";
import { commonHeaders, pagePolicy } from "../server/security-headers.js";
import { COMPRESSIBLE, NONCE_PLACEHOLDER } from "../server/static.js";

const root = fileURLToPath(new URL(".", import.meta.url));
const api = process.env.SPOTDESK_API ?? "http://127.0.0.1:8787";

/** The live channel's address: same origin in the build, the API server's socket in dev. */
const liveUrl = (command: string) => process.env.SPOTDESK_LIVE ?? (command === "build" ? "" : api.replace(/^http/, "ws"));

const toApi: ProxyOptions = {
  target: api,
  changeOrigin: false,
  // A browser navigation (Accept: text/html) is a page of the app, not an API call.
  bypass: (req) => (req.method === "GET" && req.headers.accept?.includes("text/html") ? req.url : undefined),
};

/**
 * The page's security headers under the dev server too (issue 23, docs/security-headers.md): the
 * same policy as `spotdesk serve`, relaxed only where the dev loop needs it. Vite's HMR socket is
 * same-origin ('self'); the live channel goes straight to the API server, so its origin joins
 * connect-src; the inline React refresh preamble is allowed by its hash, computed from the page
 * actually served; Vite's injected <style> elements carry the page's nonce (its client reads the
 * csp-nonce meta). Navigations get the page here, so the nonce in the page and in the header match.
 */
function securityHeaders(live: string): Plugin {
  const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  const liveOrigin = live ? [new URL(live).origin] : [];
  return {
    name: "spotdesk:security-headers",
    apply: "serve",
    configureServer(server) {
      const common = Object.entries(commonHeaders({ hsts: false }));
      server.middlewares.use((req, res, next) => {
        for (const [name, value] of common) res.setHeader(name, value);
        const navigation = req.method === "GET" && (req.headers.accept ?? "").includes("text/html");
        if (!navigation) return next();
        void (async () => {
          const template = await readFile(join(root, "index.html"), "utf8");
          const nonce = randomBytes(18).toString("base64");
          const page = (await server.transformIndexHtml(req.originalUrl ?? req.url ?? "/", template)).replaceAll(NONCE_PLACEHOLDER, nonce);
          const inline = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]!));
          res.writeHead(200, {
            "content-type": "text/html; charset=utf-8",
            "cache-control": "no-cache",
            "content-security-policy": pagePolicy({ styleNonce: nonce, script: inline, connect: liveOrigin }),
          });
          res.end(page);
        })().catch(next);
      });
    },
  };
}

/**
 * Precompression at build time (docs/dashboard-delivery.md#delivery): a `.br` (quality 11) and a
 * `.gz` (level 9) beside every text file of web/dist that compresses, so `spotdesk serve` picks one
 * by Accept-Encoding and never compresses per request. index.html is a template (its nonce is
 * written per answer) and stays as is.
 */
function precompress(outDir: string): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const files = async (dir: string): Promise<string[]> => {
    const out: string[] = [];
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) out.push(...(await files(path)));
      else if (e.isFile()) out.push(path);
    }
    return out;
  };
  return {
    name: "spotdesk:precompress",
    apply: "build",
    async closeBundle() {
      for (const file of await files(outDir)) {
        const ext = extname(file);
        if (!COMPRESSIBLE.has(ext) || ext === ".html") continue;
        const raw = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(raw, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gz(raw, { level: 9 }),
        ]);
        // a form no smaller than the file is not worth a Content-Encoding
        if (br.length < raw.length) await writeFile(`${file}.br`, br);
        if (gzipped.length < raw.length) await writeFile(`${file}.gz`, gzipped);
      }
    },
  };
}

export default defineConfig(({ command }) => ({
  root,
  plugins: [
    // web/src/routes/ is the route table (docs/dashboard-delivery.md#routes): every file there is a
    // route; the tree is written to src/routeTree.gen.ts (committed, so typecheck needs no build) and
    // each route's component goes in its own chunk.
    tanstackRouter({
      target: "react",
      routesDirectory: join(root, "src/routes"),
      generatedRouteTree: join(root, "src/routeTree.gen.ts"),
      routeFileIgnorePattern: "\\.test\\.tsx?$",
      quoteStyle: "double",
      semicolons: true,
      autoCodeSplitting: true,
      disableLogging: true,
    }),
    react(),
    securityHeaders(liveUrl(command)),
    precompress(join(root, "dist")),
  ],
  define: {
    // the live channel connects straight to the server in dev (Vite's own socket owns "/")
    "import.meta.env.VITE_LIVE_URL": JSON.stringify(liveUrl(command)),
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    // every API route of the one route table (lib/api.ts ROUTES), so a new route is proxied without a second list
    proxy: Object.fromEntries(routePrefixes().map((p) => [p, toApi])),
  },
}));
