/**
 * The local credential store (docs/product.md#cli-surface: accounts add|list|remove). A conf JSON
 * file whose entries hold the docs/dashboard-rules.md#entities envelope (AES-256-GCM, docs/decisions.md#d3) of {api, secret,
 * password}. The encryption key is never stored: it comes from SPOTDESK_STORE_KEY or a hidden
 * prompt. Only the exchange, the account name and a masked key are kept in clear, for `list`.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Conf from "conf";
import {
  decryptText,
  type Envelope,
  encryptText,
  openCredentials,
  type StoredCredentials,
  sealCredentials,
  validateEncryptionKey,
} from "../lib/envelope.js";
import { ExchangeError } from "../lib/errors.js";
import { EXCHANGE_IDS, type ExchangeId } from "../lib/types.js";
import { CONFIG_DIR, dirError, isFsError } from "./dirs.js";
import { canPrompt, promptHidden } from "./prompt.js";
import { storeDir, storeFile } from "./store-dir.js";

export { storeDir };

export interface StoredAccount {
  exchange: ExchangeId;
  name: string;
  /** "ab…yz": enough to recognise a key, never enough to use it */
  keyMask: string;
  envelope: Envelope;
  createdAt: string;
}

/**
 * Per-account settings kept in clear beside the credentials (no secret in them), for any exchange,
 * paper included (docs/orders.md "Far-price guard").
 */
export interface AccountSettings {
  /** the far-price guard's limit in percent, as a decimal string */
  farPricePercent?: string;
}

interface StoreData {
  version: 1;
  /** a known text sealed with the store key, so a wrong key is caught before it seals anything */
  check?: string;
  accounts: Record<string, StoredAccount>;
  /** keyed like accounts: "exchange/name" */
  settings?: Record<string, AccountSettings>;
}

function isSettings(value: unknown): value is AccountSettings {
  const v = value as AccountSettings | null;
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    (v.farPricePercent === undefined || typeof v.farPricePercent === "string")
  );
}

const CHECK_TEXT = "spotdesk credential store";
const fail = (message: string, kind: "auth" | "bad-input" = "bad-input") =>
  new ExchangeError("spotdesk", message, { kind });

/** Shows a key as its first and last two characters; short keys are not shown at all. */
export function maskKey(key: string): string {
  return key.length >= 8 ? `${key.slice(0, 2)}…${key.slice(-2)}` : "…";
}

function entryKey(exchange: ExchangeId, name: string): string {
  return `${exchange}/${name}`;
}

function isEnvelope(value: unknown): value is Envelope {
  const v = value as Envelope | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.data === "string" &&
    typeof v.pair === "string" &&
    typeof v.active === "boolean"
  );
}

function isStoredAccount(value: unknown): value is StoredAccount {
  const v = value as StoredAccount | null;
  return (
    typeof v === "object" &&
    v !== null &&
    (EXCHANGE_IDS as readonly string[]).includes(v.exchange) &&
    typeof v.name === "string" &&
    typeof v.keyMask === "string" &&
    typeof v.createdAt === "string" &&
    isEnvelope(v.envelope)
  );
}

export class CredentialStore {
  private readonly conf: Conf<Record<string, unknown>>;
  private data: StoreData;

  constructor(conf: Conf<Record<string, unknown>>, data: StoreData) {
    this.conf = conf;
    this.data = data;
  }

  get path(): string {
    return this.conf.path;
  }

  get hasCheck(): boolean {
    return this.data.check !== undefined;
  }

  list(): StoredAccount[] {
    return Object.values(this.data.accounts).sort(
      (a, b) => a.exchange.localeCompare(b.exchange) || a.name.localeCompare(b.name),
    );
  }

  find(exchange: ExchangeId, name: string): StoredAccount | undefined {
    return this.data.accounts[entryKey(exchange, name)];
  }

  /** True when the key opens this store (or the store has no key yet). */
  async verifyKey(storeKey: string): Promise<boolean> {
    if (this.data.check === undefined) return true;
    try {
      return (await decryptText(this.data.check, storeKey)) === CHECK_TEXT;
    } catch {
      return false;
    }
  }

  async add(
    exchange: ExchangeId,
    name: string,
    credentials: StoredCredentials,
    storeKey: string,
    pair = "",
  ): Promise<StoredAccount> {
    if (!(await this.verifyKey(storeKey)))
      throw fail("Wrong store key: it does not open the existing credential store", "auth");
    const entry: StoredAccount = {
      exchange,
      name,
      keyMask: maskKey(credentials.api),
      envelope: await sealCredentials(credentials, pair, storeKey),
      createdAt: new Date().toISOString(),
    };
    const check = this.data.check ?? (await encryptText(CHECK_TEXT, storeKey));
    this.save({ ...this.data, check, accounts: { ...this.data.accounts, [entryKey(exchange, name)]: entry } });
    return entry;
  }

  settings(exchange: ExchangeId, name: string): AccountSettings {
    return this.data.settings?.[entryKey(exchange, name)] ?? {};
  }

  /** Merges settings of an account (an empty value removes a setting); needs no store key: nothing secret. */
  setSettings(exchange: ExchangeId, name: string, changes: AccountSettings): AccountSettings {
    const key = entryKey(exchange, name);
    const merged: AccountSettings = { ...this.settings(exchange, name), ...changes };
    if (merged.farPricePercent === "") delete merged.farPricePercent;
    const settings = { ...(this.data.settings ?? {}) };
    if (Object.keys(merged).length === 0) delete settings[key];
    else settings[key] = merged;
    this.save({ ...this.data, settings });
    return merged;
  }

  remove(exchange: ExchangeId, name: string): boolean {
    const key = entryKey(exchange, name);
    if (!(key in this.data.accounts)) return false;
    const accounts = { ...this.data.accounts };
    delete accounts[key];
    this.save({ ...this.data, accounts });
    return true;
  }

  async open(entry: StoredAccount, storeKey: string): Promise<StoredCredentials> {
    try {
      return await openCredentials(entry.envelope, storeKey);
    } catch {
      throw fail(
        `Cannot open the stored credentials of ${entry.exchange} account '${entry.name}': wrong store key or corrupted entry`,
        "auth",
      );
    }
  }

  private save(data: StoreData): void {
    try {
      this.conf.store = data as unknown as Record<string, unknown>;
    } catch (error) {
      if (isFsError(error)) throw dirError(dirname(this.conf.path), error, CONFIG_DIR);
      throw error;
    }
    this.data = data;
  }
}

export async function openStore(): Promise<CredentialStore> {
  const cwd = storeDir();
  let conf: Conf<Record<string, unknown>>;
  try {
    mkdirSync(cwd, { recursive: true });
  } catch (error) {
    if (isFsError(error)) throw dirError(cwd, error, CONFIG_DIR);
    throw error;
  }
  try {
    conf = new Conf<Record<string, unknown>>({
      projectName: "spotdesk",
      cwd,
      configName: "accounts",
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (error) {
    if (isFsError(error)) throw dirError(cwd, error, CONFIG_DIR);
    // conf throws on unparsable JSON without touching the file; say which file and stop there.
    const path = storeFile();
    throw fail(
      `The credential store ${path} is corrupt (${(error as Error).message}). Fix or move the file away; it was not changed.`,
    );
  }
  const raw = conf.store as Partial<StoreData>;
  const empty = Object.keys(raw).length === 0;
  const accounts = raw.accounts ?? {};
  const valid =
    empty ||
    (raw.version === 1 &&
      typeof accounts === "object" &&
      (raw.check === undefined || typeof raw.check === "string") &&
      Object.values(accounts).every(isStoredAccount) &&
      (raw.settings === undefined ||
        (typeof raw.settings === "object" && raw.settings !== null && Object.values(raw.settings).every(isSettings))));
  if (!valid)
    throw fail(
      `The credential store ${conf.path} is corrupt (unexpected content). Fix or move the file away; it was not changed.`,
    );
  return new CredentialStore(conf, {
    version: 1,
    accounts,
    ...(raw.check === undefined ? {} : { check: raw.check }),
    ...(raw.settings === undefined ? {} : { settings: raw.settings }),
  });
}

/**
 * The store key: SPOTDESK_STORE_KEY, else a hidden prompt on a terminal (twice when it creates
 * the store). With no terminal and no variable, a clear error and no prompt.
 */
export async function readStoreKey(store: CredentialStore, { creating }: { creating: boolean }): Promise<string> {
  if (verifiedKey !== undefined && (await store.verifyKey(verifiedKey))) return verifiedKey;
  const fromEnv = process.env.SPOTDESK_STORE_KEY;
  let key: string;
  if (fromEnv !== undefined && fromEnv !== "") {
    key = fromEnv;
  } else if (canPrompt()) {
    key = await promptHidden("Store key (16, 24 or 32 characters): ");
    if (creating && !store.hasCheck) {
      const again = await promptHidden("Store key again: ");
      if (again !== key) throw fail("The two store keys differ", "bad-input");
    }
  } else {
    throw fail(
      "The credential store needs its key: set SPOTDESK_STORE_KEY (stdin is not a terminal, so there is no prompt)",
      "auth",
    );
  }
  if (creating && !store.hasCheck) {
    const problem = validateEncryptionKey(key);
    if (problem) throw fail(`Invalid store key: ${problem}`, "bad-input");
  }
  if (!(await store.verifyKey(key))) throw fail("Wrong store key: it does not open the credential store", "auth");
  verifiedKey = key;
  return key;
}

/**
 * The key once verified, kept in memory for the life of the process: the TUI opens other accounts
 * after Ink owns the terminal, where a second prompt could not be shown.
 */
let verifiedKey: string | undefined;
