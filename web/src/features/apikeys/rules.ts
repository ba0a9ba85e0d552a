/** API Keys rules (seed 000 §5 "API keys"). */
import type { AccountPath } from "../../../../lib/api.js";

export interface ApiKeyFields {
  client: string;
  account: string;
  pair: string;
  api: string;
  secret: string;
  password: string;
  exchange: string;
}

/** Seed 000 §2: the hint names the four exchanges that need a passphrase. */
export const PASSPHRASE_HINT = "Needed for Bitmart, Bitget, Kucoin, OKX";

/** Seed 000 §5: Submit only when client name, sub account, pair, api key, secret and exchange are filled; passphrase optional. */
export function canSubmitApiKeys(f: ApiKeyFields): boolean {
  return [f.client, f.account, f.pair, f.api, f.secret, f.exchange].every((v) => v.trim() !== "");
}

/** Seed 000 §3: the key of the record is client name, exchange, sub account. */
export function apiKeyPath(f: ApiKeyFields): AccountPath {
  return [f.client.trim(), f.exchange.trim(), f.account.trim()];
}

/** Seed 000 §5 "Remove: Delete is disabled until a path is chosen". */
export function canDelete(chosen: AccountPath | undefined): boolean {
  return chosen !== undefined;
}
