/**
 * The rows of the backend's tables as the two storages read them, and their records: one shape for
 * SQLite (server/storage/sqlite.ts) and PostgreSQL (server/storage/postgres.ts), whose only
 * difference is how a flag comes back (0/1 or a boolean).
 */
import type { AccountPath, Scope } from "../../lib/api.js";
import type {
  ApiKeyRecord,
  BotFillRecord,
  BotRecord,
  EmailCodeRecord,
  SessionRecord,
  TokenPairRecord,
  UserRecord,
  WebAuthnCredentialRecord,
} from "./types.js";

export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  /** 0/1 in SQLite, a boolean in PostgreSQL */
  admin: number | boolean;
  scope: string;
  last_active: number | null;
  created: number;
}
export interface CredentialRow {
  id: string;
  user_id: string;
  public_key: Buffer;
  counter: number;
  last_ts: number;
  created: number;
}
export interface CodeRow {
  id: number;
  email: string;
  address: string;
  code_hash: string;
  expires: number;
  attempts: number;
  /** 0/1 in SQLite, a boolean in PostgreSQL */
  used: number | boolean;
  created: number;
}
export interface SessionRow {
  id: string;
  user_id: string;
  refresh_hash: string;
  previous_hash: string | null;
  expires: number;
  created: number;
  rotated: number | null;
}
export interface ApiKeyRow {
  path: string;
  envelope: string;
  created: number;
}
export interface PairRow {
  exchange: string;
  pair: string;
  price_decimals: number;
  amount_decimals: number;
}
export interface BotRow {
  id: string;
  bot_type: string;
  path: string;
  paths: string;
  setup: string;
  credentials: string | null;
  state: string;
  created: number;
}

export const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  admin: Boolean(r.admin),
  scope: JSON.parse(r.scope) as Scope,
  lastActive: r.last_active,
  created: r.created,
});
export const toCredential = (r: CredentialRow): WebAuthnCredentialRecord => ({
  id: r.id,
  userId: r.user_id,
  publicKey: new Uint8Array(r.public_key),
  counter: r.counter,
  lastTimestamp: r.last_ts,
  created: r.created,
});
export const toCode = (r: CodeRow): EmailCodeRecord => ({
  id: r.id,
  email: r.email,
  address: r.address,
  codeHash: r.code_hash,
  expires: r.expires,
  attempts: r.attempts,
  used: Boolean(r.used),
  created: r.created,
});
export const toSession = (r: SessionRow): SessionRecord => ({
  id: r.id,
  userId: r.user_id,
  refreshHash: r.refresh_hash,
  previousHash: r.previous_hash,
  expires: r.expires,
  created: r.created,
  rotated: r.rotated,
});
export const toApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  path: JSON.parse(r.path) as AccountPath,
  envelope: JSON.parse(r.envelope) as ApiKeyRecord["envelope"],
  created: r.created,
});
export const toPair = (r: PairRow): TokenPairRecord => ({
  exchangeId: r.exchange,
  pair: r.pair,
  priceDecimals: r.price_decimals,
  amountDecimals: r.amount_decimals,
});
export const toBot = (r: BotRow): BotRecord => ({
  id: r.id,
  botType: r.bot_type,
  path: JSON.parse(r.path) as AccountPath,
  paths: JSON.parse(r.paths) as AccountPath[],
  setup: JSON.parse(r.setup) as unknown,
  wrappedCredentials: r.credentials,
  state: JSON.parse(r.state) as Record<string, unknown>,
  created: r.created,
});

/** docs/bots.md "What each bot did": a bot_fills row */
export interface BotFillRow {
  id: number | string;
  bot_id: string;
  at: number | string;
  order_id: string;
  side: string;
  price: string;
  amount: string;
  fee: string;
  fee_currency: string;
  liquidity: string;
}

export const toBotFill = (r: BotFillRow): BotFillRecord => ({
  seq: Number(r.id),
  at: Number(r.at),
  orderId: r.order_id,
  side: r.side === "Sell" ? "Sell" : "Buy",
  price: r.price,
  amount: r.amount,
  fee: r.fee,
  feeCurrency: r.fee_currency,
  liquidity: r.liquidity === "taker" ? "taker" : "maker",
});
