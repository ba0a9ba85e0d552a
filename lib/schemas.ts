/**
 * Validation schemas shared by the web forms and the server (docs/dashboard-rules.md#validation rules, docs/api.md#calls payloads,
 * docs/dashboard-rules.md#constants defaults). Isomorphic zod; every object is strict, so unknown fields are refused.
 */
import { z } from "zod";

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ---------------------------------------------------------------------------------------------
// Bounds (docs/server-limits.md "Bounded work", docs/bots.md "Bounds"): every count, length and
// number a schema takes is finite and capped, so no request or stored setup costs more work than
// these allow.
// ---------------------------------------------------------------------------------------------

/**
 * The most orders one bot keeps: the grid's `size` and the liquidity arranger's `ordersAmount`. A
 * bot's setup-to-orders work (building a grid, a ladder) is proportional to it.
 */
export const MAX_BOT_ORDERS = 500;
/** Every number a schema takes lies within ±10^15 (below 2^53, so whole numbers stay exact). */
export const MAX_NUMBER = 1e15;
/** The longest numeric text (a form input, a decimal price or amount): a 5,000-digit text never reaches Number(). */
export const MAX_NUMBER_TEXT = 40;
/** A bot's seconds (delays and periods): at most a year (docs/dashboard-rules.md#constants "year 365 days"). */
export const MAX_SETUP_SECONDS = 365 * 86_400;
/** Clients in one user's scope. */
export const MAX_SCOPE_CLIENTS = 1000;
/** Extra account paths of one heavy-volume bot. */
export const MAX_BOT_PATHS = 20;
/** The longest text any schema takes: an API-key envelope's data. */
export const MAX_TEXT = 16_384;

const NUMBER_TEXT_RE = /^-?(\d+(\.\d*)?|\.\d+)$/;
const NUMBER_TEXT_MSG = `Expected a number such as 12.5 (at most ${MAX_NUMBER_TEXT} characters)`;

/**
 * A number within ±`limit`: a finite JSON number, or a numeric text (form inputs) of at most
 * MAX_NUMBER_TEXT characters. The length is checked before anything reads the text, so a
 * 5,000-digit text is refused instead of becoming Infinity.
 */
function boundedNumber(limit: number, outOfRange: string) {
  return z.union([z.number(), z.string()], { error: "Expected a finite number" }).transform((value, ctx) => {
    let n: number;
    if (typeof value === "number") n = value;
    else {
      const text = value.trim();
      if (value.length > MAX_NUMBER_TEXT || !NUMBER_TEXT_RE.test(text)) {
        ctx.addIssue({ code: "custom", message: NUMBER_TEXT_MSG });
        return z.NEVER;
      }
      n = Number(text);
    }
    if (!(Math.abs(n) <= limit)) {
      ctx.addIssue({ code: "custom", message: outOfRange });
      return z.NEVER;
    }
    return n;
  });
}

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** docs/dashboard-rules.md#validation "E-mail must match a standard e-mail pattern"; trimmed and lower-cased. */
export const emailSchema = z
  .string()
  .trim()
  // abort: the pattern is not run on a longer text (its backtracking grows with the square of the length)
  .max(254, { abort: true })
  .regex(EMAIL_RE, "Invalid e-mail")
  .transform((s) => s.toLowerCase());

/** docs/dashboard-rules.md#validation: at least 8 characters. */
export const passwordSchema = z.string().min(8, "Password must be at least 8 characters").max(1024);

/** docs/dashboard-rules.md#validation: exactly 8 characters. */
export const codeSchema = z.string().length(8, "Code must be exactly 8 characters");

/**
 * A decimal number as the server receives it: a decimal string of at most MAX_NUMBER_TEXT
 * characters, or a finite JSON number within ±MAX_NUMBER (docs/server-limits.md "Bounded work").
 */
const DECIMAL_RANGE_MSG = `A decimal number must lie between -${MAX_NUMBER} and ${MAX_NUMBER}`;
export const decimalSchema = z.union([
  z.string().transform((text, ctx) => {
    // continue: the branch that matched the type reports its own message, not the union's "Invalid input"
    if (text.length > MAX_NUMBER_TEXT) {
      ctx.addIssue({
        code: "custom",
        message: `A decimal number has at most ${MAX_NUMBER_TEXT} characters`,
        continue: true,
      });
      return z.NEVER;
    }
    const trimmed = text.trim();
    if (!NUMBER_TEXT_RE.test(trimmed)) {
      ctx.addIssue({ code: "custom", message: "Expected a decimal number such as 12.5", continue: true });
      return z.NEVER;
    }
    if (Math.abs(Number(trimmed)) <= MAX_NUMBER) return trimmed;
    ctx.addIssue({ code: "custom", message: DECIMAL_RANGE_MSG, continue: true });
    return z.NEVER;
  }),
  z
    .number()
    .finite()
    .transform((n, ctx) => {
      if (Math.abs(n) <= MAX_NUMBER) return String(n);
      ctx.addIssue({ code: "custom", message: DECIMAL_RANGE_MSG, continue: true });
      return z.NEVER;
    }),
]);

/** A numeric setting of a bot form: a number, or a numeric string (form inputs), within ±MAX_NUMBER. */
const num = boundedNumber(MAX_NUMBER, `Must lie between -${MAX_NUMBER} and ${MAX_NUMBER}`);

const pairSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,20}\/[A-Za-z0-9]{1,20}$/, "Write the pair as BASE/QUOTE, for example BTC/USDT")
  .transform((p) => p.toUpperCase());

const segment = z.string().trim().min(1, "Empty path segment").max(100);

/** docs/decisions.md#d13 / #d18: the account path ["client","exchange","account"]. */
export const accountPathSchema = z.tuple([segment, segment, segment]);

export const sideSchema = z.enum(["Buy", "Sell"]);

/** docs/dashboard-rules.md#validation "Range. It is reported only when both min and max are set"; min <= max. */
export const rangeSchema = z
  .strictObject({ min: num, max: num })
  .refine((r) => r.min <= r.max, { message: "Range minimum must not exceed its maximum" });

/** docs/dashboard-rules.md#roles: the word all, or a list of client names. */
export const scopeSchema = z.union(
  [z.literal("all"), z.array(segment).min(1, "Select at least one client").max(MAX_SCOPE_CLIENTS)],
  {
    // a list over the cap is refused before its items are read, which a union reports as "Invalid input"
    error: (issue) =>
      Array.isArray(issue.input) && issue.input.length > MAX_SCOPE_CLIENTS
        ? `A scope holds at most ${MAX_SCOPE_CLIENTS} clients`
        : undefined,
  },
);

// ---------------------------------------------------------------------------------------------
// Admin payloads (docs/api.md#calls)
// ---------------------------------------------------------------------------------------------

/** docs/dashboard-rules.md#entities: the envelope {data, pair, active}; data is the 12-byte IV hex then ciphertext hex. */
export const envelopeSchema = z.strictObject({
  data: z
    .string()
    .regex(/^[0-9a-fA-F]*$/, "Envelope data must be hex")
    .max(MAX_TEXT),
  // kept as sent (no upper-casing): the server stores the envelope exactly as it came
  pair: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,20}\/[A-Za-z0-9]{1,20}$/, "Write the pair as BASE/QUOTE, for example BTC/USDT"),
  active: z.boolean(),
});

/** POST /token/admin/apikeys {path, apis}. */
export const apiKeysRecordSchema = z.strictObject({ path: accountPathSchema, apis: envelopeSchema });
export const removeApiKeysSchema = z.strictObject({ path: accountPathSchema });

/** docs/decisions.md#d18: 'Permit login' takes the new user's e-mail as userId. */
export const setUserSchema = z.strictObject({ userId: emailSchema, scope: scopeSchema });
export const changeScopeSchema = z.strictObject({ scope: scopeSchema });

const decimalsCount = z.number().int().min(0).max(30);

/** POST /token/pair {exchangeId, pair, decimals: {price, amount}} (docs/dashboard-rules.md#entities "Token pair"). */
const exchangeIdSchema = z.string().trim().min(1).max(100);
export const tokenPairSchema = z.strictObject({
  exchangeId: exchangeIdSchema,
  pair: pairSchema,
  decimals: z.strictObject({ price: decimalsCount, amount: decimalsCount }),
});
export const removeTokenPairSchema = z.strictObject({ exchangeId: exchangeIdSchema, pair: pairSchema });

// ---------------------------------------------------------------------------------------------
// Order payloads (docs/dashboard-rules.md#entities, docs/api.md#calls)
// ---------------------------------------------------------------------------------------------

/** `postOnly`: maker only, refused where the exchange has no form (docs/orders.md "Post-only") */
export const createOrderSchema = z.strictObject({
  price: decimalSchema,
  amount: decimalSchema,
  side: sideSchema,
  postOnly: z.boolean().optional(),
});
export const cancelOrderSchema = z.strictObject({
  id: z.string().min(1).max(200),
  clientOID: z.string().max(200).optional().nullable(),
  customPair: pairSchema.optional().nullable(),
});
export const cancelAllSchema = z.strictObject({ customPair: pairSchema.optional().nullable() });

// ---------------------------------------------------------------------------------------------
// Bots (docs/dashboard-rules.md#validation "Bot forms", docs/api.md#calls payloads, docs/dashboard-rules.md#constants defaults)
// ---------------------------------------------------------------------------------------------

/** docs/dashboard-rules.md#validation: spread optional but must be > 1. */
const acceptableSpread = num.refine((n) => n > 1, "Acceptable spread must be greater than 1").optional();
const positive = (field: string, value = num) => value.refine((n) => n > 0, `${field} must be greater than 0`);
const nonNegative = (field: string, value = num) => value.refine((n) => n >= 0, `${field} must not be negative`);
/** A bot's seconds: at most MAX_SETUP_SECONDS (a year). */
const seconds = (field: string) =>
  boundedNumber(MAX_SETUP_SECONDS, `${field} must be at most ${MAX_SETUP_SECONDS} seconds (365 days)`);

export const FLOATING_MODULES = [
  "dynamic-price",
  "dynamic-delay",
  "dynamic-quote",
  "price-bounds",
  "spending-limits",
] as const;
export type FloatingModule = (typeof FLOATING_MODULES)[number];

/** docs/dashboard-rules.md#validation: 'Incorrect params for {module} module'. */
export function moduleError(module: string): string {
  return `Incorrect params for ${module} module`;
}

/** The module params that are seconds, bounded by MAX_SETUP_SECONDS; the others by MAX_NUMBER. */
const MODULE_SECONDS: Partial<Record<FloatingModule, readonly string[]>> = {
  "dynamic-delay": ["min", "max"],
  "spending-limits": ["period"],
};

/** The parameters of each floating-bot module (docs/decisions.md#d21). */
export const FLOATING_MODULE_PARAMS: Record<FloatingModule, readonly string[]> = {
  "dynamic-price": ["min", "max"],
  "dynamic-delay": ["min", "max"],
  "dynamic-quote": ["min", "max"],
  "price-bounds": ["min", "max"],
  "spending-limits": ["limit", "period"],
};

export interface FloatingModules {
  "dynamic-price"?: { min: number; max: number };
  "dynamic-delay"?: { min: number; max: number };
  "dynamic-quote"?: { min: number; max: number };
  "price-bounds"?: { min: number; max: number };
  "spending-limits"?: { limit: number; period: number };
}

/**
 * docs/dashboard-rules.md#validation: every module param is a number ('Incorrect params for {module} module' otherwise);
 * inputs take absolute values (-2 is read as 2). docs/decisions.md#d21 adds: each param present, min <= max.
 */
const floatingModules = z.record(z.string(), z.unknown()).transform((modules, ctx): FloatingModules => {
  const out: Record<string, Record<string, number>> = {};
  const entries = Object.entries(modules);
  if (entries.length > FLOATING_MODULES.length) {
    ctx.addIssue({
      code: "custom",
      message: `At most ${FLOATING_MODULES.length} modules: ${FLOATING_MODULES.join(", ")}`,
    });
    return z.NEVER;
  }
  for (const [name, raw] of entries) {
    if (!(FLOATING_MODULES as readonly string[]).includes(name)) {
      ctx.addIssue({ code: "custom", message: `Unknown module '${name}'`, path: [name] });
      continue;
    }
    const expected = FLOATING_MODULE_PARAMS[name as FloatingModule];
    const params =
      typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
    const values: Record<string, number> = {};
    let ok = params !== undefined && Object.keys(params).every((k) => expected.includes(k));
    let tooBig: string | undefined;
    for (const key of expected) {
      const value = params?.[key];
      const n =
        typeof value === "string" && value.trim() !== "" && value.length <= MAX_NUMBER_TEXT
          ? Number(value.trim().replace(",", "."))
          : value;
      if (typeof n !== "number" || !Number.isFinite(n)) ok = false;
      else {
        // docs/server-limits.md "Bounded work": seconds at most a year, every other param at most MAX_NUMBER
        const bound = MODULE_SECONDS[name as FloatingModule]?.includes(key) ? MAX_SETUP_SECONDS : MAX_NUMBER;
        if (Math.abs(n) > bound) tooBig ??= `${key} must be at most ${bound}`;
        values[key] = Math.abs(n);
      }
    }
    if (ok && "min" in values && values.min! > values.max!) ok = false;
    if (!ok || tooBig)
      ctx.addIssue({
        code: "custom",
        message: ok ? `${moduleError(name)}: ${tooBig}` : moduleError(name),
        path: [name],
      });
    else out[name] = values;
  }
  return out as FloatingModules;
});

/** A runnable bot quotes post-only unless its setup says `postOnly: false` (docs/bots.md "Post-only quotes"). */
const postOnly = z.boolean().optional();

/** The most orders a minute a risk limit may allow (docs/bots.md "Risk limits and the kill switch"). */
export const MAX_ORDERS_PER_MINUTE_LIMIT = 10_000;
/**
 * A bot's risk limits (docs/bots.md "Risk limits and the kill switch"), each optional: `maxLoss` in
 * the quote (realized plus the inventory marked at the mid, since the start), `maxInventory` in the
 * base (away from the start, either way), `maxOrdersPerMinute` placed. A breach stops the bot.
 */
export const botLimitsSchema = z.strictObject({
  maxLoss: positive("maxLoss").optional(),
  maxInventory: positive("maxInventory").optional(),
  maxOrdersPerMinute: boundedNumber(
    MAX_ORDERS_PER_MINUTE_LIMIT,
    `maxOrdersPerMinute must be a whole number from 1 to ${MAX_ORDERS_PER_MINUTE_LIMIT}`,
  )
    .refine(
      (n) => Number.isInteger(n) && n > 0,
      `maxOrdersPerMinute must be a whole number from 1 to ${MAX_ORDERS_PER_MINUTE_LIMIT}`,
    )
    .optional(),
});
export type BotLimits = z.output<typeof botLimitsSchema>;
const limits = botLimitsSchema.optional();

/** docs/dashboard-rules.md#constants: percent slider 0–50 (default 1); margin of error 0–1 (default 0.1). */
export const FLOATING_DEFAULTS = { percent: 1, marginOfError: 0.1 } as const;
export const floatingBotSchema = z.strictObject({
  main: z.strictObject({
    pair: pairSchema,
    side: sideSchema,
    // docs/dashboard-rules.md#validation: quote and percent required (truthy), marginOfError defined.
    quote: positive("Quote"),
    percent: num
      .refine((n) => n > 0 && n <= 50, "Percent must be greater than 0 and at most 50")
      .default(FLOATING_DEFAULTS.percent),
    marginOfError: num
      .refine((n) => n >= 0 && n <= 1, "Margin of error must be between 0 and 1")
      .default(FLOATING_DEFAULTS.marginOfError),
  }),
  modules: floatingModules.default({}),
  postOnly,
  limits,
});

/** docs/dashboard-rules.md#constants: profit 0.2 (0–5), percent 5 (1–99), rebalancing factor 0.5 (0–1). */
export const GRID_DEFAULTS = { profit: 0.2, percent: 5, RF: 0.5 } as const;
export const gridBotSchema = z.strictObject({
  pair: pairSchema,
  quote: positive("Quote"),
  percent: num.refine((n) => n >= 1 && n <= 99, "Percent must be between 1 and 99").default(GRID_DEFAULTS.percent),
  profit: num
    .refine((n) => n > 0 && n <= 5, "Profit must be greater than 0 and at most 5")
    .default(GRID_DEFAULTS.profit),
  RF: num.refine((n) => n >= 0 && n <= 1, "Rebalancing factor must be between 0 and 1").default(GRID_DEFAULTS.RF),
  // docs/bots.md "Bounds": the grid's orders are capped like the arranger's (MAX_BOT_ORDERS)
  size: boundedNumber(MAX_BOT_ORDERS, `Order count must be at most ${MAX_BOT_ORDERS}`).refine(
    (n) => Number.isInteger(n) && n > 0 && n % 2 === 0,
    "Order count must be greater than 0 and even",
  ),
  postOnly,
  limits,
});

export const volumeBotSchema = z.strictObject({
  pair: pairSchema,
  volume: positive("Volume"),
  minQuote: nonNegative("Min quote"),
  priceRange: rangeSchema,
  stepRange: rangeSchema,
  acceptableSpread,
});

export const heavyVolumeBotSchema = z.strictObject({
  pair: pairSchema,
  priceRange: rangeSchema,
  tradesRange: rangeSchema,
  quoteRange: rangeSchema,
  stepRange: rangeSchema,
  acceptableSpread,
  period: positive("Period", seconds("Period")).optional(),
});

/** docs/dashboard-rules.md#constants: quote up 10, daily up 100, quote down 10, daily down 100, refill 60, delay 10, min quote 2. */
export const SD_DEFAULTS = {
  quoteUp: 10,
  dailyQuoteUp: 100,
  quoteDown: 10,
  dailyQuoteDown: 100,
  refillPeriod: 60,
  delay: 10,
  minQuote: 2,
} as const;
export const spreadDecompressionBotSchema = z.strictObject({
  pair: pairSchema,
  quoteUp: positive("Quote up").default(SD_DEFAULTS.quoteUp),
  dailyQuoteUp: nonNegative("Daily quote up").default(SD_DEFAULTS.dailyQuoteUp),
  quoteDown: positive("Quote down").default(SD_DEFAULTS.quoteDown),
  dailyQuoteDown: nonNegative("Daily quote down").default(SD_DEFAULTS.dailyQuoteDown),
  minQuote: nonNegative("Min quote").default(SD_DEFAULTS.minQuote),
  refillPeriod: positive("Refill period", seconds("Refill period")).default(SD_DEFAULTS.refillPeriod),
  delay: nonNegative("Delay", seconds("Delay")).default(SD_DEFAULTS.delay),
  acceptableSpread,
  postOnly,
  limits,
});

export const candleCloserBotSchema = z.strictObject({
  pair: pairSchema,
  quote: positive("Quote"),
  period: positive("Period", seconds("Period")).optional(),
  acceptableSpread,
});

/** docs/dashboard-rules.md#constants: price strategies; volume strategies add inverseGauss. */
export const PRICE_STRATEGIES = ["linear", "gauss", "exponential3", "exponential5", "exponential10"] as const;
export const VOLUME_STRATEGIES = [...PRICE_STRATEGIES, "inverseGauss"] as const;
export const liquidityArrangerBotSchema = z.strictObject({
  pair: pairSchema,
  ordersAmount: boundedNumber(
    MAX_BOT_ORDERS,
    `Orders amount must be a whole number from 1 to ${MAX_BOT_ORDERS}`,
  ).refine((n) => Number.isInteger(n) && n > 0, `Orders amount must be a whole number from 1 to ${MAX_BOT_ORDERS}`),
  // docs/decisions.md#d24 (docs/dashboard-rules.md#constants "Liquidity side options: undefined, Sell, Buy"): unset is both sides.
  side: sideSchema.optional(),
  P0: positive("P0"),
  P1: positive("P1"),
  Q0: nonNegative("Q0"),
  Q1: nonNegative("Q1"),
  priceStrategy: z.enum(PRICE_STRATEGIES).default("linear"),
  volumeStrategy: z.enum(VOLUME_STRATEGIES).default("linear"),
  postOnly,
  limits,
});

export const BOT_SCHEMAS = {
  "floating-bot": floatingBotSchema,
  "grid-bot": gridBotSchema,
  "volume-bot": volumeBotSchema,
  "heavy-volume-bot": heavyVolumeBotSchema,
  "spread-decompression-bot": spreadDecompressionBotSchema,
  "candle-closer-bot": candleCloserBotSchema,
  "liquidity-arranger-bot": liquidityArrangerBotSchema,
} as const;

export type BotType = keyof typeof BOT_SCHEMAS;
export type FloatingSetup = z.output<typeof floatingBotSchema>;
export type GridSetup = z.output<typeof gridBotSchema>;
export type SpreadDecompressionSetup = z.output<typeof spreadDecompressionBotSchema>;
export type LiquidityArrangerSetup = z.output<typeof liquidityArrangerBotSchema>;
export const BOT_TYPES = Object.keys(BOT_SCHEMAS) as BotType[];

/** docs/dashboard-rules.md#constants "Bot list order". Liquidity is not listed; it sorts last. */
export const BOT_LIST_ORDER: Record<BotType, number> = {
  "floating-bot": 0,
  "spread-decompression-bot": 1,
  "candle-closer-bot": 2,
  "heavy-volume-bot": 18,
  "volume-bot": 19,
  "grid-bot": 20,
  "liquidity-arranger-bot": 21,
};

/** docs/product.md#bots: these are stored and shown but never run (self-matching is wash trading). */
export const NOT_RUN_BOT_TYPES: readonly BotType[] = ["volume-bot", "heavy-volume-bot", "candle-closer-bot"];
export const WASH_TRADING_REASON =
  "Not run: this bot would trade against itself to print volume or move a candle; self-matching is wash trading, forbidden by exchanges' rules and market-abuse law.";

/** A bot's type, setup and extra paths checked with its type's schema (POST and PUT /token/bot). */
function checkBotSetup(
  body: { botType: BotType; setup: unknown; paths?: z.infer<typeof accountPathSchema>[] | undefined },
  ctx: z.RefinementCtx,
) {
  const parsed = BOT_SCHEMAS[body.botType].safeParse(body.setup);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ["setup", ...issue.path] } as never);
    return z.NEVER;
  }
  if (body.paths && body.paths.length > 0 && body.botType !== "heavy-volume-bot") {
    ctx.addIssue({ code: "custom", message: "Only heavy-volume bots take extra account paths", path: ["paths"] });
    return z.NEVER;
  }
  return { botType: body.botType, setup: parsed.data as unknown, paths: body.paths ?? [] };
}

const botSetupFields = {
  botType: z.enum(BOT_TYPES as [BotType, ...BotType[]]),
  setup: z.unknown(),
  paths: z
    .array(accountPathSchema)
    .max(MAX_BOT_PATHS, `A bot takes at most ${MAX_BOT_PATHS} extra account paths`)
    .optional(),
};

/** POST /token/bot {botType, setup, paths?} (docs/api.md#calls, docs/decisions.md#d16). */
export const setupBotSchema = z.strictObject(botSetupFields).transform(checkBotSetup);
export type SetupBotInput = z.input<typeof setupBotSchema>;

const botIdSchema = z.string().min(1).max(100);

/** PUT /token/bot {botId, botType, setup, paths?}: the same checks as a create (docs/bots.md "Create, edit, pause"). */
export const editBotSchema = z.strictObject({ botId: botIdSchema, ...botSetupFields }).transform((body, ctx) => {
  const checked = checkBotSetup(body, ctx);
  return checked === z.NEVER ? z.NEVER : { botId: body.botId, ...checked };
});
export type EditBotInput = z.input<typeof editBotSchema>;

export const removeBotSchema = z.strictObject({ botId: botIdSchema });

/** Live channel subscription (docs/api.md#calls). */
export const liveSubscribeSchema = z.strictObject({
  purpose: z.literal("sub_for_bots"),
  userId: z.string().min(1).max(100),
  token: z.string().min(1).max(4096),
});

/** One line per problem, "field: message", for error bodies and form hints. */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
}
