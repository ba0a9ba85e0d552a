/** API Keys rules (docs/dashboard-rules.md#validation "API keys"), as the forms' schemas and the checks the tests read. */
import { z } from "zod";
import type { AccountPath } from "../../../../lib/api.js";
import { accountPathSchema, envelopeSchema } from "../../../../lib/schemas.js";

const filled = (label: string) => z.string().refine((v) => v.trim() !== "", `${label} is required`);

/** docs/dashboard-rules.md#validation: client name, sub account, pair, api key, secret and exchange filled; passphrase optional. */
export const apiKeyFormSchema = z.object({
  client: filled("Client Name"),
  account: filled("Sub Account"),
  // the server's own check of the envelope's pair (BASE/QUOTE), so a typo is caught before sealing
  pair: envelopeSchema.shape.pair,
  api: filled("API Key"),
  secret: filled("Secret Key"),
  password: z.string(),
  exchange: filled("Exchange"),
});
export type ApiKeyFields = z.infer<typeof apiKeyFormSchema>;

/** docs/dashboard-rules.md#screens: the hint names the four exchanges that need a passphrase. */
export const PASSPHRASE_HINT = "Needed for Bitmart, Bitget, Kucoin, OKX";

/** What Submit waits for, in the form's order (components/SubmitButton.tsx). */
export const API_KEY_LABELS: Partial<Record<keyof ApiKeyFields, string>> = {
  client: "Client Name",
  account: "Sub Account",
  pair: "a pair such as BTC/USDT",
  api: "API Key",
  secret: "Secret Key",
  exchange: "Exchange",
};

/** docs/dashboard-rules.md#validation: Submit only when client name, sub account, pair, api key, secret and exchange are filled; passphrase optional. */
export function canSubmitApiKeys(f: ApiKeyFields): boolean {
  return apiKeyFormSchema.safeParse(f).success;
}

/** docs/dashboard-rules.md#entities: the key of the record is client name, exchange, sub account. */
export function apiKeyPath(f: ApiKeyFields): AccountPath {
  return [f.client.trim(), f.exchange.trim(), f.account.trim()];
}

/** The remove form: one account path (lib's schema, docs/decisions.md#d13). */
export const removeApiKeysFormSchema = z.object({
  path: accountPathSchema.optional().refine((p) => p !== undefined, "Choose a path"),
});
export type RemoveApiKeysForm = z.input<typeof removeApiKeysFormSchema>;

/** docs/dashboard-rules.md#validation "Remove: Delete is disabled until a path is chosen". */
export function canDelete(chosen: AccountPath | undefined): boolean {
  return removeApiKeysFormSchema.safeParse({ path: chosen }).success;
}
