/**
 * Fixed AES-256-GCM envelope vectors (docs/dashboard-rules.md#entities, #constants; docs/decisions.md#d3). The web, the CLI and the
 * server can import these to check they read and write the same envelopes:
 * AES key = SHA-256(UTF-8 text of `key`), `data` = IV hex then ciphertext-with-tag hex.
 * Computed once with node:crypto; test/lib/envelope.test.ts recomputes them independently.
 */
export interface EnvelopeVector {
  /** the encryption key as typed (16, 24 or 32 characters) or generated (64 hex characters) */
  key: string;
  /** SHA-256 of the key's UTF-8 text: the raw AES-256 key */
  aesKeyHex: string;
  /** 12-byte IV in hex */
  iv: string;
  plain: string;
  /** the envelope's `data` */
  data: string;
}

export const ENVELOPE_VECTORS: readonly EnvelopeVector[] = [
  {
    key: "0123456789abcdef",
    aesKeyHex: "9f9f5111f7b27a781f1f1ddde5ebc2dd2b796bfc7365c9c28b548e564176929f",
    iv: "000102030405060708090a0b",
    plain: "hello",
    data: "000102030405060708090a0b1304262e0838eda22a6a4504e4747b9620eaa043fc",
  },
  {
    // the body sealCredentials writes for {api: "k-123", secret: "s-456"}
    key: "spotdesk-key-24-chars-ab",
    aesKeyHex: "cf9667cc9a7a0c9c89164f805e80503c8342f14c1c5bfa379030eb0236a7119a",
    iv: "a1b2c3d4e5f60718293a4b5c",
    plain: '{"api":"k-123","secret":"s-456","password":""}',
    data: "a1b2c3d4e5f60718293a4b5cced0e57bd2f7bad8986bbc18ae3f4ac38518a362608d38c818f96ee0340a761148e6c240c53aa57d8f59dd53fddf838ac6ea64b40a1a0323c172a0d83185",
  },
  {
    key: "0123456789abcdef0123456789abcdef",
    aesKeyHex: "3eb1bd439947eb762998e566ccc2e099c791118b2f40579cc4f7da2b5061b7f9",
    iv: "ffffffffffffffffffffffff",
    plain: "",
    data: "ffffffffffffffffffffffffac33129ce48f403775c5758b914cafae",
  },
  {
    // a generated key: its 64 hex characters are hashed as text, not decoded as bytes (docs/decisions.md#d3)
    key: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    aesKeyHex: "7b3d979ca8330a94fa7e9e1b466d8b99e0bcdea1ec90596c0dcc8d7ef6b4300c",
    iv: "0c0c0c0c0c0c0c0c0c0c0c0c",
    plain: "Ünïcödé ✓ 30123.45",
    data: "0c0c0c0c0c0c0c0c0c0c0c0cf68982a6e7d8348e7c1d9c9e03663c95fea0de9097834fb28467f7be7853afd73d1488ac043a57ad",
  },
];
