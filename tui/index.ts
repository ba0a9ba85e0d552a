import { CATALOGUE } from "../exchanges/catalogue.js";
import type { BookFeed, ExchangeAdapter } from "../exchanges/types.js";
import { normalizePair } from "../lib/pair.js";
import { type Credentials, type ExchangeId, isExchangeId } from "../lib/types.js";
import { errorText } from "./errors.js";
import { defaultServices, listPaperAccounts, type TuiServices } from "./services.js";

export type { TuiServices } from "./services.js";

export interface RunTuiOptions {
  /** exchange id; "paper" when absent */
  exchange?: string;
  /** BTC/USDT when absent */
  pair?: string;
  /** account name (paper: the simulated account); "default" when absent */
  account?: string;
  credentials?: Credentials;
  baseUrl?: string;
  wsUrl?: string;
  /** --proxy: the pair list goes through it as the account's calls do (docs/decisions.md#d12) */
  proxy?: string;
  /** paper's data directory */
  dataDir?: string;
  now?: () => number;
  /** the CLI's way to open adapters and feeds (its credential store); the exchange layer directly when absent */
  openExchange?: (exchange: ExchangeId, account: string) => Promise<ExchangeAdapter>;
  openFeed?: (exchange: ExchangeId, pair: string, depth?: number) => Promise<BookFeed>;
  listAccounts?: (exchange: ExchangeId) => Promise<string[]>;
  /** the account's far-price limit in percent (docs/orders.md); the guard's default, 5, when absent */
  farPricePercent?: (exchange: ExchangeId, account: string) => Promise<string | undefined>;
  /** streams; the process's when absent */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** text mode only: stop after this many frames */
  maxFrames?: number;
  /** NO_COLOR from the environment when absent */
  noColor?: boolean;
}

export const DEFAULT_PAIR = "BTC/USDT";
export const DEFAULT_ACCOUNT = "default";

function servicesFor(options: RunTuiOptions): TuiServices {
  const base = defaultServices({
    credentials: options.credentials,
    baseUrl: options.baseUrl,
    wsUrl: options.wsUrl,
    dataDir: options.dataDir,
    now: options.now,
    proxy: options.proxy,
  });
  return {
    ...base,
    ...(options.openExchange ? { openExchange: options.openExchange } : {}),
    ...(options.openFeed ? { openFeed: options.openFeed } : {}),
    listAccounts: options.listAccounts ?? ((exchange) => listPaperAccounts(exchange, options.dataDir)),
    ...(options.farPricePercent ? { farPricePercent: options.farPricePercent } : {}),
  };
}

/**
 * The terminal UI (`spotdesk tui [PAIR]`, `npm start`). Resolves to the process exit code: 0 after
 * `q`, 1 when it could not start. Without a terminal on stdin and stdout it says so on stderr and
 * prints the live book as text until SIGINT, SIGTERM or the end of stdin.
 */
export async function runTui(options: RunTuiOptions = {}): Promise<number> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const exchangeText = options.exchange ?? "paper";
  if (!isExchangeId(exchangeText)) {
    stderr.write(
      `spotdesk tui: unknown exchange '${exchangeText}'. Known exchanges: ${Object.keys(CATALOGUE).join(", ")}\n`,
    );
    return 2;
  }
  const exchange: ExchangeId = exchangeText;
  const services = servicesFor(options);
  let pair: string;
  try {
    pair = normalizePair(options.pair ?? DEFAULT_PAIR, exchange);
  } catch (e) {
    stderr.write(`spotdesk tui: ${errorText(e)}\n`);
    return 2;
  }
  const account = options.account ?? DEFAULT_ACCOUNT;

  if (!stdin.isTTY || !stdout.isTTY) return textMode(services, exchange, pair, options, stdin, stdout, stderr);

  // React's development build costs several times more per frame; a trader runs the production one
  process.env.NODE_ENV ??= "production";
  // Ink draws only the last frame when it thinks it runs under CI (a CI or CONTINUOUS_INTEGRATION
  // variable): with a person at a real terminal that would be a blank screen until exit.
  if (stdout === process.stdout) {
    for (const name of ["CI", "CONTINUOUS_INTEGRATION"]) if (name in process.env) process.env[name] = "false";
  }
  // Loading Ink takes a few hundred ms: open the first feed and account meanwhile, so the book is
  // live on the first frames (issue 5: a live book within 2 seconds of `npm start`).
  const ready = openEarly(services, exchange, account, pair);
  const [{ render }, { createElement }, { App }, theme] = await Promise.all([
    import("ink"),
    import("react"),
    import("./app.js"),
    import("./theme.js"),
  ]);
  if (process.env.NODE_ENV === "production") {
    const [{ createRequire }, { dropUnloadedDevelopmentBuilds }] = await Promise.all([
      import("node:module"),
      import("./heap.js"),
    ]);
    dropUnloadedDevelopmentBuilds(createRequire(import.meta.url).cache);
  }
  const noColor = options.noColor ?? theme.noColorFromEnv();
  // The alternate screen keeps the trader's scrollback intact; it is left on every way out.
  const ALT_ON = "\u001b[?1049h\u001b[H";
  const ALT_OFF = "\u001b[?1049l";
  // docs/tui.md "Mouse": clicks and the wheel are reported while the TUI runs, and never reach the keys
  const { MOUSE_OFF, MOUSE_ON, mouseStdin } = await import("./mouse.js");
  stdout.write(ALT_ON + MOUSE_ON);
  const restore = () => stdout.write(MOUSE_OFF + ALT_OFF);
  const onSignal = () => instance.unmount();
  // docs/tui.md "Every size": ASCII where the locale is not UTF-8
  const { asciiStdout, localeIsUtf8 } = await import("./ascii.js");
  const screen = localeIsUtf8() ? stdout : asciiStdout(stdout);
  const instance = render(
    createElement(
      theme.ThemeContext.Provider,
      { value: theme.createTheme(noColor) },
      createElement(App, { services: ready, exchange, account, pair, ...(options.now ? { now: options.now } : {}) }),
    ),
    { stdin: mouseStdin(stdin), stdout: screen, stderr, exitOnCtrlC: false, patchConsole: true },
  );
  process.once("SIGTERM", onSignal);
  try {
    await instance.waitUntilExit();
    return 0;
  } catch (e) {
    stderr.write(`spotdesk tui: ${errorText(e)}\n`);
    return 1;
  } finally {
    process.off("SIGTERM", onSignal);
    instance.cleanup();
    restore();
  }
}

/**
 * Services whose first feed and first adapter for the starting target are already being opened;
 * later opens (switchers) go through as usual.
 */
function openEarly(services: TuiServices, exchange: ExchangeId, account: string, pair: string): TuiServices {
  // at the depth the App asks for (hooks/useSession.ts): paper's whole synthetic book
  let feed: Promise<BookFeed> | undefined = services.openFeed(exchange, pair, exchange === "paper" ? 50 : undefined);
  let adapter: Promise<ExchangeAdapter> | undefined = services.openExchange(exchange, account);
  // the App reports these errors when it takes the promises; until then they must not go unhandled
  feed.catch(() => {});
  adapter.catch(() => {});
  return {
    ...services,
    openFeed(ex, p, depth) {
      const early = feed;
      feed = undefined;
      if (early !== undefined && ex === exchange && p === pair) return early;
      if (early !== undefined)
        void early.then(
          (f) => f.stop(),
          () => {},
        );
      return services.openFeed(ex, p, depth);
    },
    openExchange(ex, acc) {
      const early = adapter;
      adapter = undefined;
      if (early !== undefined && ex === exchange && acc === account) return early;
      if (early !== undefined)
        void early.then(
          (a) => a.close(),
          () => {},
        );
      return services.openExchange(ex, acc);
    },
  };
}

async function textMode(
  services: TuiServices,
  exchange: ExchangeId,
  pair: string,
  options: RunTuiOptions,
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
): Promise<number> {
  const which = !stdin.isTTY && !stdout.isTTY ? "stdin and stdout are" : !stdin.isTTY ? "stdin is" : "stdout is";
  stderr.write(
    `spotdesk tui: ${which} not a terminal, so there is no interactive UI; printing the live ${pair} book on ${exchange} as text (Ctrl-C to stop).\n`,
  );
  let feed: BookFeed;
  try {
    feed = await services.openFeed(exchange, pair);
  } catch (e) {
    stderr.write(`spotdesk tui: ${errorText(e)}\n`);
    return 1;
  }
  const { runTextMode } = await import("./text-mode.js");
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once("SIGINT", abort);
  process.once("SIGTERM", abort);
  // stdin at its end (a closed pipe, /dev/null) also ends the stream, a second later so the first frames are out
  const onEnd = () => setTimeout(abort, 1000);
  if (!stdin.isTTY) {
    stdin.once("end", onEnd);
    stdin.resume();
  }
  feed.start();
  try {
    return await runTextMode({
      feed,
      out: stdout,
      signal: stop.signal,
      ...(options.maxFrames === undefined ? {} : { maxFrames: options.maxFrames }),
      ...(options.now ? { now: options.now } : {}),
    });
  } finally {
    feed.stop();
    process.off("SIGINT", abort);
    process.off("SIGTERM", abort);
    if (!stdin.isTTY) {
      stdin.off("end", onEnd);
      stdin.pause();
    }
  }
}
