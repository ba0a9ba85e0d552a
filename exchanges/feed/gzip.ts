import type { Gunzip } from "./options.js";

/**
 * The browser's gunzip for htx and bingx frames (DecompressionStream); Node injects zlib instead
 * (exchanges/feed-node.ts). Undefined where neither exists.
 */
export function browserGunzip(): Gunzip | undefined {
  const DS = (globalThis as { DecompressionStream?: new (format: string) => TransformStream<Uint8Array, Uint8Array> }).DecompressionStream;
  if (!DS) return undefined;
  return async (data) => {
    const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DS("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  };
}
