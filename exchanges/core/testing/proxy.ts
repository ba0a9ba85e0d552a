import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

/**
 * A loopback tunnelling proxy, as hpagent speaks to one (CONNECT host:port, then the request
 * inside the tunnel): it records each CONNECT and opens the tunnel to `upstream` whatever host was
 * named. A test gives its client a host that does not resolve, so an answer that arrives came
 * through here (a feed's snapshots, the pair list).
 */
export async function tunnellingProxy(
  upstream: () => string,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const tunnels = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const target = new URL(upstream());
    const exchange = connect(Number(target.port), target.hostname, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      exchange.write(head);
      exchange.pipe(client);
      client.pipe(exchange);
    });
    for (const socket of [client, exchange]) {
      tunnels.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => tunnels.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const socket of tunnels) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
