import { type Command, Option } from "commander";
import { defaultDataDir, PAPER_PAIRS } from "../../exchanges/paper/index.js";
import { ExchangeError } from "../../lib/errors.js";
import { paperDataDir } from "../context.js";
import { action } from "../run.js";

const SHELLS = ["bash", "zsh", "fish"] as const;

/** Account names for `-a`: the stored accounts and paper's simulated ones (nothing when they cannot be read). */
async function accountNames(): Promise<string[]> {
  const names: string[] = [];
  try {
    const { openStore } = await import("../store.js");
    names.push(...(await openStore()).list().map((a) => a.name));
  } catch {}
  try {
    const [{ readdirSync }, { join }] = await Promise.all([import("node:fs"), import("node:path")]);
    const dir = join(paperDataDir() ?? defaultDataDir(), "paper");
    for (const file of readdirSync(dir)) if (file.endsWith(".json")) names.push(file.slice(0, -".json".length));
  } catch {}
  return [...new Set(names)].sort();
}

/** Pairs: paper's and the stored accounts' pairs. */
async function pairNames(): Promise<string[]> {
  const pairs: string[] = PAPER_PAIRS.map((p) => p.pair);
  try {
    const { openStore } = await import("../store.js");
    for (const a of (await openStore()).list()) if (a.envelope.pair) pairs.push(a.envelope.pair);
  } catch {}
  return [...new Set(pairs)].sort();
}

/** `spotdesk completion bash|zsh|fish` (docs/cli.md "Completion"). */
export function registerCompletion(program: Command): void {
  program
    .command("completion")
    .description('print the shell completion script: eval "$(spotdesk completion bash)" (or zsh; fish: see --help)')
    .argument("[shell]", "bash, zsh or fish")
    .addOption(new Option("--list <what>", "accounts or pairs, one a line (used by the scripts)").hideHelp())
    .addHelpText(
      "after",
      `
bash:  echo 'eval "$(spotdesk completion bash)"' >> ~/.bashrc
zsh:   echo 'eval "$(spotdesk completion zsh)"' >> ~/.zshrc
fish:  spotdesk completion fish > ~/.config/fish/completions/spotdesk.fish`,
    )
    .action(
      action(async (ctx, shell: string | undefined, options: { list?: string }) => {
        if (options.list !== undefined) {
          if (options.list !== "accounts" && options.list !== "pairs") {
            throw new ExchangeError("spotdesk", `Invalid --list '${options.list}': expected accounts or pairs`, {
              kind: "bad-input",
            });
          }
          const names = options.list === "accounts" ? await accountNames() : await pairNames();
          if (names.length > 0) ctx.out.text(names.join("\n"));
          return;
        }
        if (shell === undefined || !(SHELLS as readonly string[]).includes(shell)) {
          throw new ExchangeError(
            "spotdesk",
            `${shell === undefined ? "Missing shell" : `Unknown shell '${shell}'`}: spotdesk completion bash|zsh|fish`,
            { kind: "bad-input" },
          );
        }
        const scripts = await import("../completion.js");
        ctx.out.text(
          shell === "bash"
            ? scripts.bashScript(program)
            : shell === "zsh"
              ? scripts.zshScript(program)
              : scripts.fishScript(program),
        );
      }),
    );
}
