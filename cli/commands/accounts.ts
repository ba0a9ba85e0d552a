import type { Command } from "commander";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { ExchangeError } from "../../lib/errors.js";
import { normalizePair } from "../../lib/pair.js";
import type { ExchangeId } from "../../lib/types.js";
import type { Context } from "../context.js";
import { resolveExchangeId } from "../exchange.js";
import { action } from "../run.js";

const ACCOUNT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function checkName(name: string): string {
  if (!ACCOUNT_NAME_RE.test(name)) {
    throw new ExchangeError(
      "spotdesk",
      `Invalid account name '${name}': use letters, digits, '.', '_' or '-' (up to 64)`,
      { kind: "bad-input" },
    );
  }
  return name;
}

/** A far-price limit typed by a person: a non-negative percent (docs/orders.md "Far-price guard"). */
export async function farPricePercentOption(text: string): Promise<string> {
  const { parseFarPricePercent } = await import("../../lib/price-guard.js");
  const value = parseFarPricePercent(text);
  if (value === null) {
    throw new ExchangeError(
      "spotdesk",
      `Invalid --far-price-percent '${text}': expected a percent such as 5 or 2.5 (0 or more)`,
      { kind: "bad-input" },
    );
  }
  return value;
}

/** Sets a paper account's maker and/or taker fee (percent, checked by paper) and returns both. */
async function setPaperFees(
  ctx: Context,
  name: string,
  maker: string | undefined,
  taker: string | undefined,
): Promise<{ maker: string; taker: string }> {
  const { PaperExchange } = await import("../../exchanges/paper/index.js");
  const { paperDataDir } = await import("../context.js");
  const dataDir = paperDataDir();
  const paper = new PaperExchange({ account: name, now: ctx.now, ...(dataDir ? { dataDir } : {}) });
  try {
    return await paper.setFees({
      ...(maker !== undefined ? { maker } : {}),
      ...(taker !== undefined ? { taker } : {}),
    });
  } finally {
    await paper.close();
  }
}

/** A real exchange named with --exchange: the default (paper) needs no credentials. */
async function realExchange(ctx: Context): Promise<ExchangeId> {
  if (!ctx.exchangeGiven) {
    throw new ExchangeError(
      "spotdesk",
      "Name the exchange of the account with --exchange ID (see `spotdesk exchanges`)",
      { kind: "bad-input" },
    );
  }
  const id = await resolveExchangeId(ctx);
  if (!CATALOGUE[id].needsApiKey)
    throw new ExchangeError(id, `${id} needs no credentials: nothing to store`, { kind: "bad-input" });
  return id;
}

/**
 * A secret from its environment variable, else a hidden prompt on a terminal. Never from argv:
 * the command line of a process is visible to every user through `ps`.
 */
async function readSecret(variable: string, label: string): Promise<string> {
  const value = process.env[variable];
  if (value !== undefined && value !== "") return value;
  const { canPrompt, promptHidden } = await import("../prompt.js");
  if (!canPrompt()) {
    throw new ExchangeError(
      "spotdesk",
      `Missing ${label}: set ${variable} (stdin is not a terminal, so there is no prompt)`,
      { kind: "auth" },
    );
  }
  const answer = (await promptHidden(`${label}: `)).trim();
  if (answer === "") throw new ExchangeError("spotdesk", `Missing ${label}`, { kind: "auth" });
  return answer;
}

/** `spotdesk accounts add|list|remove`: the local encrypted credential store. */
export function registerAccounts(program: Command): void {
  const accounts = program.command("accounts").description("the local encrypted credential store");

  accounts
    .command("add")
    .description("store API credentials for --exchange under NAME (read from SPOTDESK_API_* or hidden prompts)")
    .argument("<name>", "account name, used with --account")
    .option("--pair <pair>", "the account's default pair, kept with the encrypted keys")
    .option("--far-price-percent <n>", "the account's far-price limit in percent (default 5)")
    .option("-y, --yes", "replace an existing account without asking")
    .action(
      action(async (ctx, name: string, options: { pair?: string; farPricePercent?: string; yes?: boolean }) => {
        const exchange = await realExchange(ctx);
        checkName(name);
        const pair = options.pair ? normalizePair(options.pair, exchange) : "";
        const farPricePercent =
          options.farPricePercent === undefined ? undefined : await farPricePercentOption(options.farPricePercent);
        const { openStore, readStoreKey } = await import("../store.js");
        const store = await openStore();
        const existing = store.find(exchange, name);
        // docs/cli.md "Confirmations": replacing stored keys asks first on a terminal
        if (existing) {
          const { confirmed } = await import("../prompt.js");
          if (
            !(await confirmed(
              `Replace the stored ${exchange} account '${name}' (key ${existing.keyMask})?`,
              options.yes,
            ))
          ) {
            throw new ExchangeError(exchange, `Not confirmed: ${exchange} account '${name}' left as it was`, {
              kind: "bad-input",
            });
          }
        }
        const storeKey = await readStoreKey(store, { creating: true });
        const api = await readSecret("SPOTDESK_API_KEY", "API key");
        const secret = await readSecret("SPOTDESK_API_SECRET", "API secret");
        const needsPassphrase = CATALOGUE[exchange].needsPassphrase;
        // Only bitget, bitmart, kucoin and okx have a passphrase (docs/exchange-rules.md#entities): nobody else is asked.
        const password = needsPassphrase
          ? await readSecret("SPOTDESK_API_PASSWORD", "API passphrase")
          : process.env.SPOTDESK_API_PASSWORD || undefined;
        const replaced = store.find(exchange, name) !== undefined;
        const entry = await store.add(
          exchange,
          name,
          { api, secret, ...(password ? { password } : {}) },
          storeKey,
          pair,
        );
        if (farPricePercent !== undefined) store.setSettings(exchange, name, { farPricePercent });
        ctx.out.sent(`${replaced ? "replaced" : "stored"} ${exchange} account '${name}'`);
        const result = {
          exchange,
          name,
          key: entry.keyMask,
          pair: pair || null,
          farPricePercent: store.settings(exchange, name).farPricePercent ?? null,
          replaced,
        };
        if (ctx.out.json) return ctx.out.document(result);
        ctx.out.text(
          `${replaced ? "Replaced" : "Added"} ${exchange} account '${name}' (key ${entry.keyMask}) in ${store.path}`,
        );
      }),
    );

  accounts
    .command("list")
    .description("list stored accounts: exchange, name, masked key")
    .action(
      action(async (ctx) => {
        const { openStore } = await import("../store.js");
        const store = await openStore();
        const rows = store.list().map((a) => ({
          exchange: a.exchange,
          name: a.name,
          key: a.keyMask,
          pair: a.envelope.pair || null,
          farPricePercent: store.settings(a.exchange, a.name).farPricePercent ?? null,
          createdAt: a.createdAt,
        }));
        if (ctx.out.json) return ctx.out.document(rows);
        if (rows.length === 0) return ctx.out.text(`No stored accounts (${store.path})`);
        ctx.out.table(
          ["Exchange", "Name", "Key", "Pair", "Far price %", "Added"],
          rows.map((r) => [r.exchange, r.name, r.key, r.pair ?? "-", r.farPricePercent ?? "-", r.createdAt]),
          ["left", "left", "left", "left", "right", "left"],
        );
      }),
    );

  accounts
    .command("set")
    .description(
      "change settings of account NAME on --exchange (default paper): --far-price-percent N; paper's --maker-fee/--taker-fee N (percent)",
    )
    .argument("<name>", "account name, used with --account")
    .option(
      "--far-price-percent <n>",
      "the far-price limit in percent: a Buy above the best ask or a Sell below the best bid by more is refused",
    )
    .option("--maker-fee <percent>", "paper: the fee of a resting order's fill, in percent (default 0.1)")
    .option("--taker-fee <percent>", "paper: the fee of what a new order takes, in percent (default 0.1)")
    .action(
      action(async (ctx, name: string, options: { farPricePercent?: string; makerFee?: string; takerFee?: string }) => {
        const exchange = await resolveExchangeId(ctx);
        checkName(name);
        const feesGiven = options.makerFee !== undefined || options.takerFee !== undefined;
        if (options.farPricePercent === undefined && !feesGiven)
          throw new ExchangeError(
            "spotdesk",
            "Nothing to set: give --far-price-percent N, or on paper --maker-fee N and/or --taker-fee N",
            { kind: "bad-input" },
          );
        if (feesGiven && exchange !== "paper")
          throw new ExchangeError(
            exchange,
            `--maker-fee and --taker-fee set paper's fees; ${exchange} charges its own`,
            {
              kind: "bad-input",
            },
          );
        const result: Record<string, unknown> = { exchange, name };
        const said: string[] = [];
        if (options.farPricePercent !== undefined) {
          const farPricePercent = await farPricePercentOption(options.farPricePercent);
          const { openStore } = await import("../store.js");
          const store = await openStore();
          store.setSettings(exchange, name, { farPricePercent });
          result.farPricePercent = farPricePercent;
          said.push(`far-price limit ${farPricePercent}%`);
        }
        if (feesGiven) {
          // docs/paper-store.md "Fees": kept in the paper account's own files
          const fees = await setPaperFees(ctx, name, options.makerFee, options.takerFee);
          result.makerFee = fees.maker;
          result.takerFee = fees.taker;
          said.push(`maker fee ${fees.maker}%, taker fee ${fees.taker}%`);
        }
        if (ctx.out.json) return ctx.out.document(result);
        ctx.out.text(`${exchange} account '${name}': ${said.join("; ")}`);
      }),
    );

  accounts
    .command("remove")
    .description(
      "delete the stored account NAME (of --exchange when several exchanges share the name); asks first on a terminal",
    )
    .argument("<name>", "account name")
    .option("-y, --yes", "do not ask for confirmation")
    .action(
      action(async (ctx, name: string, options: { yes?: boolean }) => {
        const { openStore } = await import("../store.js");
        const store = await openStore();
        let matches = store.list().filter((a) => a.name === name);
        if (ctx.exchangeGiven) {
          const exchange = await resolveExchangeId(ctx);
          matches = matches.filter((a) => a.exchange === exchange);
        }
        if (matches.length === 0) {
          throw new ExchangeError(
            ctx.exchangeGiven ? ctx.options.exchange : "spotdesk",
            `No stored account '${name}'`,
            { kind: "bad-input" },
          );
        }
        if (matches.length > 1) {
          const where = matches.map((a) => a.exchange).join(", ");
          throw new ExchangeError("spotdesk", `Account '${name}' exists on ${where}: name one with --exchange ID`, {
            kind: "bad-input",
          });
        }
        const match = matches[0]!;
        const { confirmed } = await import("../prompt.js");
        if (
          !(await confirmed(
            `Remove the stored ${match.exchange} account '${match.name}' (key ${match.keyMask})?`,
            options.yes,
          ))
        ) {
          throw new ExchangeError(match.exchange, `Not confirmed: ${match.exchange} account '${match.name}' kept`, {
            kind: "bad-input",
          });
        }
        store.remove(match.exchange, match.name);
        ctx.out.sent(`removed ${match.exchange} account '${match.name}'`);
        if (ctx.out.json) return ctx.out.document({ exchange: match.exchange, name: match.name, removed: true });
        ctx.out.text(`Removed ${match.exchange} account '${match.name}'`);
      }),
    );
}
