/**
 * The read path (docs/cli.md "Cold start"): `balances`, `orders PAIR` and `order PAIR ID` on paper, as parsed by
 * cli/quick.ts, run without commander. The work, the context and the error reporting are the
 * commands' own (cli/commands/balances.ts, orders.ts, cli/run.ts runAction), so stdout, stderr
 * and the exit code are those of the same line through commander (test/cli/read-path.test.ts).
 * Built as CommonJS into dist/read.cjs and loaded with a V8 code cache (cli/code-cache.ts).
 */
import { balances } from "./commands/balances.js";
import { oneOrder, openOrders } from "./commands/orders.js";
import { newContext } from "./context.js";
// paper's first call checks its data directory with cli/dirs.ts (cli/exchange.ts imports it when
// needed): imported here so that it is in dist/read.cjs, not a file of its own
import "./dirs.js";
import type { QuickRead } from "./quick.js";
import { flushAndExit, handleStdoutErrors, reportError, runAction, UNEXPECTED_EXIT_CODE } from "./run.js";

export async function runRead(read: QuickRead): Promise<never> {
  handleStdoutErrors();
  const options = { exchange: "paper", account: read.account ?? "default", ...(read.json ? { json: true } : {}) };
  let code = 0;
  try {
    await runAction(
      read.json,
      "paper",
      () => newContext(options, read.exchangeGiven, read.account !== undefined),
      (ctx) => {
        if (read.command === "balances") return balances(ctx, { nonzero: read.nonzero });
        if (read.command === "orders") return openOrders(ctx, read.pair);
        return oneOrder(ctx, read.pair, read.id);
      },
    );
    code = typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    code = reportError(error, read.json) || UNEXPECTED_EXIT_CODE;
  }
  return flushAndExit(code);
}
