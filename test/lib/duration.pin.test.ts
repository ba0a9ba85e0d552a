/** Pins of lib/duration.ts beyond test/web/lib-dashboard.test.ts (docs/dashboard-rules.md#validation, #constants; docs/mutation.md). */
import { describe, expect, it } from "vitest";
import { DURATION_UNITS, INVALID_DURATION, parseDuration } from "../../lib/duration.js";

const invalid = { ok: false, error: INVALID_DURATION };

describe("duration input, the edges (docs/dashboard-rules.md#validation)", () => {
  it("holds the seconds of each of the fifteen units (docs/dashboard-rules.md#constants)", () => {
    expect(DURATION_UNITS).toEqual({
      s: 1,
      sec: 1,
      second: 1,
      m: 60,
      min: 60,
      minute: 60,
      h: 3600,
      hr: 3600,
      hour: 3600,
      d: 86_400,
      day: 86_400,
      w: 604_800,
      week: 604_800,
      y: 31_536_000,
      year: 31_536_000,
    });
  });

  it.each([
    ["12", 12],
    [" 12 ", 12],
    ["\t2 min\n", 120],
    ["2   week", 1_209_600],
    ["2 H", 7200],
    ["3 MiN", 180],
    ["1.25", 1.25],
    ["1.25 m", 75],
    [".5m", 30],
    [".25", 0.25],
    ["0", 0],
  ])("reads '%s' as %s seconds", (text, seconds) => {
    expect(parseDuration(text)).toEqual({ ok: true, seconds });
  });

  it.each([
    "1.",
    ".",
    "1.5.5",
    "1e3",
    "x1",
    "1 s x",
    "1 2",
    "s",
    " ",
    "1,5 h",
    "1 constructor",
    "1 toString",
    "9".repeat(400),
    `${"9".repeat(400)} s`,
  ])("answers 'Invalid format' for '%s'", (text) => {
    expect(parseDuration(text)).toEqual(invalid);
  });
});
