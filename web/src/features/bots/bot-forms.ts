/**
 * The bot forms of docs/dashboard-rules.md#validation "Bot forms" (fields, defaults and sliders of docs/dashboard-rules.md#constants), described as data
 * so one form component draws them all; validation is the lib's schemas (lib/schemas.ts
 * BOT_SCHEMAS), the same the server runs on POST /token/bot.
 */
import type { z } from "zod";
import {
  BOT_SCHEMAS,
  type BotType,
  FLOATING_DEFAULTS,
  FLOATING_MODULE_PARAMS,
  FLOATING_MODULES,
  GRID_DEFAULTS,
  PRICE_STRATEGIES,
  SD_DEFAULTS,
  VOLUME_STRATEGIES,
} from "../../../../lib/schemas.js";

export type Field =
  | {
      kind: "number";
      key: string;
      label: string;
      default?: number;
      optional?: boolean;
      slider?: { min: number; max: number; step: number };
    }
  | { kind: "range"; key: string; label: string }
  | { kind: "select"; key: string; label: string; options: readonly string[]; default?: string };

/** docs/dashboard-rules.md#screens "Bots dialog": the buttons, in this order. */
export const BOT_BUTTONS: readonly { type: BotType; label: string }[] = [
  { type: "floating-bot", label: "Floating Order" },
  { type: "grid-bot", label: "Grid" },
  { type: "spread-decompression-bot", label: "SD" },
  { type: "candle-closer-bot", label: "CC" },
  { type: "volume-bot", label: "Volume" },
  { type: "heavy-volume-bot", label: "Heavy Volume" },
  { type: "liquidity-arranger-bot", label: "Liquidity" },
];

const spread: Field = { kind: "number", key: "acceptableSpread", label: "Acceptable spread", optional: true };

/** docs/dashboard-rules.md#constants "Liquidity side options: undefined, Sell, Buy". */
export const LIQUIDITY_SIDES = ["", "Sell", "Buy"] as const;

export const BOT_FIELDS: Record<BotType, readonly Field[]> = {
  "floating-bot": [
    { kind: "select", key: "side", label: "Side", options: ["Buy", "Sell"], default: "Buy" },
    { kind: "number", key: "quote", label: "Quote" },
    {
      kind: "number",
      key: "percent",
      label: "Percent",
      default: FLOATING_DEFAULTS.percent,
      slider: { min: 0, max: 50, step: 0.1 },
    },
    {
      kind: "number",
      key: "marginOfError",
      label: "Margin of error",
      default: FLOATING_DEFAULTS.marginOfError,
      slider: { min: 0, max: 1, step: 0.01 },
    },
  ],
  "grid-bot": [
    { kind: "number", key: "quote", label: "Quote" },
    {
      kind: "number",
      key: "percent",
      label: "Percent",
      default: GRID_DEFAULTS.percent,
      slider: { min: 1, max: 99, step: 1 },
    },
    {
      kind: "number",
      key: "profit",
      label: "Profit",
      default: GRID_DEFAULTS.profit,
      slider: { min: 0, max: 5, step: 0.1 },
    },
    {
      kind: "number",
      key: "RF",
      label: "Rebalancing factor",
      default: GRID_DEFAULTS.RF,
      slider: { min: 0, max: 1, step: 0.05 },
    },
    { kind: "number", key: "size", label: "Order count" },
  ],
  "volume-bot": [
    { kind: "number", key: "volume", label: "Volume" },
    { kind: "number", key: "minQuote", label: "Min quote" },
    { kind: "range", key: "priceRange", label: "Price range" },
    { kind: "range", key: "stepRange", label: "Step range" },
    spread,
  ],
  "heavy-volume-bot": [
    { kind: "range", key: "priceRange", label: "Price range" },
    { kind: "range", key: "tradesRange", label: "Trades range" },
    { kind: "range", key: "quoteRange", label: "Quote range" },
    { kind: "range", key: "stepRange", label: "Step range" },
    spread,
    { kind: "number", key: "period", label: "Period", optional: true },
  ],
  "spread-decompression-bot": [
    { kind: "number", key: "quoteUp", label: "Quote up", default: SD_DEFAULTS.quoteUp },
    { kind: "number", key: "dailyQuoteUp", label: "Daily quote up", default: SD_DEFAULTS.dailyQuoteUp },
    { kind: "number", key: "quoteDown", label: "Quote down", default: SD_DEFAULTS.quoteDown },
    { kind: "number", key: "dailyQuoteDown", label: "Daily quote down", default: SD_DEFAULTS.dailyQuoteDown },
    { kind: "number", key: "minQuote", label: "Min quote", default: SD_DEFAULTS.minQuote },
    { kind: "number", key: "refillPeriod", label: "Refill period", default: SD_DEFAULTS.refillPeriod },
    { kind: "number", key: "delay", label: "Delay", default: SD_DEFAULTS.delay },
    spread,
  ],
  "candle-closer-bot": [
    { kind: "number", key: "quote", label: "Quote" },
    { kind: "number", key: "period", label: "Period", optional: true },
    spread,
  ],
  "liquidity-arranger-bot": [
    { kind: "number", key: "ordersAmount", label: "Orders amount" },
    { kind: "select", key: "side", label: "Side", options: LIQUIDITY_SIDES, default: "" },
    { kind: "number", key: "P0", label: "P0" },
    { kind: "number", key: "P1", label: "P1" },
    { kind: "number", key: "Q0", label: "Q0" },
    { kind: "number", key: "Q1", label: "Q1" },
    { kind: "select", key: "priceStrategy", label: "Price strategy", options: PRICE_STRATEGIES, default: "linear" },
    { kind: "select", key: "volumeStrategy", label: "Volume strategy", options: VOLUME_STRATEGIES, default: "linear" },
  ],
};

/** docs/dashboard-rules.md#validation floating modules and their parameters: the lib's table (docs/decisions.md#d21). */
export const MODULE_PARAMS = FLOATING_MODULE_PARAMS;

/** A form's values: numbers and choices as typed text; ranges as `key.min` / `key.max`; modules as `module:name` (on) and `module:name.param`. */
export type FormValues = Record<string, string>;

export function initialValues(type: BotType): FormValues {
  const values: FormValues = {};
  for (const f of BOT_FIELDS[type]) {
    if (f.kind === "range") {
      values[`${f.key}.min`] = "";
      values[`${f.key}.max`] = "";
    } else values[f.key] = f.default === undefined ? "" : String(f.default);
  }
  return values;
}

const blank = (v: string | undefined) => v === undefined || v.trim() === "";
const numberText = (v: string) => v.trim().replace(",", ".");

/** The setup payload the form's values stand for (docs/api.md#calls), before validation. */
export function setupOf(type: BotType, pair: string, values: FormValues): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const f of BOT_FIELDS[type]) {
    if (f.kind === "range") {
      const min = values[`${f.key}.min`];
      const max = values[`${f.key}.max`];
      // docs/dashboard-rules.md#validation "Range": reported only when both min and max are set.
      if (!blank(min) && !blank(max)) flat[f.key] = { min: numberText(min!), max: numberText(max!) };
    } else if (f.kind === "select") {
      if (!blank(values[f.key])) flat[f.key] = values[f.key];
    } else if (!blank(values[f.key])) flat[f.key] = numberText(values[f.key]!);
  }
  if (type !== "floating-bot") return { pair, ...flat };
  const modules: Record<string, Record<string, string>> = {};
  for (const m of FLOATING_MODULES) {
    if (values[`module:${m}`] !== "on") continue;
    modules[m] = Object.fromEntries(MODULE_PARAMS[m].map((p) => [p, numberText(values[`module:${m}.${p}`] ?? "")]));
  }
  return { main: { pair, ...flat }, modules };
}

export type Validation = { ok: true; setup: unknown } | { ok: false; errors: string[] };

/** The lib's schema on the form's setup: Create is disabled until it passes (docs/dashboard-rules.md#states "Forms"). */
export function validateSetup(type: BotType, pair: string, values: FormValues): Validation {
  const parsed = (BOT_SCHEMAS[type] as z.ZodType).safeParse(setupOf(type, pair, values));
  if (parsed.success) return { ok: true, setup: parsed.data };
  // a module's problem reads as the seed's own text, 'Incorrect params for {module} module'
  return { ok: false, errors: issueTexts(parsed.error.issues) };
}

/** The schema's issues in the forms' words (a module's own text, else `field: message`). */
function issueTexts(issues: readonly z.core.$ZodIssue[]): string[] {
  return [
    ...new Set(
      issues.map((i) => {
        if (i.path[0] === "modules" || i.message.startsWith("Incorrect params")) return i.message;
        const field = i.path.filter((p) => p !== "main").join(".");
        return field ? `${field}: ${i.message}` : i.message;
      }),
    ),
  ];
}

/**
 * An edited setup typed as JSON (docs/bots.md "Create, edit, pause"): not JSON is said so; otherwise
 * the lib's schema decides, as for a created bot and as the server's PUT /token/bot does.
 */
export function parseSetupText(type: BotType, text: string): Validation {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, errors: ["The setup is not JSON"] };
  }
  const parsed = (BOT_SCHEMAS[type] as z.ZodType).safeParse(value);
  return parsed.success ? { ok: true, setup: parsed.data } : { ok: false, errors: issueTexts(parsed.error.issues) };
}
