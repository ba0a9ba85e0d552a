import type { Command } from "commander";
import { ExchangeError } from "../../lib/errors.js";
import { parsePositiveInt } from "../args.js";
import { action } from "../run.js";

interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy?: boolean;
  config?: string;
}

/** Same rule as the server's: something@domain.tld. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `spotdesk serve` and `spotdesk users grant-admin EMAIL --data DIR` (PRODUCT D5, D7): server/ is loaded only here. */
export function registerServer(program: Command): void {
  program
    .command("serve")
    .description("the backend and the web dashboard's API (127.0.0.1 over HTTP by default, PRODUCT D7)")
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
    .action(
      action(async (_ctx, flags: ServeFlags) => {
        // 0 is valid: the system picks a free port (tests do that).
        if (flags.port !== undefined && flags.port.trim() !== "0") parsePositiveInt(flags.port, "port", 65535);
        const { serveCommand } = await import("../../server/index.js");
        await serveCommand(flags);
      }),
    );

  const users = program.command("users").description("server users, managed on the server's machine");
  users
    .command("grant-admin")
    .description("make the user EMAIL an admin, or permit EMAIL as a new admin (PRODUCT D5)")
    .argument("<email>", "the user's e-mail")
    .requiredOption("--data <dir>", "the server's data directory")
    .action(
      action(async (ctx, email: string, flags: { data: string }) => {
        if (!EMAIL_RE.test(email.trim()))
          throw new ExchangeError("spotdesk", `Invalid e-mail '${email}'`, { kind: "bad-input" });
        const { grantAdmin } = await import("../../server/index.js");
        const result = await grantAdmin(email, flags.data);
        if (ctx.out.json) return ctx.out.document({ email: email.trim().toLowerCase(), admin: true, ...result });
        ctx.out.text(
          `${email.trim().toLowerCase()} is now an admin${result.created ? " (new user: registers with this e-mail)" : ""}`,
        );
      }),
    );
}
