/**
 * PostgreSQL and Redis for the scale-out suites (issue 15, docs/scale-out.md "Tests"): Debian's
 * postgresql 15 and redis-server 7, started on free loopback ports in temporary directories and
 * stopped in teardown; each can be taken down and brought back on its port mid-test. PostgreSQL refuses to run as root, so as root its binaries run as the
 * `postgres` user (runuser). Without the binaries a suite is skipped with the reason, except in
 * CI (`CI=true`), where a missing binary is a failure.
 */
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface Service {
  url: string;
  stop(): Promise<void>;
}

export interface PostgresService extends Service {
  /** a new empty database on this server; its URL */
  createDatabase(): Promise<string>;
  /** the cluster's data directory (base/ holds the tables' files, pg_wal/ the log) */
  dataDir: string;
  /** stops the server at once (`-m immediate`), keeping its data and port: the database is away */
  down(): Promise<void>;
  /** starts it again on the same port */
  up(): Promise<void>;
}

export interface RedisService extends Service {
  /** kills redis-server (SIGKILL), keeping its port: Redis is away */
  down(): Promise<void>;
  /** starts it again, empty, on the same port */
  up(): Promise<void>;
}

/** The directory of initdb/pg_ctl: SPOTDESK_PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string | undefined {
  if (process.env.SPOTDESK_PG_BIN) return process.env.SPOTDESK_PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : undefined;
}

export function redisServerBin(): string | undefined {
  for (const file of [process.env.SPOTDESK_REDIS_SERVER, "/usr/bin/redis-server", "/usr/local/bin/redis-server"])
    if (file && existsSync(file)) return file;
  return undefined;
}

/**
 * Why the PostgreSQL/Redis suites cannot run here, or undefined when they can. In CI a missing
 * binary throws: CI installs them (.ci/run), so their absence is a broken machine, not a skip.
 */
export function servicesMissing(need: { postgres?: boolean; redis?: boolean }): string | undefined {
  const missing: string[] = [];
  if (need.postgres && !postgresBin())
    missing.push("PostgreSQL (no /usr/lib/postgresql/*/bin/pg_ctl; apt-get install postgresql)");
  if (need.redis && !redisServerBin()) missing.push("redis-server (apt-get install redis-server)");
  if (missing.length === 0) return undefined;
  const reason = `skipped: ${missing.join(" and ")} not installed`;
  if (process.env.CI === "true") throw new Error(`CI=true and ${reason.replace("skipped: ", "")}`);
  process.stderr.write(`\n[scale-out] ${reason}\n`);
  return reason;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as `postgres` when we are root. */
function runPg(bin: string, args: string[]): void {
  const file = join(postgresBin()!, bin);
  if (isRoot()) execFileSync("runuser", ["-u", "postgres", "--", file, ...args], { stdio: "pipe" });
  else execFileSync(file, args, { stdio: "pipe" });
}

export async function startPostgres(): Promise<PostgresService> {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-pg-"));
  const data = join(dir, "data");
  const sockets = join(dir, "sockets");
  mkdirSync(data);
  mkdirSync(sockets);
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    for (const d of [dir, data, sockets]) chownSync(d, uid, gid);
  }
  runPg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  // fsync off: the suites kill server processes, never the database's machine
  const options = `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => runPg("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-t", "60", "start"]);
  const stopNow = () => runPg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    url,
    dataDir: data,
    async createDatabase() {
      const name = `spotdesk_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async down() {
      stopNow();
    },
    async up() {
      start();
    },
    async stop() {
      try {
        stopNow();
      } catch {
        // already down
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export async function startRedis(): Promise<RedisService> {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-redis-"));
  const port = await freePort();
  const start = async () => {
    const child = spawn(
      redisServerBin()!,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 15_000;
    while (!(await answersPing(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start on ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return child;
  };
  let child = await start();
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    down: kill,
    async up() {
      child = await start();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("error", () => resolve(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
  });
}
