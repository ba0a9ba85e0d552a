import { Decimal } from "../../lib/decimal.js";
import type { BookSide, OrderBook } from "../../lib/orderbook.js";
import type { BookLevel } from "../../lib/types.js";

/** A decimal as exchanges write them: digits, an optional fraction, an optional exponent. */
const DECIMAL_RE = /^\d+(\.\d*)?([eE][-+]?\d+)?$|^\.\d+$/;

/** Thrown for a message the feed cannot read; the base logs it and carries on (docs/exchange-rules.md#errors). */
export class FeedParseError extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;

function isNumberChar(c: number): boolean {
  // digits, minus, plus, dot, e, E
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/**
 * Parses JSON whose price levels are written as bare numbers (lbank, htx: `[[0.0252,0.5833]]`)
 * without rounding them through binary floats: every number that is an array element (after `[`
 * or `,` inside an array) is read as its decimal text. Numbers that are object values (sequence
 * numbers, timestamps) stay numbers, and strings are left as they are, even one holding `,1]`.
 * A hand scanner: this runs on every lbank and htx frame (a hot path).
 */
export function parseJsonKeepingLevels(text: string): unknown {
  let out = "";
  let copied = 0;
  // one flag per open bracket or brace: true inside an array
  const inArray: boolean[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      continue;
    }
    if (c === OPEN_BRACKET) inArray.push(true);
    else if (c === 0x7b) inArray.push(false);
    else if (c === 0x5d || c === 0x7d) inArray.pop();
    if ((c !== OPEN_BRACKET && c !== COMMA) || !inArray[inArray.length - 1]) continue;
    let start = i + 1;
    while (start < text.length && text.charCodeAt(start) <= 0x20) start++;
    let end = start;
    while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
    if (end === start) continue;
    out += `${text.slice(copied, start)}"${text.slice(start, end)}"`;
    copied = end;
    i = end - 1;
  }
  return JSON.parse(copied === 0 ? text : out + text.slice(copied));
}

export function decimalText(value: unknown, what: string): string {
  const text =
    typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined || !DECIMAL_RE.test(text)) throw new FeedParseError(`bad ${what}: ${JSON.stringify(value)}`);
  return text;
}

/**
 * Reads a list of [price, amount, ...] rows (extra columns such as order counts are ignored).
 * A small hand parser instead of a schema: this is the hot path of every delta.
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

/** Applies changed levels to one side; amount 0 removes the level (docs/exchange-rules.md#states). */
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
