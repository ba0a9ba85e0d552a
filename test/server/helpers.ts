/**
 * Test harness of the backend: a real server on an ephemeral port with a real SQLite file in a
 * temporary data directory, a fetch wrapper, the outbox reader, and a software WebAuthn
 * authenticator (ES256 with node:crypto) that produces real attestation and assertion structures.
 */
import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { afterAll } from "vitest";
import WebSocket from "ws";
import { enrollChallengeText, loginChallengeText, type SessionAnswer } from "../../lib/api.js";
import { type RunningServer, type ServerOptions, startServer } from "../../server/index.js";
import { createJsonLogger } from "../../server/log.js";
import { type PostgresService, servicesMissing, startPostgres } from "./services.js";

/**
 * `SPOTDESK_TEST_STORAGE=postgres` runs the server suites on PostgreSQL instead of SQLite
 * (docs/scale-out.md "Tests"): one postgres per test file, a fresh database per server.
 */
const onPostgres = process.env.SPOTDESK_TEST_STORAGE === "postgres";
/** why a suite about the SQLite file itself does not run on PostgreSQL, or undefined on SQLite */
export const SQLITE_ONLY = onPostgres
  ? "skipped: reads the SQLite file, and SPOTDESK_TEST_STORAGE=postgres (storage.test.ts covers PostgreSQL)"
  : undefined;
let postgres: Promise<PostgresService> | undefined;
if (onPostgres) {
  if (servicesMissing({ postgres: true })) throw new Error("SPOTDESK_TEST_STORAGE=postgres needs PostgreSQL");
  afterAll(async () => {
    await (await postgres)?.stop();
  });
}
async function freshDatabase(): Promise<string | undefined> {
  if (!onPostgres) return undefined;
  postgres ??= startPostgres();
  return (await postgres).createDatabase();
}

export interface Clock {
  now: number;
}

export interface TestServer extends RunningServer {
  clock: Clock;
  logs: string[];
  restart(extra?: Partial<ServerOptions>): Promise<TestServer>;
  cleanup(): Promise<void>;
}

export async function startTestServer(
  options: Partial<ServerOptions> = {},
  reuse?: { dataDir: string; clock: Clock; logs: string[]; database?: string },
): Promise<TestServer> {
  const dataDir = reuse?.dataDir ?? mkdtempSync(join(tmpdir(), "spotdesk-server-"));
  const database = reuse ? reuse.database : await freshDatabase();
  const clock = reuse?.clock ?? { now: Date.now() };
  const logs = reuse?.logs ?? [];
  const running = await startServer({
    port: 0,
    dataDir,
    scryptCost: 2 ** 12,
    // bots trade only in the suites that ask for it (test/bots/serve.test.ts): deltas stay predictable
    runBots: false,
    now: () => clock.now,
    logger: createJsonLogger({ level: "debug", write: (line) => logs.push(line), now: () => clock.now }),
    ...(database ? { database } : {}),
    ...options,
  });
  const server: TestServer = Object.assign(running, {
    clock,
    logs,
    /** `keepOrders` here keeps the bots' orders across the restart (docs/bots.md#safety-net) */
    async restart(extra: Partial<ServerOptions> = {}) {
      await running.close(extra.keepOrders ? { keepOrders: true } : undefined);
      return startTestServer({ ...options, ...extra }, { dataDir, clock, logs, ...(database ? { database } : {}) });
    },
    async cleanup() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  return server;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** raw body text (for invalid JSON and huge bodies) */
  raw?: string;
  token?: string;
  cookie?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, each test asserts the fields it needs
export interface CallResult<T = any> {
  status: number;
  body: T;
  setCookie: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, each test asserts the fields it needs
export async function call<T = any>(
  server: { url: string },
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(server.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, setCookie: res.headers.get("set-cookie") };
}

/** The `name=value` part of a Set-Cookie header, to send back. */
export function cookieOf(setCookie: string | null): string {
  if (!setCookie) throw new Error("no Set-Cookie");
  return setCookie.split(";")[0]!;
}

/** The newest code sent to `email` (docs/decisions.md#d18 outbox.jsonl). */
export function outboxCode(dataDir: string, email: string): string {
  const lines = readFileSync(join(dataDir, "outbox.jsonl"), "utf8").trim().split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = JSON.parse(lines[i]!) as { to: string; code: string };
    if (m.to === email) return m.code;
  }
  throw new Error(`no code for ${email}`);
}

export const PASSWORD = "correct horse battery";

export interface SignedIn {
  session: SessionAnswer;
  cookie: string;
  email: string;
}

/** docs/decisions.md#d5: the account registered with the setup code becomes the first admin. */
export async function registerFirstAdmin(server: TestServer, email = "admin@example.com"): Promise<SignedIn> {
  const res = await call<SessionAnswer>(server, "POST", "/register", {
    headers: { email, password: PASSWORD, code: server.setupCode! },
  });
  if (res.status !== 200) throw new Error(`first admin: ${res.status} ${JSON.stringify(res.body)}`);
  return { session: res.body, cookie: cookieOf(res.setCookie), email };
}

/** Admin permits the e-mail, the user asks for a code and registers with it. */
export async function permitAndRegister(
  server: TestServer,
  admin: SignedIn,
  email: string,
  scope: "all" | string[],
): Promise<SignedIn> {
  const permit = await call(server, "POST", "/token/admin/user", {
    token: admin.session.accessToken,
    body: { userId: email, scope },
  });
  if (permit.status !== 200) throw new Error(`permit: ${JSON.stringify(permit.body)}`);
  await call(server, "POST", "/code", { headers: { email } });
  const code = outboxCode(server.dataDir, email);
  const res = await call<SessionAnswer>(server, "POST", "/register", { headers: { email, password: PASSWORD, code } });
  if (res.status !== 200) throw new Error(`register: ${JSON.stringify(res.body)}`);
  return { session: res.body, cookie: cookieOf(res.setCookie), email };
}

const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** A platform authenticator in software: ES256 (-7), user present and verified, counter. */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;

  constructor(
    readonly origin: string,
    readonly rpId = "localhost",
  ) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  private authData(flags: number, attested?: Uint8Array): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challengeText: string): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge: b64u(sha256(challengeText)), origin: this.origin, crossOrigin: false }),
    );
  }

  /** Headers of a key created during registration or a password login (lib/api.ts enrollChallengeText). */
  create(email: string, code: string): Record<string, string> {
    const jwk = this.publicKey.export({ format: "jwk" });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty EC2
      [3, -7], // alg ES256
      [-1, 1], // crv P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([
      Buffer.alloc(16),
      idLen,
      this.credentialId,
      Buffer.from(isoCBOR.encode(cose as never)),
    ]);
    const authData = this.authData(0x45, attested); // UP | UV | AT
    const attestation = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as never,
    );
    return {
      "public-key": b64u(attestation),
      "credentials-id": this.id,
      "client-data": b64u(this.clientData("webauthn.create", enrollChallengeText(email, code))),
    };
  }

  /** Headers of a key login over timestamp, method and path (lib/api.ts loginChallengeText). */
  sign(email: string, timestamp: number, method = "POST", path = "/login/signature"): Record<string, string> {
    this.counter++;
    const authData = this.authData(0x05); // UP | UV
    const clientData = this.clientData("webauthn.get", loginChallengeText(timestamp, method, path));
    const signer = createSign("SHA256");
    signer.update(Buffer.concat([authData, sha256(clientData)]));
    return {
      email,
      "client-data": b64u(clientData),
      "authenticator-data": b64u(authData),
      "credentials-id": this.id,
      signature: b64u(signer.sign(this.privateKey)),
      timestamp: String(timestamp),
    };
  }
}

export interface LiveClient {
  ws: WebSocket;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, each test asserts the fields it needs
  messages: any[];
  /** the next `count` messages not read yet (waits up to 5 s) */
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, each test asserts the fields it needs
  next(count?: number): Promise<any[]>;
  /** resolves with the close code and reason when the server (or anyone) closes the socket */
  closed: Promise<{ code: number; reason: string }>;
}

/** A live-channel client (docs/dashboard-rules.md#states) that records every message in order. */
export async function openLive(url: string): Promise<LiveClient> {
  const ws = new WebSocket(url);
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, each test asserts the fields it needs
  const messages: any[] = [];
  let waiter: (() => void) | undefined;
  ws.on("message", (data) => {
    const text = data.toString();
    // docs/decisions.md#d37: the keep-alive answer is a bare text, not JSON
    messages.push(text === "pong" ? text : JSON.parse(text));
    waiter?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let read = 0;
  return {
    ws,
    messages,
    closed,
    async next(count = 1) {
      const deadline = Date.now() + 5000;
      while (messages.length < read + count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting; have ${JSON.stringify(messages)}`);
        await new Promise<void>((resolve) => {
          waiter = resolve;
          setTimeout(resolve, 100);
        });
      }
      const out = messages.slice(read, read + count);
      read += count;
      return out;
    },
  };
}
