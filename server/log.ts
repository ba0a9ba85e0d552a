import { redact, type Logger } from "../lib/log.js";

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

/**
 * Structured JSON logs, one object a line, secret-looking fields redacted (lib/log.ts). Callers
 * never pass headers, bodies or credentials; redaction is the second line of defence.
 */
export function createJsonLogger(
  options: { level?: LogLevel; write?: (line: string) => void; now?: () => number } = {},
): Logger & { lines?: string[] } {
  const min = ORDER[options.level ?? "info"];
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    const safe = fields ? (redactServer(redact(fields)) as Record<string, unknown>) : {};
    write(JSON.stringify({ ts: new Date(now()).toISOString(), level, msg: redactServer(message), ...safe }));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

/** Masks a one-time code for the log (PRODUCT D18): first and last character only. */
export function maskCode(code: string): string {
  return code.length <= 2 ? "**" : `${code[0]}${"*".repeat(code.length - 2)}${code[code.length - 1]}`;
}
