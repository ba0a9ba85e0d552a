import { ExchangeError } from "../lib/errors.js";

export function canPrompt(): boolean {
  return process.stdin.isTTY === true;
}

/**
 * Asks for a secret on the terminal without echoing it. The question goes to stderr so stdout
 * stays the command's result. Never called when stdin is not a terminal (PRODUCT "no prompts when
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
