/**
 * The caller's address, the key of every per-address limit (docs/server-limits.md).
 *
 * Without a proxy it is the socket's peer. With `--behind-tls-proxy` every connection comes from
 * the proxy, so the address is the last entry of `X-Forwarded-For`: the one the proxy itself
 * appended (earlier entries are whatever the client sent and can be forged). Without the flag the
 * header is ignored, so nobody can pick their own address by sending it.
 *
 * IPv6 callers are keyed by their /64 network: one host usually holds a whole /64, and keying by
 * full address would give it 2^64 fresh budgets.
 */
import type { IncomingMessage } from "node:http";
import { isIP, type Server, type Socket } from "node:net";

export function normalizeAddress(raw: string): string {
  let address = raw.trim();
  if (address.startsWith("[") && address.includes("]")) address = address.slice(1, address.indexOf("]"));
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) === 6) return `${ipv6Prefix64(address)}::/64`;
  return address;
}

/** The first four groups of an IPv6 address, with `::` expanded. */
function ipv6Prefix64(address: string): string {
  const [head = "", tail] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // an embedded IPv4 tail counts as two groups; it never reaches the first four
  const rightGroups = right.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - rightGroups)).fill("0"), ...right];
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":");
}

export function clientAddress(req: IncomingMessage, behindTlsProxy: boolean): string {
  if (behindTlsProxy) {
    const header = req.headers["x-forwarded-for"];
    const text = Array.isArray(header) ? header[header.length - 1] : header;
    const last = text?.split(",").pop()?.trim();
    if (last && isIP(normalizeForCheck(last))) return normalizeAddress(last);
  }
  // a connection's peer never changes: worked out once per socket, not once per request
  let peer = peers.get(req.socket);
  if (peer === undefined) {
    peer = normalizeAddress(req.socket.remoteAddress ?? "unknown");
    if (req.socket.remoteAddress !== undefined) peers.set(req.socket, peer);
  }
  return peer;
}

const peers = new WeakMap<object, string>();

function normalizeForCheck(text: string): string {
  return text.startsWith("[") && text.includes("]") ? text.slice(1, text.indexOf("]")) : text.replace(/%.*$/, "");
}

/**
 * Caps the open TCP connections of each peer address (docs/server-limits.md "Connections"):
 * counted from accept to close, idle keep-alive and upgraded websockets included. A connection
 * over the cap is closed at once, before a byte of it is read, so refusing it costs nothing.
 * The peer is the TCP one: behind a TLS proxy, where every connection is the proxy's, the caller
 * does not apply it (the proxy limits its own callers).
 */
export function capConnectionsPerAddress(server: Server, limit: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = normalizeAddress(socket.remoteAddress ?? "unknown");
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
