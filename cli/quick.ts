/**
 * The command lines the launcher answers without commander (docs/cli.md "Cold start"): the
 * version, and the paper reads scripts and cron run (`balances`, `orders PAIR`, `order PAIR ID`). Only a line this
 * parser understands completely is taken; anything else (help, a typo, an option it does not
 * know, a real exchange, `--opt=value`, `--`) returns undefined and goes to commander, so every
 * usage error keeps commander's words and exit code. No imports: it is loaded on every start.
 */

/** A read that the read path (cli/read.ts) runs as commander would. */
export type QuickRead =
  | { command: "balances"; nonzero: boolean; json: boolean; account?: string; exchangeGiven: boolean }
  | { command: "orders"; pair: string; json: boolean; account?: string; exchangeGiven: boolean }
  | { command: "order"; pair: string; id: string; json: boolean; account?: string; exchangeGiven: boolean };

/** `spotdesk --version` / `-V`, alone or with global options and --json (as JSON). */
export type QuickVersion = { command: "version"; json: boolean };

const isVersion = (arg: string | undefined) => arg === "--version" || arg === "-V";

/** Global options that take a value (commander takes the next word, whatever it is). */
const VALUE_OPTIONS = /^(-e|--exchange|-a|--account|--base-url|--ws-url|--proxy)$/;

/**
 * `--version` alone prints the version; with --json and nothing but global options beside it,
 * `{"version": …}`. cli/main.ts asks the same before loading commander.
 */
export function quickVersion(argv: readonly string[]): QuickVersion | undefined {
  if (argv.length === 1 && isVersion(argv[0])) return { command: "version", json: false };
  if (!argv.includes("--json") || !argv.some(isVersion)) return undefined;
  for (let i = 0; i < argv.length; i++) {
    if (VALUE_OPTIONS.test(argv[i]!)) i++;
    else if (!argv[i]!.startsWith("-")) return undefined;
  }
  return { command: "version", json: true };
}

/** The line `--version` prints: the version, or `{"version": …}` with --json. */
export function versionLine(asked: QuickVersion, version: string): string {
  return asked.json ? `${JSON.stringify({ version })}\n` : `${version}\n`;
}

/**
 * `balances [--nonzero]`, `orders PAIR` or `order PAIR ID` on paper, with --json, -a/--account NAME and
 * -e/--exchange paper anywhere (commander reads global options after the command too). A value
 * option typed twice, an account starting with `-`, `--nonzero` before `balances` (commander's
 * "unknown option") and a wrong number of arguments all go to commander.
 */
export function quickRead(argv: readonly string[]): QuickRead | undefined {
  let command: string | undefined;
  const operands: string[] = [];
  let json = false;
  let nonzero = false;
  let account: string | undefined;
  let exchange: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--nonzero" && command === "balances") nonzero = true;
    else if (arg === "-a" || arg === "--account" || arg === "-e" || arg === "--exchange") {
      const value = argv[++i];
      if (value === undefined || value.startsWith("-")) return undefined;
      if (arg === "-a" || arg === "--account") {
        if (account !== undefined) return undefined;
        account = value;
      } else {
        if (exchange !== undefined || value !== "paper") return undefined;
        exchange = value;
      }
    } else if (arg.startsWith("-")) return undefined;
    else if (command === undefined) command = arg;
    else operands.push(arg);
  }
  const given = { json, ...(account === undefined ? {} : { account }), exchangeGiven: exchange !== undefined };
  if (command === "balances" && operands.length === 0) return { command, nonzero, ...given };
  if (command === "orders" && operands.length === 1) return { command, pair: operands[0]!, ...given };
  if (command === "order" && operands.length === 2) return { command, pair: operands[0]!, id: operands[1]!, ...given };
  return undefined;
}
