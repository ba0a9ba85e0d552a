/**
 * The seed's gateway paths as thin relays (docs/decisions.md#d14, docs/exchange-rules.md#calls "Public order-book calls"),
 * for browsers that cannot call the exchange directly:
 *   GET  /api/bitteam/trade/api/orderbooks/{BASE_QUOTE} → {relay.bitteam}/trade/api/orderbooks/{BASE_QUOTE}
 *   POST /api/kucoin/api/v1/bullet-public               → {relay.kucoin}/api/v1/bullet-public
 * Only these two public calls: no other path, no query, no caller header, cookie or body goes
 * upstream (an open relay would let anyone make the server fetch any URL). The upstream answer
 * comes back with its status and its JSON text unchanged; a time-out, a redirect, a non-JSON or an
 * oversized answer is a 600 with the reason.
 */

import type { App } from "../app.js";
import type { RelayOptions } from "../config.js";
import { taskFailed } from "../errors.js";
import { PassThroughJson, type RouteHandlers } from "../http.js";

type Upstream = "bitteam" | "kucoin";

/** docs/exchange-rules.md#calls: "pair with underscore"; letters and digits only, so nothing can leave the path. */
const BITTEAM_PAIR = /^[A-Za-z0-9]{1,32}_[A-Za-z0-9]{1,32}$/;

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RangeError(`larger than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** One upstream call: a fixed method and path on a configured host, nothing of the caller's. */
export async function relayUpstream(
  relay: Required<RelayOptions>,
  upstream: Upstream,
  method: "GET" | "POST",
  path: string,
): Promise<PassThroughJson> {
  const url = `${relay[upstream]}${path}`;
  const host = new URL(url).host;
  const signal = AbortSignal.timeout(relay.timeoutMs);
  let answer: Response;
  let bytes: Buffer;
  try {
    answer = await fetch(url, {
      method,
      headers: {
        accept: "application/json",
        "user-agent": "spotdesk-relay",
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      // kucoin's bullet-public takes no parameters; exchanges/kucoin/feed.ts sends the same "{}"
      ...(method === "POST" ? { body: "{}" } : {}),
      redirect: "manual",
      credentials: "omit",
      signal,
    });
    const declared = Number(answer.headers.get("content-length") ?? 0);
    if (declared > relay.maxBytes) {
      await answer.body?.cancel().catch(() => undefined);
      throw new RangeError(`larger than ${relay.maxBytes} bytes`);
    }
    bytes = await readCapped(answer.body, relay.maxBytes);
  } catch (error) {
    if (signal.aborted)
      throw taskFailed(`The ${upstream} relay got no answer from ${host} within ${relay.timeoutMs} ms`, 504);
    if (error instanceof RangeError)
      throw taskFailed(`The ${upstream} relay refused the answer of ${host}: ${error.message}`, 502);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw taskFailed(
      `The ${upstream} relay could not reach ${host}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      502,
    );
  }
  if (answer.status >= 300 && answer.status < 400) {
    // Following would let the upstream point the server anywhere.
    throw taskFailed(
      `The ${upstream} relay got a redirect (${answer.status}) from ${host} and does not follow it`,
      502,
    );
  }
  const text = bytes.toString("utf8");
  try {
    JSON.parse(text);
  } catch {
    throw taskFailed(
      `The ${upstream} relay got an answer that is not JSON from ${host} (status ${answer.status})`,
      502,
    );
  }
  return new PassThroughJson(answer.status, text);
}

export function gatewayRoutes(app: App) {
  return {
    async relayBitteamBook(ctx) {
      const pair = ctx.params.pair!;
      if (!BITTEAM_PAIR.test(pair)) throw taskFailed(`Invalid pair '${pair.slice(0, 80)}': write it as BASE_QUOTE`);
      return relayUpstream(app.config.relay, "bitteam", "GET", `/trade/api/orderbooks/${pair}`);
    },
    async relayKucoinBullet() {
      return relayUpstream(app.config.relay, "kucoin", "POST", "/api/v1/bullet-public");
    },
  } satisfies RouteHandlers;
}
