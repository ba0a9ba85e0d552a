/**
 * Which compression a binary websocket frame carries, told by its first bytes (docs/feeds.md
 * "Frames"): gzip starts 1f 8b; zlib starts 78 with a header whose two bytes are a multiple of 31;
 * anything else is taken for raw DEFLATE (bitmart's default address), and a frame that does not
 * inflate is read as plain text when it is text. So a venue that starts or stops compressing needs
 * no code of its own.
 */
export type Compression = "gzip" | "deflate" | "deflate-raw";

/** Decompresses one frame of the given format. Node injects zlib (exchanges/feed-node.ts); browsers DecompressionStream. */
export type Inflate = (data: Uint8Array, format: Compression) => Uint8Array | Promise<Uint8Array>;

export function compressionOf(bytes: Uint8Array): Compression {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === undefined || b1 === undefined) return "deflate-raw";
  if (b0 === 0x1f && b1 === 0x8b) return "gzip";
  // RFC 1950: CM = 8 (deflate), CINFO <= 7, and the 16-bit header is a multiple of 31
  if ((b0 & 0x0f) === 8 && b0 >> 4 <= 7 && ((b0 << 8) | b1) % 31 === 0) return "deflate";
  return "deflate-raw";
}

/**
 * The browser's inflate (DecompressionStream: "gzip", "deflate" and "deflate-raw"); undefined
 * where it does not exist. Node injects zlib instead, synchronous, so frames stay in order.
 */
export function browserInflate(): Inflate | undefined {
  const DS = (globalThis as { DecompressionStream?: new (format: string) => TransformStream<Uint8Array, Uint8Array> })
    .DecompressionStream;
  if (!DS) return undefined;
  return async (data, format) => {
    const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DS(format));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  };
}

const PLAIN_TEXT_START = new Set([0x7b, 0x5b, 0x22]); // { [ "

/**
 * Bytes that are already plain text (a venue sending uncompressed JSON in binary frames), or
 * undefined. Only tried after inflating failed: `{` and `[` are also valid first bytes of a
 * raw DEFLATE block, so the compressed reading is tried first.
 */
export function plainText(bytes: Uint8Array): string | undefined {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (i >= bytes.length || !PLAIN_TEXT_START.has(bytes[i]!)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
