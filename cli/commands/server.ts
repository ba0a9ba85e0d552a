import type { Command } from "commander";
import { ExchangeError } from "../../lib/errors.js";
import { parsePositiveInt } from "../args.js";
import { DATA_DIR, dirError, isFsError } from "../dirs.js";
import { action } from "../run.js";

interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy?: boolean;
  config?: string;
  database?: string;
  redis?: string;
  keepOrders?: boolean;
}

/**
 * Why `serve` could not start, with its kind (docs/cli.md "Exit codes"): a port in use is
 * `network` (8); an address this machine does not have, a port it may not bind, or a data
 * directory it cannot write is `config` (2).
 */
function serveError(error: unknown, host: string, port: number, data: string | undefined): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "EADDRINUSE") {
    return new ExchangeError(
      "spotdesk",
      `Port ${port} on ${host} is already in use: stop what uses it, or give --port`,
      {
        kind: "network",
        code,
        cause: error,
      },
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new ExchangeError("spotdesk", `Cannot listen on --host ${host} (${code}): not an address of this machine`, {
      kind: "config",
      code,
      cause: error,
    });
  }
  if (code === "EACCES" && (error as { syscall?: string }).syscall === "listen") {
    return new ExchangeError("spotdesk", `Not allowed to listen on port ${port} (${code}): give a --port above 1023`, {
      kind: "config",
      code,
      cause: error,
    });
  }
  if (isFsError(error)) return serveDirError(error, data);
  // docs/scale-out.md: the database or Redis is out of reach (the message names the URL without its password)
  if (error instanceof Error && /^(PostgreSQL|Redis) at /.test(error.message))
    return new ExchangeError("spotdesk", error.message, { kind: "network", cause: error });
  return error;
}

function serveDirError(error: NodeJS.ErrnoException, data: string | undefined): ExchangeError {
  const where = error.path ?? data ?? "the data directory";
  if (data !== undefined) {
    return new ExchangeError(
      "spotdesk",
      `Cannot write the data directory '${where}' (${error.code}): give a writable --data`,
      {
        kind: "config",
        cause: error,
      },
    );
  }
  return dirError(where, error, { ...DATA_DIR, what: "the server's data directory" });
}

/** Same rule as the server's: something@domain.tld. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `spotdesk serve` and `spotdesk users grant-admin EMAIL --data DIR` (docs/decisions.md#d5, #d7): server/ is loaded only here. */
export function registerServer(program: Command): void {
  const serve = program
    .command("serve")
    .description(
      "the backend and the web dashboard's API (127.0.0.1 over HTTP by default; any other address needs TLS)",
    )
    .option("--port <n>", "port to listen on (default 8787)")
    .option(
      "--host <address>",
      "address to bind; anything but localhost needs --tls-cert/--tls-key or --behind-tls-proxy",
    )
    .option("--data <dir>", "data directory: database, data key, setup code, outbox (default: SPOTDESK_DATA_DIR)")
    .option("--tls-cert <file>", "TLS certificate (PEM)")
    .option("--tls-key <file>", "TLS private key (PEM)")
    .option("--behind-tls-proxy", "TLS is terminated by a proxy in front of the server")
    .option("--config <file>", "server configuration file")
    .option(
      "--database <url>",
      "PostgreSQL (postgres://user:pass@host:5432/db) shared by several server processes; default: SQLite in --data",
    )
    .option("--redis <url>", "Redis (redis://host:6379) for live deltas, limits and bot leases across processes")
    .option(
      "--keep-orders",
      "on stop, leave the bots' orders resting for a quick restart (default: cancel them, naming any left open)",
    )
    .action(
      action(async (_ctx, flags: ServeFlags) => {
        // 0 is valid: the system picks a free port (tests do that).
        if (flags.port !== undefined && flags.port.trim() !== "0") parsePositiveInt(flags.port, "port", 65535);
        const [{ serveCommand }, { resolveConfig }] = await Promise.all([
          import("../../server/index.js"),
          import("../../server/config.js"),
        ]);
        let config: ReturnType<typeof resolveConfig>;
        try {
          // the same options serveCommand resolves: a refusal here is the configuration's, not a bug
          config = resolveConfig({
            ...(flags.port !== undefined ? { port: Number(flags.port) } : {}),
            ...(flags.data ? { dataDir: flags.data } : {}),
            ...(flags.host ? { host: flags.host } : {}),
            ...(flags.tlsCert ? { tlsCert: flags.tlsCert } : {}),
            ...(flags.tlsKey ? { tlsKey: flags.tlsKey } : {}),
            ...(flags.behindTlsProxy ? { behindTlsProxy: true } : {}),
            ...(flags.config ? { configFile: flags.config } : {}),
            ...(flags.database ? { database: flags.database } : {}),
            ...(flags.redis ? { redis: flags.redis } : {}),
          });
        } catch (error) {
          if (isFsError(error)) throw serveDirError(error, flags.data);
          throw new ExchangeError("spotdesk", (error as Error).message, { kind: "config", cause: error });
        }
        try {
          await serveCommand(flags);
        } catch (error) {
          throw serveError(error, config.host, config.port, flags.data);
        }
      }),
    );

  registerBackup(serve);

  const users = program.command("users").description("server users, managed on the server's machine");
  users
    .command("grant-admin")
    .description("make the user EMAIL an admin, or permit EMAIL to register as a new admin")
    .argument("<email>", "the user's e-mail")
    .requiredOption("--data <dir>", "the server's data directory")
    .option("--database <url>", "the server's PostgreSQL database (when it runs with --database)")
    .action(
      action(async (ctx, email: string, flags: { data: string; database?: string }) => {
        if (!EMAIL_RE.test(email.trim()))
          throw new ExchangeError("spotdesk", `Invalid e-mail '${email}'`, { kind: "bad-input" });
        const { grantAdmin } = await import("../../server/index.js");
        const result = await grantAdmin(email, flags.data, flags.database);
        if (ctx.out.json) return ctx.out.document({ email: email.trim().toLowerCase(), admin: true, ...result });
        ctx.out.text(
          `${email.trim().toLowerCase()} is now an admin${result.created ? " (new user: registers with this e-mail)" : ""}`,
        );
      }),
    );
}

/** The data directory `--data` names, or the one serve would use (SPOTDESK_DATA_DIR, config). */
async function dataDirOf(flags: ServeFlags): Promise<string> {
  const { resolveConfig } = await import("../../server/config.js");
  let config: ReturnType<typeof resolveConfig>;
  try {
    config = resolveConfig({
      ...(flags.data ? { dataDir: flags.data } : {}),
      ...(flags.config ? { configFile: flags.config } : {}),
      ...(flags.database ? { database: flags.database } : {}),
    });
  } catch (error) {
    throw new ExchangeError("spotdesk", (error as Error).message, { kind: "config", cause: error });
  }
  if (config.database)
    throw new ExchangeError(
      "spotdesk",
      "This server keeps its data in PostgreSQL: back it up with pg_dump and restore with pg_restore (docs/operations.md#postgresql)",
      { kind: "config" },
    );
  return config.dataDir;
}

/** `spotdesk serve backup FILE` and `spotdesk serve restore FILE` (docs/operations.md#backup-and-restore). */
function registerBackup(serve: Command): void {
  serve
    .command("backup")
    .description("a consistent copy of the SQLite database and paper accounts in FILE, while serve runs or not")
    .argument("<file>", "the new backup file (refused when it exists)")
    .action(
      action(async (ctx, file: string) => {
        // --data, --config and --database are serve's own options, read wherever they stand
        const dataDir = await dataDirOf(serve.opts<ServeFlags>());
        const { backupDataDir } = await import("../../server/backup.js");
        const report = await backupDataDir(dataDir, file);
        if (ctx.out.json) return ctx.out.document(report);
        ctx.out.text(
          `Backup of ${dataDir} in ${report.file} (${report.bytes} bytes): ${report.users} users, ${report.apiKeys} API keys, ` +
            `${report.bots} bots, ${report.paperFiles} paper files. The data key is not in it: keep data-key (or SPOTDESK_DATA_KEY) apart.`,
        );
      }),
    );
  serve
    .command("restore")
    .description("put a backup made by `serve backup` in place of the data directory's database (serve stopped)")
    .argument("<file>", "the backup file")
    .action(
      action(async (ctx, file: string) => {
        // --data, --config and --database are serve's own options, read wherever they stand
        const dataDir = await dataDirOf(serve.opts<ServeFlags>());
        const { restoreDataDir } = await import("../../server/backup.js");
        const report = restoreDataDir(dataDir, file);
        if (ctx.out.json) return ctx.out.document(report);
        ctx.out.text(
          `Restored ${file} into ${dataDir}: ${report.users} users, ${report.apiKeys} API keys, ${report.bots} bots, ` +
            `${report.paperFiles} paper files${report.previous ? ` (the database before is ${report.previous})` : ""}.`,
        );
      }),
    );
}
