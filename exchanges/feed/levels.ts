import { Decimal } from "../../lib/decimal.js";
import type { BookSide, OrderBook } from "../../lib/orderbook.js";
import type { BookLevel } from "../../lib/types.js";

/** A decimal as exchanges write them: digits, an optional fraction, an optional exponent. */
const DECIMAL_RE = /^\d+(\.\d*)?([eE][-+]?\d+)?$|^\.\d+$/;

/** Thrown for a message the feed cannot read; the base logs it and carries on (seed 001 §8). */
export class FeedParseError extends Error {}

/** A bare JSON number that is an element of an array: after `[` or `,`, before `,` or `]`. */
const ARRAY_NUMBER = /([[,]\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=\s*[,\]])/g;

/**
 * Parses JSON whose price levels are written as bare numbers (lbank, htx: `[[0.0252,0.5833]]`)
 * without rounding them through binary floats: every number that is an array element is read as
 * its decimal text. Numbers outside arrays (sequence numbers, timestamps) stay numbers. A string
 * holding `,1` or `[2]` is left alone too: strings are skipped before numbers are looked for.
 */
export function parseJsonKeepingLevels(text: string): unknown {
  let out = "";
  let at = 0;
  // copy strings verbatim, quote array-element numbers in the stretches between them
  const strings = /"(?:[^"\\]|\\.)*"/g;
  for (let m = strings.exec(text); m; m = strings.exec(text)) {
    out += text.slice(at, m.index).replace(ARRAY_NUMBER, '$1"$2"') + m[0];
    at = m.index + m[0].length;
  }
  out += text.slice(at).replace(ARRAY_NUMBER, '$1"$2"');
  return JSON.parse(out);
}

export function decimalText(value: unknown, what: string): string {
  const text =
    typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined || !DECIMAL_RE.test(text)) throw new FeedParseError(`bad ${what}: ${JSON.stringify(value)}`);
  return text;
}

/**
 * Reads a list of [price, amount, ...] rows (extra columns such as order counts are ignored).
 * A small hand parser instead of a schema: this is the hot path of every delta (STYLE.md).
 */
export function parseLevels(raw: unknown, what = "levels"): BookLevel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new FeedParseError(`${what} is not a list`);
  const out: BookLevel[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const row = raw[i] as unknown;
    if (!Array.isArray(row) || row.length < 2) throw new FeedParseError(`${what}[${i}] is not [price, amount]`);
    out[i] = [decimalText(row[0], "price"), decimalText(row[1], "amount")];
  }
  return out;
}

/** Reads a list of {price, amount}-like objects, naming the two fields. */
export function parseLevelObjects(raw: unknown, priceKey: string, amountKey: string, what = "levels"): BookLevel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new FeedParseError(`${what} is not a list`);
  return raw.map((row: unknown, i) => {
    if (typeof row !== "object" || row === null) throw new FeedParseError(`${what}[${i}] is not an object`);
    const r = row as Record<string, unknown>;
    return [decimalText(r[priceKey], "price"), decimalText(r[amountKey], "amount")] as BookLevel;
  });
}

/** Applies changed levels to one side; amount 0 removes the level (seed 001 §4). */
export function applyLevels(book: OrderBook, side: BookSide, levels: readonly BookLevel[]): void {
  for (const [price, amount] of levels) book.applyDelta(side, price, amount);
}

/** The canonical text of a price, as the order-book model keys it. */
export function priceKey(price: string): string {
  return new Decimal(price).toFixed();
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A sequence number that may arrive as a number or a numeric string. */
export function sequence(value: unknown, what: string): number {
  const n = typeof value === "string" && value !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n))
    throw new FeedParseError(`bad ${what}: ${JSON.stringify(value)}`);
  return n;
}

let crcTable: Int32Array | undefined;
/** CRC-32 (IEEE) of a text's UTF-8 bytes as a signed 32-bit integer, the form bitget and okx publish. */
export function crc32Signed(text: string): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  const bytes = new TextEncoder().encode(text);
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) | 0;
}
