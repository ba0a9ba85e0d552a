/**
 * The duration input of docs/dashboard-rules.md#validation: a number of seconds, or a number with a unit
 * (s, sec, second, m, min, minute, h, hr, hour, d, day, w, week, y, year), with the time units
 * of docs/dashboard-rules.md#constants (minute 60 s, hour 3600, day 86400, week 7 days, year 365 days). Isomorphic.
 */

export const INVALID_DURATION = "Invalid format";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** docs/dashboard-rules.md#validation units → seconds (docs/dashboard-rules.md#constants values). */
export const DURATION_UNITS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  m: MINUTE,
  min: MINUTE,
  minute: MINUTE,
  h: HOUR,
  hr: HOUR,
  hour: HOUR,
  d: DAY,
  day: DAY,
  w: 7 * DAY,
  week: 7 * DAY,
  y: 365 * DAY,
  year: 365 * DAY,
};

const DURATION_RE = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)$/i;

export type DurationResult = { ok: true; seconds: number } | { ok: false; error: typeof INVALID_DURATION };

/** Parses '90', '90s', '1.5 h', '2 week'… into seconds; anything else is 'Invalid format'. */
export function parseDuration(text: string): DurationResult {
  const match = DURATION_RE.exec(String(text).trim());
  if (!match) return { ok: false, error: INVALID_DURATION };
  const value = Number(match[1]);
  // Stryker disable next-line StringLiteral: the unit group always takes part in the match ("" at least)
  const unit = (match[2] ?? "").toLowerCase();
  // own units only: "1 constructor" must not read Object.prototype.constructor (NaN seconds)
  const factor = unit === "" ? 1 : Object.hasOwn(DURATION_UNITS, unit) ? DURATION_UNITS[unit] : undefined;
  if (factor === undefined || !Number.isFinite(value)) return { ok: false, error: INVALID_DURATION };
  return { ok: true, seconds: value * factor };
}
