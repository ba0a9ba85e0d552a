/**
 * The charting provider's advanced widget (docs/exchange-rules.md#chart "Price chart component"): its symbol and
 * options. The script is loaded from its exact origin, which the page policy allows
 * (server/security-headers.ts CHART_PROVIDER, docs/security-headers.md).
 */
export const CHART_SCRIPT_URL = "https://s3.tradingview.com/tv.js";
/** How long the provider's script may take before the built-in chart takes its place. */
export const CHART_SCRIPT_TIMEOUT_MS = 8_000;

/** docs/exchange-rules.md#chart: EXCHANGE:PAIR without the slash; the upper-cased exchange id, GATEIO for gate. */
export function chartSymbol(exchange: string, pair: string): string {
  const label = exchange === "gate" ? "GATEIO" : exchange.toUpperCase();
  return `${label}:${pair.replace("/", "")}`;
}

/** docs/exchange-rules.md#chart: 5-minute interval, UTC, English, the colour mode's theme, calendar off, no symbol change, 24 h volume, fills its container. */
export function widgetOptions(exchange: string, pair: string, theme: "dark" | "light", containerId: string) {
  return {
    container_id: containerId,
    symbol: chartSymbol(exchange, pair),
    interval: "5",
    timezone: "Etc/UTC",
    locale: "en",
    theme,
    style: "1",
    autosize: true,
    calendar: false,
    allow_symbol_change: false,
    studies: ["STD;24h%Volume"],
  };
}

/** Candles built from live mid prices (exchanges without a history call): one per `intervalSec`. */
export interface MidCandle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/** Adds one mid price observed at `ms` to the candles (compared as decimals by the caller's strings). */
export function addMid(
  candles: readonly MidCandle[],
  mid: string,
  ms: number,
  intervalSec: number,
  compare: (a: string, b: string) => number,
): MidCandle[] {
  const time = Math.floor(ms / 1000 / intervalSec) * intervalSec;
  const last = candles[candles.length - 1];
  if (last && last.time === time) {
    const next = {
      ...last,
      close: mid,
      high: compare(mid, last.high) > 0 ? mid : last.high,
      low: compare(mid, last.low) < 0 ? mid : last.low,
    };
    return [...candles.slice(0, -1), next];
  }
  return [...candles, { time, open: mid, high: mid, low: mid, close: mid }];
}
