/**
 * The dashboard's build (root web/, output web/dist, served by `spotdesk serve`) and its dev loop
 * (`npm run web`): API calls are proxied to a running `spotdesk serve` (SPOTDESK_API, default
 * http://127.0.0.1:8787) so the refresh cookie stays same-origin; page loads of the app's own
 * routes (/login/password is both a page and a POST call) are answered by Vite.
 */
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig, type ProxyOptions } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const api = process.env.SPOTDESK_API ?? "http://127.0.0.1:8787";

const toApi: ProxyOptions = {
  target: api,
  changeOrigin: false,
  // A browser navigation (Accept: text/html) is a page of the app, not an API call.
  bypass: (req) => (req.method === "GET" && req.headers.accept?.includes("text/html") ? req.url : undefined),
};

export default defineConfig(({ command }) => ({
  root,
  plugins: [react()],
  define: {
    // the live channel connects straight to the server in dev (Vite's own socket owns "/")
    "import.meta.env.VITE_LIVE_URL": JSON.stringify(process.env.SPOTDESK_LIVE ?? (command === "build" ? "" : api.replace(/^http/, "ws"))),
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
    proxy: Object.fromEntries(
      ["/credentials", "/code", "/register", "/login/password", "/login/signature", "/user/refresh", "/user/logout", "/token", "/book", "/health"].map((p) => [p, toApi]),
    ),
  },
}));
