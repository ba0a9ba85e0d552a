/** A small logger interface so lib and exchange code can log without Node-only imports. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export const SECRET_FIELD = /(secret|password|passphrase|api[-_]?key|^key$|token|signature|authorization|cookie|sign)/i;

/** Replaces the values of secret-looking fields, recursively, before anything is logged. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_FIELD.test(k) ? "[redacted]" : redact(v, depth + 1);
  }
  return out;
}
