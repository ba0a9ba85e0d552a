/**
 * spotdesk's command line (docs/product.md#cli-surface). This file stays tiny: each command module
 * only declares its arguments, and loads what it needs (conf, adapters, zod, Ink, the server) when
 * it runs, so `spotdesk --version` and `balances --json` on paper start close to bare node.
 */
import pkg from "../package.json" with { type: "json" };
import { quickVersion, versionLine } from "./quick.js";
import { writeVersion } from "./version-out.js";

// `spotdesk --version` answers before commander is even loaded: scripts call it to probe the tool
// (bin/spotdesk answers it before this file is loaded; this is for `node dist/cli.js`).
const argv = process.argv.slice(2);
const version = quickVersion(argv);
if (version) {
  process.exit(writeVersion(versionLine(version, pkg.version), version.json));
}

// commander is bundled into the core chunk (scripts/build.mjs), which the commands need anyway.
const [
  { Command, CommanderError, Option },
  commands,
  { flushAndExit, handleStdoutErrors, reportError, reportUsageError, UNEXPECTED_EXIT_CODE },
] = await Promise.all([import("commander"), import("./commands/index.js"), import("./run.js")]);

// A reader that closes the pipe early (`spotdesk orders … | head -1`) is not an error; a full
// disk, or a closed pipe after an order went out, is (cli/run.ts onStdoutError). Set before
// anything touches process.stdout, which is built only when needed (cli/output.ts writeStdout).
handleStdoutErrors();

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
  .configureHelp(commands.HELP_CONFIGURATION)
  .exitOverride();

commands.registerCommands(program, argv);

let code = 0;
try {
  await program.parseAsync(process.argv);
  code = typeof process.exitCode === "number" ? process.exitCode : 0;
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; every usage error (unknown option, missing
    // argument, unknown command) is exit 2, like bad input, with the JSON error line under --json.
    code =
      error.exitCode === 0
        ? 0
        : reportUsageError(
            // commander's "(outputHelp)" when no command was named: it has printed the help
            error.code === "commander.help" ? "missing command: see --help" : error.message,
            argv.includes("--json"),
            commands.argvExchange(argv),
          );
  } else {
    code = reportError(error, process.argv.includes("--json")) || UNEXPECTED_EXIT_CODE;
  }
}
await flushAndExit(code);
