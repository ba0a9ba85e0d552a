/**
 * The version line on stdout (docs/cli.md "Exit codes"): exit 0, or 11 with a line on stderr when
 * stdout cannot take it (a full disk, /dev/full), as every other command. A reader that closed the
 * pipe early is not an error (0), as for a read. Loaded on `--version` only.
 */
import { writeSync } from "node:fs";

export function writeVersion(line: string, json: boolean): number {
  try {
    writeSync(1, line);
    return 0;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (code === "EPIPE") return 0;
    const message = `Could not write the result to stdout (${code})`;
    writeSync(
      2,
      json
        ? `${JSON.stringify({ error: { exchange: "spotdesk", kind: "output", message, exitCode: 11 } })}\n`
        : `ExchangeId: spotdesk, msg: ${message}\n`,
    );
    return 11;
  }
}
