import { CandlestickSeries, createChart, type IChartApi, type ISeriesApi, type UTCTimestamp } from "lightweight-charts";
import { useEffect, useRef } from "react";
import type { MidCandle } from "./provider";

const THEMES = {
  dark: { background: "#161b22", text: "#8b949e", grid: "#2b333e", up: "#22c55e", down: "#ef4444" },
  light: { background: "#ffffff", text: "#59636e", grid: "#e5e7eb", up: "#16a34a", down: "#dc2626" },
} as const;

/**
 * The built-in candle chart (lightweight-charts, bundled with the trading view's chunk): paper's
 * chart (docs/decisions.md#d13) and the fallback whenever the provider's script cannot load (docs/exchange-rules.md#chart):
 * never an empty box. Prices become Numbers here for drawing only.
 */
export function CandleChart({
  candles,
  theme,
  label,
}: {
  candles: readonly MidCandle[];
  theme: "dark" | "light";
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const series = useRef<ISeriesApi<"Candlestick"> | undefined>(undefined);

  useEffect(() => {
    if (!box.current) return;
    const c = THEMES[theme];
    const made = createChart(box.current, {
      autoSize: true,
      layout: { background: { color: c.background }, textColor: c.text },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
      timeScale: { timeVisible: true, secondsVisible: false },
    });
    chart.current = made;
    series.current = made.addSeries(CandlestickSeries, {
      upColor: c.up,
      downColor: c.down,
      wickUpColor: c.up,
      wickDownColor: c.down,
      borderVisible: false,
    });
    return () => {
      made.remove();
      chart.current = undefined;
      series.current = undefined;
    };
  }, [theme]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new theme makes a new series, which needs the data again
  useEffect(() => {
    series.current?.setData(
      candles.map((k) => ({
        time: k.time as UTCTimestamp,
        open: Number(k.open),
        high: Number(k.high),
        low: Number(k.low),
        close: Number(k.close),
      })),
    );
  }, [candles, theme]);

  return (
    <div
      className="chart-canvas"
      role="img"
      aria-label={label}
      data-testid="candle-chart"
      data-candles={candles.length}
    >
      {/* lightweight-charts owns this element's content; the note sits beside it */}
      <div className="chart-canvas" ref={box} />
      {candles.length === 0 ? <p className="chart-wait muted">Waiting for prices…</p> : null}
    </div>
  );
}
