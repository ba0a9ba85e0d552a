import { type Logger, SECRET_FIELD } from "../lib/log.js";

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Server-only secret names lib/log.ts does not know: the SMTP `pass` and the SMTP URL. */
const SERVER_SECRET_FIELD = /^(pass|smtpUrl|SPOTDESK_SMTP_URL)$/i;
/** `scheme://user:password@` inside any text: the password part goes. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]*@/gi;

/** lib/log.ts `redact`, then the server's own secrets (SMTP password, credentials in URLs). */
export function redactServer(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(URL_PASSWORD, "$1:[redacted]@");
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactServer(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SERVER_SECRET_FIELD.test(k) ? "[redacted]" : redactServer(v, depth + 1);
  }
  return out;
}

/** lib/log.ts SECRET_FIELD or the server's own secret names: the value is replaced. */
const secretKeys = new Map<string, boolean>();
function isSecretKey(key: string): boolean {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(key) || SERVER_SECRET_FIELD.test(key);
    if (secretKeys.size < 1024) secretKeys.set(key, secret);
  }
  return secret;
}

/**
 * `redactServer(redact(value))` in one pass (docs/server-speed.md): the same output, one copy of
 * the fields instead of two, and the key tests remembered.
 */
function redactAll(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.includes("://") ? value.replace(URL_PASSWORD, "$1:[redacted]@") : value;
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactAll(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretKey(k) ? "[redacted]" : redactAll(v, depth + 1);
  }
  return out;
}

/**
 * The default output, standard output, written once per event-loop turn instead of once a line
 * (docs/server-speed.md): the lines of a turn go out in one write on the next turn, or at once
 * past 256 lines, and whatever is left when the process exits is written then.
 */
const pendingLines: string[] = [];
let flushScheduled = false;
let exitHooked = false;
function flushLines(): void {
  flushScheduled = false;
  if (pendingLines.length === 0) return;
  const text = `${pendingLines.join("\n")}\n`;
  pendingLines.length = 0;
  process.stdout.write(text);
}
function writeStdout(line: string): void {
  pendingLines.push(line);
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", flushLines);
  }
  if (pendingLines.length >= 256) flushLines();
  else if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushLines);
  }
}

/**
 * Structured JSON logs, one object a line, secret-looking fields redacted (lib/log.ts). Callers
 * never pass headers, bodies or credentials; redaction is the second line of defence.
 */
export function createJsonLogger(
  options: { level?: LogLevel; write?: (line: string) => void; now?: () => number } = {},
): Logger & { lines?: string[] } {
  const min = ORDER[options.level ?? "info"];
  const write = options.write ?? writeStdout;
  const now = options.now ?? Date.now;
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const line: Record<string, unknown> = { ts: new Date(now()).toISOString(), level, msg: redactAll(message, 0) };
    if (fields) for (const [k, v] of Object.entries(fields)) line[k] = isSecretKey(k) ? "[redacted]" : redactAll(v, 1);
    write(JSON.stringify(line));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

/** Masks a one-time code for the log (docs/decisions.md#d18): first and last character only. */
export function maskCode(code: string): string {
  return code.length <= 2 ? "**" : `${code[0]}${"*".repeat(code.length - 2)}${code[code.length - 1]}`;
}
