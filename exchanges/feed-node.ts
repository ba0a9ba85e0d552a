import { gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import WebSocket from "ws";
import type { Inflate } from "./core/inflate.js";
import type { FetchJson, SnapshotTransport } from "./core/options.js";
import { RestClient } from "./core/rest.js";
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

/**
 * The feeds' REST calls in Node go through the adapters' RestClient (one transport, docs/feeds.md
 * "Snapshots"): the same time-out, gzip, logging and proxy (docs/decisions.md#d12) as orders. One client per
 * host, as a feed calls at most two (kucoin's token and its snapshot share one). An answer that is
 * not 2xx throws the same text as the browser's fetch path.
 */
export const nodeSnapshotTransport: SnapshotTransport = (exchange, options): FetchJson => {
  const clients = new Map<string, RestClient>();
  return async (url, call = {}) => {
    const target = new URL(url);
    let client = clients.get(target.origin);
    if (!client) {
      client = new RestClient(exchange, {
        baseUrl: target.origin,
        timeoutMs: options.timeoutMs,
        ...(options.proxy ? { proxy: options.proxy } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
      clients.set(target.origin, client);
    }
    const response = await client.send({
      method: call.method ?? "GET",
      path: target.pathname,
      query: target.search.slice(1),
      body: call.body ?? "",
      headers: {
        accept: "application/json",
        ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
        ...call.headers,
      },
    });
    if (response.status < 200 || response.status > 299) {
      throw new Error(`HTTP ${response.status} from ${target.pathname}: ${response.text.slice(0, 200)}`);
    }
    return call.text ? response.text : (JSON.parse(response.text) as unknown);
  };
};

/** What a Node caller spreads into FeedOptions: `createFeed(id, pair, { ...nodeFeedOptions(), depth, proxy })`. */
export function nodeFeedOptions(): { connect: WebSocketFactory; inflate: Inflate; transport: SnapshotTransport } {
  return { connect: nodeConnect, inflate: nodeInflate, transport: nodeSnapshotTransport };
}
