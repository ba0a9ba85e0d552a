/**
 * The saved encryption key (docs/dashboard-rules.md#entities "panel_state", docs/decisions.md#d17): the key is turned into a
 * hex payload, XORed with a random mask of the same length, and both are kept split into three
 * pieces (32+16+16 characters for a 64-hex-character secret) under the `panel_state` key.
 * This only keeps the key from sitting in clear text in local storage; it is obfuscation, not
 * protection. Isomorphic.
 */

export const PANEL_STATE_KEY = "panel_state";
export const HEX_LENGTH_ERROR = "Hex strings must be the same length";

/** docs/dashboard-rules.md#entities: two hex strings XORed must have equal length. */
export function xorHex(a: string, b: string): string {
  if (a.length !== b.length) throw new Error(HEX_LENGTH_ERROR);
  let out = "";
  for (let i = 0; i < a.length; i++) {
    const x = Number.parseInt(a[i] as string, 16);
    const y = Number.parseInt(b[i] as string, 16);
    if (Number.isNaN(x) || Number.isNaN(y)) throw new Error("Invalid hex string");
    out += (x ^ y).toString(16);
  }
  return out;
}

/** Splits a hex string at 1/2 and 3/4 of its length: 64 → 32+16+16 (docs/dashboard-rules.md#entities). */
export function splitPieces(hex: string): [string, string, string] {
  const half = Math.floor(hex.length / 2);
  const threeQuarters = half + Math.floor((hex.length - half) / 2);
  return [hex.slice(0, half), hex.slice(half, threeQuarters), hex.slice(threeQuarters)];
}

export interface PanelState {
  /** the XORed secret, in three pieces */
  k: [string, string, string];
  /** the mask, in three pieces */
  m: [string, string, string];
  /** "g": a generated key kept as its own hex; "e": an entered key kept as UTF-8 hex */
  t: "g" | "e";
}

const utf8Hex = (text: string): string =>
  Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("");
const hexUtf8 = (hex: string): string =>
  new TextDecoder().decode(Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16)));

function randomHex(length: number): string {
  // Stryker disable next-line ArithmeticOperator: more bytes than needed are cut by the slice below
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  // Stryker disable next-line MethodExpression: the slice only matters for an odd length; payloads are whole bytes
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, length);
}

/** Encodes an encryption key as the stored panel_state text. `mask` is for tests. */
export function encodePanelState(key: string, mask?: string): string {
  const generated = /^[0-9a-f]{64}$/.test(key);
  const payload = generated ? key : utf8Hex(key);
  const secret = xorHex(payload, mask ?? randomHex(payload.length));
  const state: PanelState = {
    k: splitPieces(secret),
    m: splitPieces(mask ?? xorHex(secret, payload)),
    t: generated ? "g" : "e",
  };
  return JSON.stringify(state);
}

/** Decodes panel_state back to the encryption key; undefined when absent or malformed. */
export function decodePanelState(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const state = JSON.parse(text) as PanelState;
    if (!Array.isArray(state.k) || !Array.isArray(state.m)) return undefined;
    if (state.k.length !== 3 || state.m.length !== 3) return undefined;
    const payload = xorHex(state.k.join(""), state.m.join(""));
    return state.t === "g" ? payload : hexUtf8(payload);
  } /* Stryker disable next-line BlockStatement: emptied, it returns undefined all the same */ catch {
    return undefined;
  }
}
