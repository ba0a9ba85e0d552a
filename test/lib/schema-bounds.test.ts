/**
 * Every schema at a boundary is bounded (docs/server-limits.md "Bounded work", docs/bots.md "Bounds"):
 * fed extreme values (1e308 and -1e308, a 5,000-digit number as JSON text and as a string, NaN and
 * Infinity texts, 0, negatives, 10^6-character strings, 10^5-element arrays, nested junk), each schema
 * either refuses them with messages or parses them to finite values inside the documented bounds. A
 * seeded generator adds random mutations of a valid example per schema: deterministic, a bounded count.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { seededRandom } from "../../bench/book-stream.js";
import { parseBatch } from "../../cli/batch.js";
import { isExchangeError } from "../../lib/errors.js";
import * as S from "../../lib/schemas.js";

/** Every schema lib/schemas.ts exports, found by its type: a new schema is covered, and needs an example below. */
const SCHEMAS = Object.entries(S as Record<string, unknown>).flatMap(([name, value]): [string, z.ZodType][] =>
  value instanceof z.ZodType ? [[name, value]] : [],
);

const PAIR = "BTC/USDT";
const PATH = ["Acme", "paper", "main"];
const RANGE = { min: 1, max: 2 };
const BOTS: Record<S.BotType, unknown> = {
  "floating-bot": {
    main: { pair: PAIR, side: "Buy", quote: "10", percent: 2, marginOfError: 0.5 },
    modules: {
      "dynamic-price": { min: 1, max: 2 },
      "dynamic-delay": { min: "1", max: 5 },
      "dynamic-quote": { min: 1, max: 2 },
      "price-bounds": { min: 1, max: 2 },
      "spending-limits": { limit: 100, period: 60 },
    },
  },
  "grid-bot": {
    pair: PAIR,
    quote: 100,
    percent: 5,
    profit: 0.2,
    RF: 0.5,
    size: 4,
    limits: { maxLoss: 50, maxInventory: 0.5, maxOrdersPerMinute: 60 },
  },
  "volume-bot": { pair: PAIR, volume: 5, minQuote: 0, priceRange: RANGE, stepRange: RANGE, acceptableSpread: 2 },
  "heavy-volume-bot": {
    pair: PAIR,
    priceRange: RANGE,
    tradesRange: RANGE,
    quoteRange: RANGE,
    stepRange: RANGE,
    acceptableSpread: 2,
    period: 60,
  },
  "spread-decompression-bot": {
    pair: PAIR,
    quoteUp: 10,
    dailyQuoteUp: 100,
    quoteDown: 10,
    dailyQuoteDown: 100,
    minQuote: 2,
    refillPeriod: 60,
    delay: 10,
    acceptableSpread: 2,
  },
  "candle-closer-bot": { pair: PAIR, quote: 5, period: 60, acceptableSpread: 2 },
  "liquidity-arranger-bot": {
    pair: PAIR,
    ordersAmount: 10,
    side: "Sell",
    P0: 1,
    P1: 2,
    Q0: 1,
    Q1: 2,
    priceStrategy: "gauss",
    volumeStrategy: "inverseGauss",
  },
};
const botExample = (schema: z.ZodType) => BOTS[S.BOT_TYPES.find((type) => S.BOT_SCHEMAS[type] === schema)!];

/** Valid values of each schema: the mutations start from them, so every field is reached. */
const EXAMPLES: Record<string, unknown[]> = {
  accountPathSchema: [PATH],
  apiKeysRecordSchema: [{ path: PATH, apis: { data: "00ff", pair: PAIR, active: true } }],
  cancelAllSchema: [{ customPair: PAIR }],
  cancelOrderSchema: [{ id: "1", clientOID: "c1", customPair: PAIR }],
  changeScopeSchema: [{ scope: ["Acme", "Demo"] }],
  codeSchema: ["ABCD2345"],
  createOrderSchema: [{ price: "100.5", amount: 0.1, side: "Buy" }],
  botLimitsSchema: [{ maxLoss: 50, maxInventory: 0.5, maxOrdersPerMinute: 60 }, {}],
  decimalSchema: ["12.5", 12.5],
  emailSchema: ["ann@example.com"],
  envelopeSchema: [{ data: "00ff", pair: PAIR, active: false }],
  liveSubscribeSchema: [{ purpose: "sub_for_bots", userId: "u1", token: "t" }],
  passwordSchema: ["correct horse"],
  rangeSchema: [RANGE],
  removeApiKeysSchema: [{ path: PATH }],
  editBotSchema: S.BOT_TYPES.map((botType) => ({
    botId: "b1",
    botType,
    setup: BOTS[botType],
    ...(botType === "heavy-volume-bot" ? { paths: [PATH] } : {}),
  })),
  removeBotSchema: [{ botId: "b1" }],
  removeTokenPairSchema: [{ exchangeId: "okx", pair: PAIR }],
  scopeSchema: [["Acme"], "all"],
  setUserSchema: [{ userId: "ann@example.com", scope: ["Acme"] }],
  setupBotSchema: S.BOT_TYPES.map((botType) => ({
    botType,
    setup: BOTS[botType],
    ...(botType === "heavy-volume-bot" ? { paths: [PATH] } : {}),
  })),
  sideSchema: ["Sell"],
  tokenPairSchema: [{ exchangeId: "okx", pair: PAIR, decimals: { price: 2, amount: 6 } }],
};
const examplesOf = (name: string, schema: z.ZodType): unknown[] | undefined =>
  EXAMPLES[name] ?? (botExample(schema) === undefined ? undefined : [botExample(schema)]);

const DIGITS = "9".repeat(5000);
/** Nested junk: deep nesting, a `__proto__` key as JSON text makes it, mixed types. */
let deep: unknown = 1e308;
for (let i = 0; i < 1000; i++) deep = { d: [deep] };
const JUNK = JSON.parse('{"__proto__": {"admin": true}, "a": [1, {"b": ["x", null, {"c": 1e308}]}]}') as unknown;
const MANY_KEYS = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));

/** Put in place of any one value of an example (or of the whole value). */
const EXTREMES: unknown[] = [
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  0,
  -0,
  -1,
  -2,
  0.5,
  2 ** 53 + 2,
  S.MAX_NUMBER + 2,
  -S.MAX_NUMBER - 2,
  S.MAX_BOT_ORDERS + 2,
  10_000_000,
  S.MAX_SETUP_SECONDS + 1,
  DIGITS,
  `-${DIGITS}`,
  `${DIGITS}.5`,
  `0.${DIGITS}`,
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  " 1e308 ",
  "0x10",
  "",
  " ",
  "x".repeat(1_000_000),
  "9".repeat(1_000_000),
  " ".repeat(1_000_000),
  // the shape that makes the e-mail pattern backtrack with the square of its length (after trimming, too)
  `a@${"a.".repeat(500_000)}@`,
  `${"A".repeat(1_000_000)}/USDT`,
  "f".repeat(1_000_000),
  Array(100_000).fill(0),
  Array(100_000).fill("A"),
  Array(100_000).fill(PATH),
  null,
  true,
  {},
  [],
  deep,
  JUNK,
  MANY_KEYS,
];
/** Spliced into the JSON text of a request body: JSON.parse reads the first five as ±Infinity. */
const JSON_NUMBERS = [
  DIGITS,
  `-${DIGITS}`,
  "1e400",
  "-1e400",
  `${DIGITS}.0`,
  "1e308",
  "-1e308",
  "1e-400",
  `0.${DIGITS}`,
];

type Key = string | number;

/** The path of every value inside `value` (its objects' and arrays' members, at any depth). */
function pathsOf(value: unknown, prefix: Key[] = []): Key[][] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = [...prefix, Array.isArray(value) ? Number(k) : k];
    return [path, ...pathsOf(v, path)];
  });
}

/** A copy of `value` with the member at `path` replaced. */
function setAt(value: unknown, path: Key[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<Key, unknown>;
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), replacement);
  return copy;
}

/** `value` with the member at `path` written as raw JSON number text, read back as a server reads a body. */
function viaJsonText(value: unknown, path: Key[], text: string): unknown {
  const MARK = "\u0000number\u0000";
  return JSON.parse(JSON.stringify(setAt(value, path, MARK)).replace(JSON.stringify(MARK), text));
}

const SECONDS_KEYS = new Set(["delay", "refillPeriod", "period"]);
const COUNT_KEYS = new Set(["size", "ordersAmount"]);
const DECIMAL_KEYS = new Set(["price", "amount"]);

/**
 * What of a parsed value lies outside the documented bounds (docs/server-limits.md "Bounded work").
 * `decimal`: the value itself is a decimal text (decimalSchema).
 */
function outOfBounds(value: unknown, path: Key[] = [], decimal = false): string[] {
  const key = String(path[path.length - 1] ?? "");
  const where = path.join(".") || "(value)";
  if (typeof value === "number") {
    if (!Number.isFinite(value) || Math.abs(value) > S.MAX_NUMBER) return [`${where} = ${value}`];
    if (COUNT_KEYS.has(key) && value > S.MAX_BOT_ORDERS) return [`${where} = ${value} orders`];
    const seconds = SECONDS_KEYS.has(key) || path.includes("dynamic-delay");
    if (seconds && value > S.MAX_SETUP_SECONDS) return [`${where} = ${value} s`];
    return [];
  }
  if (typeof value === "string") {
    if (value.length > S.MAX_TEXT) return [`${where}: ${value.length} characters`];
    // decimal texts (createOrderSchema's price and amount, decimalSchema itself)
    if (decimal || DECIMAL_KEYS.has(key)) {
      if (value.length > S.MAX_NUMBER_TEXT || !(Math.abs(Number(value)) <= S.MAX_NUMBER))
        return [`${where} = ${value.slice(0, 50)}…`];
    }
    return [];
  }
  if (Array.isArray(value)) {
    if (value.length > S.MAX_SCOPE_CLIENTS) return [`${where}: ${value.length} items`];
    return value.flatMap((v, i) => outOfBounds(v, [...path, i]));
  }
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([k, v]) => outOfBounds(v, [...path, k]));
  return [];
}

/** A short picture of an input for a failure message. */
function picture(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === "number" && !Number.isFinite(v)) return String(v);
    if (typeof v === "string" && v.length > 40) return `<${v.length} characters ${v.slice(0, 12)}…>`;
    if (Array.isArray(v) && v.length > 10) return `<${v.length} items>`;
    return v;
  });
  return text === undefined ? String(value) : text.slice(0, 300);
}

/** Parses `input`; a problem when it is accepted out of bounds or refused without a clear message. */
function verdict(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  if (result.success) {
    const problems = outOfBounds(result.data, [], schema === S.decimalSchema);
    return problems.length ? `accepted ${picture(input)}: ${problems.join(", ")}` : undefined;
  }
  const issues = S.formatIssues(result.error);
  // refused with at least one message, each saying something; at most one per item of the longest list read
  if (issues.length === 0 || issues.length > S.MAX_SCOPE_CLIENTS || issues.some((m) => m.trim() === ""))
    return `refused ${picture(input)} with ${issues.length} messages`;
  return undefined;
}

/** A random value: numbers from 1e-400 to 1e400 (0 and ±Infinity included), long digit texts, junk. */
function randomValue(random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const sign = random() < 0.5 ? -1 : 1;
  switch (Math.floor(random() * 8)) {
    case 0:
      return sign * 10 ** Math.floor(random() * 800 - 400);
    case 1:
      return `${sign < 0 ? "-" : ""}${"7".repeat(1 + Math.floor(random() * 6000))}`;
    case 2:
      return pick(EXTREMES);
    case 3:
      return Math.floor(random() * 2001) - 1000;
    case 4:
      return Array.from({ length: Math.floor(random() * 2000) }, () => pick([..."aA9.-,@ e/_"])).join("");
    case 5:
      return depth > 2 ? [] : Array.from({ length: Math.floor(random() * 30) }, () => randomValue(random, depth + 1));
    case 6:
      return depth > 2 ? {} : { [pick(["min", "max", "x", "size", "__proto__"])]: randomValue(random, depth + 1) };
    default:
      return sign * random() * 1000;
  }
}

/** Random mutations of each schema's examples per run: deterministic (seed 31) and bounded. */
const ROUNDS = 150;

describe("every boundary schema is bounded and finite (docs/server-limits.md 'Bounded work', docs/bots.md 'Bounds')", () => {
  it("finds every exported schema and has a valid example of each", () => {
    expect(SCHEMAS.length).toBeGreaterThanOrEqual(28);
    for (const [name, schema] of SCHEMAS) {
      const examples = examplesOf(name, schema);
      expect(examples, `an example of ${name} in EXAMPLES`).toBeDefined();
      for (const example of examples!)
        expect(schema.safeParse(example).success, `${name} ${picture(example)}`).toBe(true);
    }
  });

  it.each(SCHEMAS)(
    "%s: every extreme value in every place is refused with a message or parsed inside the bounds",
    (name, schema) => {
      const problems: string[] = [];
      const check = (input: unknown) => {
        const problem = verdict(schema, input);
        if (problem !== undefined) problems.push(problem);
      };
      for (const example of examplesOf(name, schema) ?? []) {
        for (const extreme of EXTREMES) check(extreme);
        for (const path of pathsOf(example)) {
          for (const extreme of EXTREMES) check(setAt(example, path, extreme));
          for (const text of JSON_NUMBERS) check(viaJsonText(example, path, text));
        }
        if (typeof example === "object" && example !== null && !Array.isArray(example))
          for (const extreme of [JUNK, deep, MANY_KEYS]) check({ ...example, extra: extreme });
      }
      expect(problems.slice(0, 10)).toEqual([]);
    },
  );

  it.each(SCHEMAS)(
    "%s: seeded random mutations are refused with a message or parsed inside the bounds",
    (name, schema) => {
      const random = seededRandom(31);
      const problems: string[] = [];
      for (const example of examplesOf(name, schema) ?? []) {
        const paths = pathsOf(example);
        for (let round = 0; round < ROUNDS; round++) {
          let input = example;
          const changes = paths.length === 0 ? 0 : 1 + Math.floor(random() * 3);
          for (let c = 0; c < changes; c++)
            input = setAt(input, paths[Math.floor(random() * paths.length)]!, randomValue(random));
          if (paths.length === 0 || random() < 0.1) input = randomValue(random);
          const problem = verdict(schema, input);
          if (problem !== undefined) problems.push(problem);
        }
      }
      expect(problems.slice(0, 10)).toEqual([]);
    },
  );
});

describe("the CLI's batch file is bounded like the server's bodies (docs/server-limits.md 'Bounded work')", () => {
  const item = { side: "buy", amount: "0.5", price: "100", clientOrderId: "abc" };

  /** Refused as bad input with a message naming the item, or parsed to amounts and prices inside the bounds. */
  async function batchVerdict(input: unknown): Promise<string | undefined> {
    try {
      const items = await parseBatch(JSON.stringify([input]), "paper");
      const problems = items.flatMap((i) => outOfBounds({ price: i.price, amount: i.amount, side: i.side }));
      const id = items[0]?.clientOrderId;
      if (id !== undefined && id.length > 100) problems.push(`clientOrderId: ${id.length} characters`);
      return problems.length ? `accepted ${picture(input)}: ${problems.join(", ")}` : undefined;
    } catch (error) {
      if (isExchangeError(error) && error.kind === "bad-input" && /^Batch item 1: /.test(error.detail))
        return undefined;
      return `refused ${picture(input)} with ${String(error)}`;
    }
  }

  it("refuses each extreme value of each field with a message, or keeps it inside the bounds", async () => {
    const problems: string[] = [];
    for (const path of pathsOf(item)) {
      for (const extreme of EXTREMES) {
        const problem = await batchVerdict(setAt(item, path, extreme));
        if (problem !== undefined) problems.push(problem);
      }
      for (const text of JSON_NUMBERS) {
        const problem = await batchVerdict(viaJsonText(item, path, text));
        if (problem !== undefined) problems.push(problem);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
