import { gunzipSync } from "node:zlib";
import WebSocket from "ws";
import type { Gunzip } from "./feed/options.js";
import type { WebSocketFactory, WebSocketLike } from "./types.js";

/** Node's websocket for the feeds: `ws`, whose event handlers already match WebSocketLike. */
export const nodeConnect: WebSocketFactory = (url) => {
  const socket = new WebSocket(url, { handshakeTimeout: 10_000 });
  // ws emits 'error' events; an unhandled one would crash the process, so the feed's onerror
  // (set right after) is the only reporter and the listener below just keeps Node calm.
  socket.on("error", () => {});
  return socket as unknown as WebSocketLike;
};

/** htx and bingx frames are gzip; synchronous zlib keeps the frames in order at no cost. */
export const nodeGunzip: Gunzip = (data) => gunzipSync(data);

/** What a Node caller spreads into FeedOptions: `createFeed(id, pair, { ...nodeFeedOptions(), depth })`. */
export function nodeFeedOptions(): { connect: WebSocketFactory; gunzip: Gunzip } {
  return { connect: nodeConnect, gunzip: nodeGunzip };
}
