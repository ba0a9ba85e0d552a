/**
 * spotdesk's command line (PRODUCT "The CLI surface"). This file stays tiny: each command module
 * only declares its arguments, and loads what it needs (conf, adapters, zod, Ink, the server) when
 * it runs, so `spotdesk --version` and `balances --json` on paper start close to bare node.
 */
import pkg from "../package.json" with { type: "json" };

// `spotdesk --version` answers before commander is even loaded: scripts call it to probe the tool.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`${pkg.version}\n`);
  process.exit(0);
}

// commander is bundled into the core chunk (scripts/build.mjs), which the commands need anyway.
const [{ Command, CommanderError, Option }, commands, { flushAndExit, reportError, UNEXPECTED_EXIT_CODE, USAGE_EXIT_CODE }] = await Promise.all([
  import("commander"),
  import("./commands/index.js"),
  import("./run.js"),
]);

const program = new Command("spotdesk")
  .description("A trading console for spot markets on fifteen crypto exchanges, and paper, the built-in simulated one.")
  .version(pkg.version, "-V, --version", "print the version")
  .addOption(new Option("-e, --exchange <id>", "exchange id (see `spotdesk exchanges`)").default("paper"))
  .addOption(
    new Option("-a, --account <name>", "stored account name (paper: the simulated account)").default("default"),
  )
  .option("--base-url <url>", "REST base URL: a testnet, a proxy or a mock")
  .option("--ws-url <url>", "websocket URL of the public feed")
  .option("--proxy <url>", "HTTP(S) proxy for exchange calls (else SPOTDESK_PROXY, HTTPS_PROXY)")
  .option("--json", "print exactly one JSON document on stdout")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

commands.registerCommands(program, argv);

// A reader that closes the pipe early (`spotdesk orders … | head -1`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
});

let code = 0;
try {
  await program.parseAsync(process.argv);
  code = typeof process.exitCode === "number" ? process.exitCode : 0;
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; every usage error (unknown option, missing
    // argument, unknown command) is exit 2, like bad input.
    code = error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  } else {
    code = reportError(error, process.argv.includes("--json")) || UNEXPECTED_EXIT_CODE;
  }
}
await flushAndExit(code);
