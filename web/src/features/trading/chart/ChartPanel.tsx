import { useEffect, useId, useRef, useState } from "react";
import { Decimal } from "../../../../../lib/decimal.js";
import { exchangeSymbol } from "../../../../../lib/pair.js";
import { CandleChart } from "./CandleChart";
import { addMid, CHART_SCRIPT_TIMEOUT_MS, CHART_SCRIPT_URL, type MidCandle, widgetOptions } from "./provider";

/** docs/exchange-rules.md#chart: 5-minute candles. */
const INTERVAL_SEC = 300;

/** The page's colour mode, followed as it changes (data-theme on <html>, app/color-mode.ts). */
const read = (): "dark" | "light" => (document.documentElement.dataset.theme === "light" ? "light" : "dark");
function useTheme(): "dark" | "light" {
  const [theme, setTheme] = useState<"dark" | "light">(read);
  useEffect(() => {
    const o = new MutationObserver(() => setTheme(read()));
    o.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => o.disconnect();
  }, []);
  return theme;
}

let scriptLoad: Promise<void> | undefined;
/** Loads the provider's script once; rejects when it cannot load in time (offline, blocked). */
function loadProviderScript(): Promise<void> {
  if ((window as { TradingView?: unknown }).TradingView) return Promise.resolve();
  scriptLoad ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement("script");
    s.src = CHART_SCRIPT_URL;
    s.async = true;
    const timer = setTimeout(() => reject(new Error("chart script timed out")), CHART_SCRIPT_TIMEOUT_MS);
    s.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    s.onerror = () => {
      clearTimeout(timer);
      reject(new Error("chart script failed to load"));
    };
    document.head.appendChild(s);
  }).catch((error: unknown) => {
    scriptLoad = undefined;
    throw error;
  });
  return scriptLoad;
}

function ProviderChart(props: { exchange: string; pair: string; theme: "dark" | "light"; onFail: () => void }) {
  const id = `chart-${useId().replace(/[^a-zA-Z0-9]/g, "")}`;
  const { onFail } = props;
  useEffect(() => {
    let cancelled = false;
    loadProviderScript()
      .then(() => {
        if (cancelled) return;
        const TV = (window as { TradingView?: { widget: new (o: unknown) => unknown } }).TradingView;
        if (!TV) throw new Error("no TradingView after load");
        const box = document.getElementById(id);
        if (box) box.textContent = "";
        new TV.widget(widgetOptions(props.exchange, props.pair, props.theme, id));
      })
      .catch(() => {
        if (!cancelled) onFail();
      });
    return () => {
      cancelled = true;
    };
    // docs/exchange-rules.md#chart: the widget reloads when the pair or the colour mode changes.
  }, [id, props.exchange, props.pair, props.theme, onFail]);
  return <div id={id} className="chart-canvas" data-testid="provider-chart" />;
}

/** paper's history from the server (docs/decisions.md#d13), refreshed every interval's fifth. */
function usePaperCandles(pair: string): MidCandle[] {
  const [candles, setCandles] = useState<MidCandle[]>([]);
  useEffect(() => {
    if (!pair) return;
    let cancelled = false;
    const load = async () => {
      try {
        const r = await fetch(`/candles/paper/${exchangeSymbol(pair, "-")}?interval=${INTERVAL_SEC}&limit=200`, {
          cache: "no-store",
        });
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        const data = (await r.json()) as MidCandle[];
        if (!cancelled) setCandles(data);
      } catch (error) {
        console.warn("paper candles", error);
      }
    };
    void load();
    const timer = setInterval(load, (INTERVAL_SEC * 1000) / 5);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [pair]);
  return candles;
}

/** Candles of the live mids since the view opened (the fallback of exchanges without a history call). */
function useMidCandles(mid: string | undefined, live: boolean, key: string): MidCandle[] {
  const [candles, setCandles] = useState<MidCandle[]>([]);
  const keyRef = useRef(key);
  useEffect(() => {
    if (keyRef.current !== key) {
      keyRef.current = key;
      setCandles([]);
    }
  }, [key]);
  useEffect(() => {
    if (!mid || !live) return;
    setCandles((c) => addMid(c, mid, Date.now(), INTERVAL_SEC, (a, b) => new Decimal(a).comparedTo(b) ?? 0));
  }, [mid, live]);
  return candles;
}

/** docs/exchange-rules.md#chart chart area: the provider's widget, or the built-in candle chart for paper and whenever the provider cannot load. */
export function ChartPanel(props: { exchange: string; pair: string; mid: string | undefined; live: boolean }) {
  const theme = useTheme();
  const [failed, setFailed] = useState(false);
  const onFail = useRef(() => setFailed(true)).current;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another pair or exchange tries the provider again
  useEffect(() => setFailed(false), [props.exchange, props.pair]);
  const paper = props.exchange === "paper";
  const paperCandles = usePaperCandles(paper ? props.pair : "");
  const midCandles = useMidCandles(props.mid, props.live, `${props.exchange}:${props.pair}`);
  return (
    <section className="panel chart-box" aria-label="Chart">
      {paper ? (
        <CandleChart candles={paperCandles} theme={theme} label={`${props.pair} paper market, 5-minute candles`} />
      ) : failed ? (
        <CandleChart
          candles={midCandles}
          theme={theme}
          label={`${props.pair} live mid prices since the view opened, 5-minute candles`}
        />
      ) : (
        <ProviderChart exchange={props.exchange} pair={props.pair} theme={theme} onFail={onFail} />
      )}
    </section>
  );
}
