import { redact, type Logger } from "../lib/log.js";

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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
    const safe = fields ? (redact(fields) as Record<string, unknown>) : {};
    write(JSON.stringify({ ts: new Date(now()).toISOString(), level, msg: message, ...safe }));
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
