/** Home filters and grouping (docs/dashboard-rules.md#screens "Home"). */
import type { AccountAnswer } from "../../../../lib/api.js";
import type { BotType } from "../../../../lib/schemas.js";

/** docs/dashboard-rules.md#screens "Status letters on cards": F, G, V, HV, SD, CC (liquidity: L, not named by the seed). */
export const BOT_LETTERS: Record<BotType, string> = {
  "floating-bot": "F",
  "grid-bot": "G",
  "volume-bot": "V",
  "heavy-volume-bot": "HV",
  "spread-decompression-bot": "SD",
  "candle-closer-bot": "CC",
  "liquidity-arranger-bot": "L",
};

export function botLetter(botType: string): string {
  return BOT_LETTERS[botType as BotType] ?? "?";
}

export interface ClientGroup {
  client: string;
  accounts: AccountAnswer[];
}

/** Clients matching the name filter (case-insensitive substring), each with its accounts on the chosen exchange. */
export function groupClients(
  clients: readonly string[],
  accounts: readonly AccountAnswer[],
  clientFilter: string,
  exchangeFilter: string,
): ClientGroup[] {
  const needle = clientFilter.trim().toLowerCase();
  return clients
    .filter((c) => c.toLowerCase().includes(needle))
    .map((client) => ({
      client,
      accounts: accounts.filter((a) => a.client === client && (exchangeFilter === "" || a.exchange === exchangeFilter)),
    }))
    .filter((g) => exchangeFilter === "" || g.accounts.length > 0);
}
