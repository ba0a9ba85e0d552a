// `npm run web`: the dashboard's developer loop. Starts `spotdesk serve` (embedded SQLite, the
// paper demo client, the first-admin setup code printed once) and Vite's dev server in front of
// it; API calls are proxied to the server (web/vite.config.ts). Ctrl-C stops both.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const port = process.env.SPOTDESK_PORT ?? "8787";
const env = { ...process.env, SPOTDESK_API: process.env.SPOTDESK_API ?? `http://127.0.0.1:${port}` };
const children = [
  spawn(process.execPath, ["bin/spotdesk", "serve", "--port", port, ...process.argv.slice(2)], {
    cwd: root,
    env,
    stdio: "inherit",
  }),
  spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--config", "web/vite.config.ts"], {
    cwd: root,
    env,
    stdio: "inherit",
  }),
];
const stop = () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children)
  child.on("exit", (code) => {
    stop();
    process.exitCode ||= code ?? 0;
  });
