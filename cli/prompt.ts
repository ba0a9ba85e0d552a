import { ExchangeError } from "../lib/errors.js";

export function canPrompt(): boolean {
  return process.stdin.isTTY === true;
}

/**
 * Asks for a secret on the terminal without echoing it. The question goes to stderr so stdout
 * stays the command's result. Never called when stdin is not a terminal (docs/product.md#cli-surface "no prompts when
 * stdin is not a terminal"): callers check canPrompt() and fail with a clear message instead.
 */
export async function promptHidden(question: string): Promise<string> {
  if (!canPrompt()) {
    throw new ExchangeError("spotdesk", `Cannot ask for ${question.replace(/[:\s]+$/, "")}: stdin is not a terminal`, {
      kind: "bad-input",
    });
  }
  const { createInterface } = await import("node:readline");
  const { Writable } = await import("node:stream");
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, callback) {
      if (!muted) process.stderr.write(chunk, encoding);
      callback();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    rl.on("SIGINT", () => {
      rl.close();
      process.stderr.write("\n");
      reject(new ExchangeError("spotdesk", "Cancelled", { kind: "bad-input" }));
    });
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

/**
 * Asks a yes/no question on the terminal (stderr), `[y/N]`: only `y` or `yes` is yes; Enter,
 * anything else and Ctrl-C are no. Callers ask only when canPrompt() and no --yes was given
 * (docs/cli.md "Confirmations").
 */
export async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline");
  // TERM=dumb: no line editing, so no cursor control; the terminal echoes the answer itself
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.env.TERM !== "dumb" });
  return new Promise<boolean>((resolve) => {
    rl.on("SIGINT", () => {
      rl.close();
      process.stderr.write("\n");
      resolve(false);
    });
    rl.question(`${question} [y/N] `, (answer) => {
      rl.close();
      resolve(/^(y|yes)$/i.test(answer.trim()));
    });
  });
}

/** True to go ahead: --yes, or no terminal to ask on (scripts), or a `y` typed at the question. */
export async function confirmed(question: string, yes: boolean | undefined): Promise<boolean> {
  if (yes === true || !canPrompt()) return true;
  return confirm(question);
}
