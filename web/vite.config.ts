/**
 * The dashboard's build (root web/, output web/dist, served by `spotdesk serve`) and its dev loop
 * (`npm run web`): API calls are proxied to a running `spotdesk serve` (SPOTDESK_API, default
 * http://127.0.0.1:8787) so the refresh cookie stays same-origin; page loads of the app's own
 * routes (/login/password is both a page and a POST call) are answered by Vite.
 */
import react from "@vitejs/plugin-react";
import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { routePrefixes } from "../lib/api.js";
import { commonHeaders, pagePolicy } from "../server/security-headers.js";
import { NONCE_PLACEHOLDER } from "../server/static.js";

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

export default defineConfig(({ command }) => ({
  root,
  plugins: [react(), securityHeaders(liveUrl(command))],
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
