import type { Command } from "commander";
import { ExchangeError } from "../../lib/errors.js";
import { parsePositiveInt } from "../args.js";
import { action } from "../run.js";

/** What `serve` hands to server/ (issue 6; PRODUCT D7 transport options). */
export interface ServeOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy?: boolean;
}

const notBuilt = () =>
  new ExchangeError("spotdesk", "The server is not built yet: server/ is not part of this build (issue 6)", { kind: "unsupported" });

async function serverModule(): Promise<Record<string, unknown>> {
  const { loadPart } = await import("../lazy.js");
  const server = await loadPart("server");
  if (!server) throw notBuilt();
  return server;
}

/** `spotdesk serve` and `spotdesk users grant-admin EMAIL --data DIR` (PRODUCT D5). */
export function registerServer(program: Command): void {
  program
    .command("serve")
    .description("the backend and the web dashboard (127.0.0.1 over HTTP by default, PRODUCT D7)")
    .option("--port <n>", "port to listen on")
    .option("--host <address>", "address to bind (anything but localhost needs TLS options, PRODUCT D7)")
    .option("--data <dir>", "data directory (database, keys, outbox)")
    .option("--tls-cert <file>", "TLS certificate (PEM)")
    .option("--tls-key <file>", "TLS private key (PEM)")
    .option("--behind-tls-proxy", "TLS is terminated by a proxy in front of the server")
    .action(
      action(async (_ctx, options: { port?: string; host?: string; data?: string; tlsCert?: string; tlsKey?: string; behindTlsProxy?: boolean }) => {
        const serveOptions: ServeOptions = {
          ...(options.port === undefined ? {} : { port: parsePositiveInt(options.port, "port", 65535) }),
          ...(options.host === undefined ? {} : { host: options.host }),
          ...(options.data === undefined ? {} : { dataDir: options.data }),
          ...(options.tlsCert === undefined ? {} : { tlsCert: options.tlsCert }),
          ...(options.tlsKey === undefined ? {} : { tlsKey: options.tlsKey }),
          ...(options.behindTlsProxy ? { behindTlsProxy: true } : {}),
        };
        const server = await serverModule();
        const { pickExport } = await import("../lazy.js");
        const start = pickExport<(options: ServeOptions) => Promise<unknown>>("server", server, ["startServer", "serve", "default"]);
        await start(serveOptions);
      }),
    );

  const users = program.command("users").description("server users, on the server's machine");
  users
    .command("grant-admin")
    .description("make the user EMAIL an admin (PRODUCT D5)")
    .argument("<email>", "the user's e-mail")
    .requiredOption("--data <dir>", "the server's data directory")
    .action(
      action(async (ctx, email: string, options: { data: string }) => {
        if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new ExchangeError("spotdesk", `Invalid e-mail '${email}'`, { kind: "bad-input" });
        const server = await serverModule();
        const { pickExport } = await import("../lazy.js");
        const grant = pickExport<(options: { dataDir: string; email: string }) => Promise<unknown>>("server", server, ["grantAdmin"]);
        await grant({ dataDir: options.data, email });
        if (ctx.out.json) return ctx.out.document({ email, admin: true });
        ctx.out.text(`${email} is now an admin`);
      }),
    );
}
