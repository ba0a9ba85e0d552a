import { gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import WebSocket from "ws";
import type { Inflate } from "./core/inflate.js";
import type { WebSocketFactory, WebSocketLike } from "./types.js";

/** Node's websocket for the feeds: `ws`, whose event handlers already match WebSocketLike. */
export const nodeConnect: WebSocketFactory = (url) => {
  const socket = new WebSocket(url, { handshakeTimeout: 10_000 });
  // ws emits 'error' events; an unhandled one would crash the process, so the feed's onerror
  // (set right after) is the only reporter and the listener below just keeps Node calm.
  socket.on("error", () => {});
  return socket as unknown as WebSocketLike;
};

/**
 * Binary frames (gzip: htx, bingx, bitrue; raw deflate: bitmart; docs/feeds.md "Frames"):
 * synchronous zlib keeps the frames in order at no cost. A bomb is cut at 64 MiB.
 */
export const nodeInflate: Inflate = (data, format) => {
  const options = { maxOutputLength: 64 * 1024 * 1024 };
  if (format === "gzip") return gunzipSync(data, options);
  if (format === "deflate") return inflateSync(data, options);
  return inflateRawSync(data, options);
};

/** What a Node caller spreads into FeedOptions: `createFeed(id, pair, { ...nodeFeedOptions(), depth })`. */
export function nodeFeedOptions(): { connect: WebSocketFactory; inflate: Inflate } {
  return { connect: nodeConnect, inflate: nodeInflate };
}
