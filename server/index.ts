/**
 * The backend (docs/api.md#backend): `startServer(options)` for code and tests,
 * `serveCommand(options)` for `spotdesk serve`, `grantAdmin(email, dataDir)` for
 * `spotdesk users grant-admin`.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { API_ERROR, type RouteName } from "../lib/api.js";
import { ExchangeError } from "../lib/errors.js";
import type { Logger } from "../lib/log.js";
import { capConnectionsPerAddress, clientAddress } from "./address.js";
import { type App, type BotEvents, memoryLimiter } from "./app.js";
import { SignInGuard } from "./auth/limits.js";
import { dataKeyFile, generateCode, loadOrCreateSecret, sha256Hex, tokenSecretFile } from "./auth/secrets.js";
import { authenticate } from "./auth/session.js";
import { type BotCluster, BotHost, type StopReport } from "./bots/host.js";
import { ClusterBus } from "./cluster/bus.js";
import { BotLeases } from "./cluster/lease.js";
import { redisLimiter } from "./cluster/limits.js";
import { openRedis } from "./cluster/redis.js";
import { type ResolvedConfig, resolveConfig, type ServerOptions } from "./config.js";
import { ApiError } from "./errors.js";
import { type Answered, createRouter, type Handler, routesFromTable } from "./http.js";
import { attachWebsockets, BookRelay, LiveHub } from "./live.js";
import { createJsonLogger } from "./log.js";
import { createSmtpMailer } from "./mail.js";
import { ServerMetrics } from "./metrics.js";
import { type OwnerLock, takeOwnerLock } from "./owner-lock.js";
import { adminRoutes } from "./routes/admin.js";
import { authRoutes, SETUP_CODE_META, setupCodeFile } from "./routes/auth.js";
import { botRoutes } from "./routes/bots.js";
import { clientRoutes } from "./routes/clients.js";
import { gatewayRoutes } from "./routes/gateway.js";
import { opsRoutes } from "./routes/ops.js";
import { publicRoutes } from "./routes/public.js";
import { tradeRoutes } from "./routes/trade.js";
import { createSecurityHook } from "./security-headers.js";
import { createStaticHandler, findWebDist } from "./static.js";
import { openPostgresStorage } from "./storage/postgres.js";
import { openSqliteStorage } from "./storage/sqlite.js";
import type { Storage } from "./storage/types.js";

export type { ServerOptions } from "./config.js";

export interface RunningServer {
  /** http(s)://host:port */
  url: string;
  /** ws(s)://host:port */
  wsUrl: string;
  /**
   * The address a browser should open: the WebAuthn relying party's host (localhost by default)
   * when the server listens on a loopback address, since key login refuses 127.0.0.1 as a domain.
   */
  browserUrl: string;
  port: number;
  host: string;
  dataDir: string;
  /** the one-time first-admin code when the database had no user (also in `setup-code`) */
  setupCode?: string;
  config: ResolvedConfig;
  storage: Storage;
  /** the bot runner (absent with runBots: false) */
  bots?: BotHost;
  /** graceful: stops accepting, finishes requests in flight, cancels the bots' orders, closes sockets and the database */
  close(how?: { keepOrders?: boolean }): Promise<void>;
  /** after close: the bots' orders it could not cancel (docs/bots.md#safety-net) */
  ordersLeftOpen(): StopReport;
}

export const DATABASE_FILE = "spotdesk.sqlite";
export const DEMO_PATH = ["Demo", "paper", "main"] as [string, string, string];
const DEMO_META = "demo_seeded";

/** docs/scale-out.md: PostgreSQL when a database URL is configured, else the embedded SQLite file. */
async function openStorage(dataDir: string, database: string | undefined): Promise<Storage> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (database) return openPostgresStorage(database);
  const file = join(dataDir, DATABASE_FILE);
  // Password hashes and envelopes live here: owner-only, and SQLite gives -wal/-shm the same mode.
  if (!existsSync(file)) writeFileSync(file, "", { mode: 0o600 });
  return openSqliteStorage(file);
}

/** docs/decisions.md#d5/#d18: on an empty database, a one-time setup code in `setup-code` (0600). */
async function prepareSetupCode(storage: Storage, dataDir: string): Promise<string | undefined> {
  if ((await storage.countUsers()) > 0) {
    await storage.setMeta(SETUP_CODE_META, undefined);
    rmSync(setupCodeFile(dataDir), { force: true });
    return undefined;
  }
  const code = generateCode();
  await storage.setMeta(SETUP_CODE_META, sha256Hex(code));
  const file = setupCodeFile(dataDir);
  writeFileSync(file, `${code}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return code;
}

/** A fresh install shows one demo client with a paper account (issue 6 "Clients and accounts"). */
async function seedDemo(storage: Storage, now: number): Promise<void> {
  if (await storage.getMeta(DEMO_META)) return;
  await storage.setApiKey({ path: DEMO_PATH, envelope: { data: "", pair: "BTC/USDT", active: true }, created: now });
  await storage.setMeta(DEMO_META, String(now));
}

/**
 * docs/bots.md#safety-net "One runner per bot": with SQLite the data directory belongs to one
 * serve at a time (a second one would run every bot again); PostgreSQL deployments share their
 * bots through Redis leases instead (docs/scale-out.md).
 */
export const SERVE_LOCK_FILE = "serve.lock";

function lockDataDir(config: ResolvedConfig): OwnerLock | undefined {
  if (config.database) return undefined;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return takeOwnerLock(
    join(config.dataDir, SERVE_LOCK_FILE),
    "spotdesk serve",
    "one spotdesk serve per data directory (it would run every bot a second time); stop that one first, or give another --data",
  );
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const config = resolveConfig(options);
  const lock = lockDataDir(config);
  let running: RunningServer;
  try {
    running = await startLocked(options, config);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const close = running.close;
  return {
    ...running,
    async close(how?: { keepOrders?: boolean }) {
      try {
        await close(how);
      } finally {
        lock?.release();
      }
    },
  };
}

async function startLocked(options: ServerOptions, config: ResolvedConfig): Promise<RunningServer> {
  const logger: Logger = options.logger ?? createJsonLogger({ level: config.logLevel });
  const now = options.now ?? Date.now;
  const storage = await openStorage(config.dataDir, config.database);
  // several processes sign and check each other's access tokens: one secret (docs/scale-out.md)
  const tokenSecret = config.tokenSecret ?? loadOrCreateSecret(tokenSecretFile(config.dataDir));
  const cluster = config.redis ? await openCluster(config.redis, config.botLeaseMs, logger) : undefined;
  if (config.database && !cluster)
    logger.warn(
      "PostgreSQL without --redis: limits, the live channel and the bots stay in this process; run one process only (docs/scale-out.md)",
      {},
    );
  let dataKey: string;
  if (config.dataKey) {
    if (!/^[0-9a-f]{64}$/i.test(config.dataKey))
      throw new Error("SPOTDESK_DATA_KEY must be 64 hex characters (32 bytes)");
    dataKey = config.dataKey.toLowerCase();
  } else {
    dataKey = loadOrCreateSecret(dataKeyFile(config.dataDir));
  }
  if (config.seedDemo) await seedDemo(storage, now());
  const setupCode = await prepareSetupCode(storage, config.dataDir);

  const mailer = config.smtp ? createSmtpMailer(config.smtp) : undefined;

  let boundPort = config.port;
  const tls = Boolean(config.tlsCert);
  let origins: string[] = [];
  let draining = false;
  const app: App = {
    config,
    storage,
    logger,
    now,
    tokenSecret,
    dataKey,
    origins: () => origins,
    limiter: cluster?.limiter ?? memoryLimiter(),
    signIn: new SignInGuard(config.signIn, now, cluster?.limiter ?? memoryLimiter(), logger),
    bots: { changed() {}, removed() {} } as BotEvents,
    sessions: { ended() {}, userRemoved() {} },
    paperDir: config.dataDir,
    secureCookies: tls || config.behindTlsProxy,
    ...(mailer ? { mailer } : {}),
  };
  const hub = new LiveHub(app);
  if (cluster) hub.attachBus(cluster.bus);
  app.bots = hub;
  app.sessions = hub;
  // docs/bots.md: serve runs every stored runnable bot; a created or changed bot reaches the host too
  const botHost = config.runBots ? new BotHost(app, hub, config.botEndpoints, cluster) : undefined;
  if (botHost) {
    app.botRunner = botHost;
    app.bots = {
      changed(botId) {
        hub.changed(botId);
        botHost.changed(botId);
        cluster?.bus.send({ kind: "bot-changed", botId }); // the bot's owner may be another process
      },
      removed: (botId, clients) => hub.removed(botId, clients),
    };
  }
  const relay = new BookRelay(app);
  // docs/operations.md#metrics: this server's own registry (several servers share a test process)
  const sockets = new Map<Duplex, "live" | "book">();
  const metrics = config.metrics.enabled
    ? new ServerMetrics({
        connections: () => countSockets(sockets),
        bots: () => botStatuses(app),
      })
    : undefined;

  // every route of lib/api.ts ROUTES has its handler here: a route without one does not compile
  const handlers: Record<RouteName, Handler> = {
    ...publicRoutes(app, relay),
    ...gatewayRoutes(app),
    ...authRoutes(app),
    ...clientRoutes(app),
    ...adminRoutes(app),
    ...tradeRoutes(app),
    ...botRoutes(app),
    ...opsRoutes(app, { ...(cluster ? { pingRedis: () => cluster.ping() } : {}), ...(metrics ? { metrics } : {}) }),
  };
  const routes = routesFromTable(handlers);
  const corsOrigins = new Set<string>();
  const handle = createRouter(routes, {
    // a 604 of authentication is the per-user call limit (docs/decisions.md#d8), not a sign-in limit
    authenticate: (ctx, route) =>
      authenticate(app, ctx, route).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === API_ERROR.RATE_LIMIT) metrics?.callLimitHit(ctx.req);
        throw error;
      }),
    async limitPublic(ctx) {
      const { calls, windowMs } = app.config.rateLimit;
      await app.limiter.admit(`ip:${ctx.ip}`, calls, windowMs, app.now()).catch((error: unknown) => {
        metrics?.callLimitHit(ctx.req);
        throw error;
      });
    },
    logger,
    corsOrigins,
    draining: () => draining,
    clientAddress: (req) => clientAddress(req, config.behindTlsProxy),
    ...(metrics ? { observe: (answered: Answered) => metrics.observe(answered) } : {}),
  });

  // The built dashboard (web/dist) beside the API; API calls fall through to the router.
  const serveWeb = createStaticHandler(findWebDist());
  // Issue 23: the security headers of every answer (server/security-headers.ts)
  const secure = createSecurityHook({ hsts: tls || config.behindTlsProxy });
  const onRequest = (req: Parameters<typeof handle>[0], res: Parameters<typeof handle>[1]) => {
    secure(res);
    if (serveWeb(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      // the router answers every failure itself; this is the last guard of the process
      logger.error("request failed outside the router", { error: String(error) });
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  const server: Server = tls
    ? createHttpsServer({ cert: readFileSync(config.tlsCert!), key: readFileSync(config.tlsKey!) }, onRequest)
    : createHttpServer(onRequest);
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  if (!config.behindTlsProxy) capConnectionsPerAddress(server, config.http.connectionsPerAddress);
  const { wss, onUpgrade } = attachWebsockets(app, hub, relay, () => draining);
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // counted until the socket closes: a refused upgrade closes at once (docs/operations.md#metrics)
    sockets.set(socket, req.url?.split("?")[0] === "/book" ? "book" : "live");
    socket.once("close", () => sockets.delete(socket));
    onUpgrade(req, socket, head);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // a port in use: the connections opened above must not keep the process alive
    relay.close();
    hub.close();
    metrics?.close();
    await cluster?.close();
    await storage.close();
    throw error;
  }
  boundPort = (server.address() as AddressInfo).port;
  const scheme = tls || config.behindTlsProxy ? "https" : "http";
  origins =
    config.origins ??
    [boundPort, 5173].flatMap((p) => [
      `${scheme}://localhost:${p}`,
      `${scheme}://127.0.0.1:${p}`,
      `http://localhost:${p}`,
    ]);
  origins = [...new Set(origins)];
  for (const o of origins) corsOrigins.add(o);
  const hostForUrl = config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = `${tls ? "https" : "http"}://${hostForUrl}:${boundPort}`;
  const loopback = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(config.host);
  const browserHost = loopback || config.rpId !== "localhost" ? config.rpId : hostForUrl;
  // behind a TLS proxy the browser talks to the proxy's own port
  const browserUrl = config.behindTlsProxy ? `https://${browserHost}` : `${scheme}://${browserHost}:${boundPort}`;
  logger.info("server listening", {
    url,
    dataDir: config.dataDir,
    storage: storage.kind,
    mail: mailer?.describe ?? "outbox.jsonl",
  });

  // docs/decisions.md#d25, docs/bots.md: every stored runnable bot resumes from its state and reconciles
  await botHost?.startAll().catch((error: unknown) => logger.error("bots did not start", { error: String(error) }));

  let closing: Promise<void> | undefined;
  let stopReport: StopReport = { orders: [], problems: [] };
  const close = (how?: { keepOrders?: boolean }) => {
    closing ??= (async () => {
      draining = true;
      // docs/bots.md#safety-net: the bots' orders are cancelled unless kept for a quick restart
      if (botHost) stopReport = await botHost.close({ keepOrders: how?.keepOrders ?? config.keepOrders });
      hub.close();
      relay.close();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests in flight get 10 s to finish; then the rest is cut.
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      });
      mailer?.close();
      metrics?.close();
      await cluster?.close();
      await storage.close();
      logger.info("server stopped", {});
    })();
    return closing;
  };

  return {
    url,
    wsUrl: url.replace(/^http/, "ws"),
    browserUrl,
    port: boundPort,
    host: config.host,
    dataDir: config.dataDir,
    ...(setupCode ? { setupCode } : {}),
    config,
    storage,
    ...(botHost ? { bots: botHost } : {}),
    close,
    ordersLeftOpen: () => stopReport,
  };
}

/** Open upgraded sockets by channel. */
function countSockets(sockets: ReadonlyMap<Duplex, "live" | "book">): Record<"live" | "book", number> {
  const out = { live: 0, book: 0 };
  for (const channel of sockets.values()) out[channel]++;
  return out;
}

/** Every stored bot's type and status: the runner's latest for a running one, else its stored state's. */
async function botStatuses(app: App): Promise<{ type: string; status: string }[]> {
  // storage that does not answer leaves the family empty; /health/ready says why
  const bots = await app.storage.listBots().catch(() => []);
  return bots.map((bot) => {
    const latest = app.botRunner?.latest(bot.id)?.status ?? bot.state.status;
    return { type: bot.botType, status: typeof latest === "string" ? latest : "not run" };
  });
}

/** The Redis side of a scale-out deployment (docs/scale-out.md): bus, shared limits, bot leases. */
async function openCluster(
  url: string,
  leaseMs: number,
  logger: Logger,
): Promise<
  BotCluster & { limiter: ReturnType<typeof redisLimiter>; ping(): Promise<unknown>; close(): Promise<void> }
> {
  const publisher = await openRedis(url, logger, "commands");
  let subscriber: Awaited<ReturnType<typeof openRedis>>;
  try {
    subscriber = await openRedis(url, logger, "subscriber");
  } catch (error) {
    publisher.disconnect();
    throw error;
  }
  const bus = new ClusterBus(publisher, subscriber, logger);
  await bus.start();
  return {
    bus,
    leases: new BotLeases(publisher, bus.instanceId, leaseMs),
    limiter: redisLimiter(publisher, logger),
    // docs/operations.md#readiness: both connections, since the bus needs the subscriber too
    ping: () =>
      Promise.all([
        publisher.ping(),
        subscriber.status === "ready" ? undefined : Promise.reject(new Error(`subscriber ${subscriber.status}`)),
      ]),
    async close() {
      bus.close();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}

/** Options of `spotdesk serve [--port N] [--data DIR] [--host H] [--tls-cert F --tls-key F | --behind-tls-proxy] [--config F]`. */
export interface ServeCommandOptions {
  port?: number | string;
  data?: string;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy?: boolean;
  config?: string;
  /** docs/scale-out.md: postgres://… instead of the embedded SQLite file */
  database?: string;
  /** docs/scale-out.md: redis://… to share live deltas, limits and bot leases between processes */
  redis?: string;
  /** docs/bots.md#safety-net: a clean stop leaves the bots' orders resting */
  keepOrders?: boolean;
}

/**
 * `spotdesk serve`: starts the server, prints the one-time setup code when the database is
 * empty, and stops gracefully on SIGINT/SIGTERM. Resolves when the server has stopped.
 */
export async function serveCommand(options: ServeCommandOptions = {}): Promise<void> {
  const port = options.port === undefined ? undefined : Number(options.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`Invalid --port '${String(options.port)}'`);
  const running = await startServer({
    ...(port !== undefined ? { port } : {}),
    ...(options.data ? { dataDir: options.data } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(options.tlsCert ? { tlsCert: options.tlsCert } : {}),
    ...(options.tlsKey ? { tlsKey: options.tlsKey } : {}),
    ...(options.behindTlsProxy ? { behindTlsProxy: true } : {}),
    ...(options.config ? { configFile: options.config } : {}),
    ...(options.database ? { database: options.database } : {}),
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.keepOrders ? { keepOrders: true } : {}),
  });
  // the handlers come first: a signal right after the address is printed still stops cleanly
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void running.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  process.stderr.write(`spotdesk server on ${running.url} (data: ${running.dataDir})\n`);
  process.stderr.write(`Open ${running.browserUrl} in the browser (the address key login works on)\n`);
  if (running.setupCode) {
    // docs/decisions.md#d5/#d18: printed once; the same code is in <data>/setup-code (mode 0600).
    process.stderr.write(
      `First start: register the first admin with setup code ${running.setupCode}\n` +
        `  (POST /register with headers email, password, code; kept in ${setupCodeFile(running.dataDir)})\n`,
    );
  }
  await stopped;
  const left = running.ordersLeftOpen();
  if (left.problems.length > 0)
    // docs/bots.md#safety-net: named on stderr (and in the log), and serve exits non-zero
    throw new ExchangeError(
      "spotdesk",
      `serve stopped, but not every bot order could be cancelled: ${left.problems.join("; ")}`,
      { kind: "network" },
    );
}

/**
 * `spotdesk users grant-admin EMAIL --data DIR` (docs/decisions.md#d5): makes an existing user an admin,
 * or permits a new e-mail as an admin with scope all. Returns the user's uuid.
 */
export async function grantAdmin(
  email: string,
  dataDir?: string,
  database?: string,
): Promise<{ uuid: string; created: boolean }> {
  const config = resolveConfig({ ...(dataDir ? { dataDir } : {}), ...(database ? { database } : {}) });
  const storage = await openStorage(config.dataDir, config.database);
  try {
    const normalized = email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized)) throw new Error(`Invalid e-mail '${email}'`);
    const user = await storage.getUserByEmail(normalized);
    if (user) {
      await storage.updateUser(user.id, { admin: true, scope: "all" });
      return { uuid: user.id, created: false };
    }
    const id = randomUUID();
    await storage.createUser({
      id,
      email: normalized,
      passwordHash: null,
      admin: true,
      scope: "all",
      lastActive: null,
      created: Date.now(),
    });
    return { uuid: id, created: true };
  } finally {
    await storage.close();
  }
}
