import { describe, expect, it } from "vitest";
import { foldStatus, kucoinStatus, normalizeStatus } from "../../exchanges/core/status.js";
import { type ExchangeId, REAL_EXCHANGE_IDS } from "../../lib/types.js";

// Exchanges whose statuses go through the general table (all but lbank's numerics and kucoin's
// derived status).
const GENERAL_EXCHANGES = REAL_EXCHANGE_IDS.filter((id) => id !== "lbank") as ExchangeId[];

describe("docs/exchange-rules.md#states Normalized order status — general table", () => {
  it("maps 'new, live, accepted, created, submitted, submitting, partially filled, untriggered, executing' to open (docs/exchange-rules.md#states)", () => {
    for (const raw of [
      "new",
      "live",
      "accepted",
      "created",
      "submitted",
      "submitting",
      "partially filled",
      "untriggered",
      "executing",
    ]) {
      expect(normalizeStatus("okx", raw), raw).toBe("open");
    }
  });

  it("maps 'filled, executed' to closed (docs/exchange-rules.md#states)", () => {
    expect(normalizeStatus("okx", "filled")).toBe("closed");
    expect(normalizeStatus("bitteam", "executed")).toBe("closed");
  });

  it("maps 'cancelled or canceled, rejected, expired, pending cancel, failed, deactivated, not found' to canceled (docs/exchange-rules.md#states)", () => {
    for (const raw of [
      "cancelled",
      "canceled",
      "rejected",
      "expired",
      "pending cancel",
      "failed",
      "deactivated",
      "not found",
    ]) {
      expect(normalizeStatus("xt", raw), raw).toBe("canceled");
    }
  });

  it("maps partially canceled to canceled: 'On some exchanges partially canceled also counts as canceled' (docs/exchange-rules.md#states, docs/decisions.md#d9)", () => {
    // bitmart v4 documents `partially_canceled`; bybit v5 documents `PartiallyFilledCanceled`.
    expect(normalizeStatus("bitmart", "partially_canceled")).toBe("canceled");
    expect(normalizeStatus("bybit", "PartiallyFilledCanceled")).toBe("canceled");
    // docs/decisions.md#d9: other spellings of partially canceled follow the general rule, even the mexc
    // spelling on an exchange that does not document it.
    expect(normalizeStatus("xt", "PARTIALLY_CANCELED")).toBe("canceled");
    expect(normalizeStatus("mexc", "partially_canceled")).toBe("canceled");
  });

  it("yields undefined for an unknown status: 'An unknown status yields undefined' (docs/exchange-rules.md#states)", () => {
    for (const id of GENERAL_EXCHANGES) {
      expect(normalizeStatus(id, "weird-status"), id).toBeUndefined();
      expect(normalizeStatus(id, ""), id).toBeUndefined();
      expect(normalizeStatus(id, undefined), id).toBeUndefined();
      expect(normalizeStatus(id, null), id).toBeUndefined();
    }
  });

  it("yields undefined for statuses named like object properties, never a prototype value (docs/exchange-rules.md#states)", () => {
    for (const raw of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      expect(normalizeStatus("okx", raw), raw).toBeUndefined();
      expect(normalizeStatus("htx", raw), raw).toBeUndefined();
      expect(normalizeStatus("lbank", raw), raw).toBeUndefined();
    }
  });

  it("folds exchange spellings to the table's words", () => {
    expect(foldStatus("PARTIALLY_FILLED")).toBe("partially filled");
    expect(foldStatus("PartiallyFilled")).toBe("partially filled");
    expect(foldStatus("partial-filled")).toBe("partial filled");
    expect(foldStatus("  NOT_FOUND ")).toBe("not found");
    expect(foldStatus("PENDING_CANCEL")).toBe("pending cancel");
    // a run of separators is one space
    expect(foldStatus("PARTIALLY__FILLED")).toBe("partially filled");
    expect(foldStatus("partially - filled")).toBe("partially filled");
  });

  it("maps the spellings outside the seed's list that exchanges send: bitget init, the British partial cancels", () => {
    expect(normalizeStatus("bitget", "init")).toBe("open");
    expect(normalizeStatus("xt", "PARTIALLY_CANCELLED")).toBe("canceled");
    expect(normalizeStatus("xt", "partially_filled_cancelled")).toBe("canceled");
  });

  it("reads an exception spelled with surrounding spaces as the exception, not the general word", () => {
    // bybit's "Triggered" is canceled on bybit; the general table does not hold "triggered" at all
    expect(normalizeStatus("bybit", " Triggered ")).toBe("canceled");
    expect(normalizeStatus("lbank", " 2 ")).toBe("closed");
  });
});

describe("docs/exchange-rules.md#states — each exchange's documented spellings", () => {
  const cases: [ExchangeId, string, "open" | "closed" | "canceled"][] = [
    // bingx spot: NEW, PENDING, PARTIALLY_FILLED, FILLED, CANCELED, FAILED
    ["bingx", "NEW", "open"],
    ["bingx", "PENDING", "open"],
    ["bingx", "PARTIALLY_FILLED", "open"],
    ["bingx", "FILLED", "closed"],
    ["bingx", "CANCELED", "canceled"],
    ["bingx", "FAILED", "canceled"],
    // bitget v2: live, partially_filled, filled, cancelled
    ["bitget", "live", "open"],
    ["bitget", "partially_filled", "open"],
    ["bitget", "filled", "closed"],
    ["bitget", "cancelled", "canceled"],
    // bitrue: NEW, PARTIALLY_FILLED, FILLED, CANCELED, PENDING_CANCEL, REJECTED, EXPIRED
    ["bitrue", "NEW", "open"],
    ["bitrue", "PARTIALLY_FILLED", "open"],
    ["bitrue", "FILLED", "closed"],
    ["bitrue", "CANCELED", "canceled"],
    ["bitrue", "PENDING_CANCEL", "canceled"],
    ["bitrue", "REJECTED", "canceled"],
    ["bitrue", "EXPIRED", "canceled"],
    // bitmart v4: new, partially_filled, filled, canceled, partially_canceled
    ["bitmart", "new", "open"],
    ["bitmart", "partially_filled", "open"],
    ["bitmart", "filled", "closed"],
    ["bitmart", "canceled", "canceled"],
    // bitteam: withdrawn ("delete") and refused ("inactive") orders are canceled
    ["bitteam", "delete", "canceled"],
    ["bitteam", "inactive", "canceled"],
    // bybit v5: New, PartiallyFilled, Untriggered, Rejected, PartiallyFilledCanceled, Filled,
    // Cancelled, Triggered, Deactivated
    ["bybit", "New", "open"],
    ["bybit", "PartiallyFilled", "open"],
    ["bybit", "Untriggered", "open"],
    ["bybit", "Rejected", "canceled"],
    ["bybit", "Filled", "closed"],
    ["bybit", "Cancelled", "canceled"],
    ["bybit", "Deactivated", "canceled"],
    // coinstore: SUBMITTING, SUBMITTED, PARTIAL_FILLED, FILLED, CANCELED, NOT_FOUND
    ["coinstore", "SUBMITTING", "open"],
    ["coinstore", "SUBMITTED", "open"],
    ["coinstore", "PARTIAL_FILLED", "open"],
    ["coinstore", "FILLED", "closed"],
    ["coinstore", "CANCELED", "canceled"],
    ["coinstore", "NOT_FOUND", "canceled"],
    // gate v4: open, closed, cancelled
    ["gate", "open", "open"],
    ["gate", "closed", "closed"],
    ["gate", "cancelled", "canceled"],
    // htx: created, submitted, partial-filled, filled, canceled (exceptions below)
    ["htx", "created", "open"],
    ["htx", "submitted", "open"],
    ["htx", "partial-filled", "open"],
    ["htx", "filled", "closed"],
    ["htx", "canceled", "canceled"],
    // mexc: NEW, FILLED, PARTIALLY_FILLED, CANCELED (PARTIALLY_CANCELED below)
    ["mexc", "NEW", "open"],
    ["mexc", "PARTIALLY_FILLED", "open"],
    ["mexc", "FILLED", "closed"],
    ["mexc", "CANCELED", "canceled"],
    // okx: live, partially_filled, filled, canceled, mmp_canceled
    ["okx", "live", "open"],
    ["okx", "partially_filled", "open"],
    ["okx", "filled", "closed"],
    ["okx", "canceled", "canceled"],
    ["okx", "mmp_canceled", "canceled"],
    // probit: open, filled, cancelled — docs/decisions.md#d9: normalized by the general rule
    ["probit", "open", "open"],
    ["probit", "filled", "closed"],
    ["probit", "cancelled", "canceled"],
    // xt: NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED
    ["xt", "NEW", "open"],
    ["xt", "PARTIALLY_FILLED", "open"],
    ["xt", "FILLED", "closed"],
    ["xt", "CANCELED", "canceled"],
    ["xt", "REJECTED", "canceled"],
    ["xt", "EXPIRED", "canceled"],
  ];
  for (const [exchange, raw, expected] of cases) {
    it(`maps ${exchange} '${raw}' to ${expected} (docs/exchange-rules.md#states)`, () => {
      expect(normalizeStatus(exchange, raw)).toBe(expected);
    });
  }

  it("normalizes probit's statuses by the general rule instead of passing them through (docs/decisions.md#d9)", () => {
    // The seed's "probit passes the raw status string through unchanged" is overridden: a script
    // filtering on `canceled` must work on every exchange.
    expect(normalizeStatus("probit", "cancelled")).toBe("canceled");
    expect(normalizeStatus("probit", "cancelled")).not.toBe("cancelled");
  });
});

describe("docs/exchange-rules.md#states exceptions", () => {
  it("maps htx partial-canceled to open: 'htx: partial-canceled counts as open' (docs/exchange-rules.md#states, docs/decisions.md#d9)", () => {
    expect(normalizeStatus("htx", "partial-canceled")).toBe("open");
  });

  it("maps htx canceling to canceled: 'canceling counts as canceled' (docs/exchange-rules.md#states)", () => {
    expect(normalizeStatus("htx", "canceling")).toBe("canceled");
  });

  it("keeps the htx exceptions on htx only (docs/exchange-rules.md#states)", () => {
    expect(normalizeStatus("okx", "partial-canceled")).toBe("canceled");
    expect(normalizeStatus("okx", "canceling")).toBeUndefined();
  });

  it("maps lbank -1, 3 and 4 to canceled, 0 and 1 to open, 2 to closed (docs/exchange-rules.md#states)", () => {
    expect(normalizeStatus("lbank", -1)).toBe("canceled");
    expect(normalizeStatus("lbank", 3)).toBe("canceled");
    expect(normalizeStatus("lbank", 4)).toBe("canceled");
    expect(normalizeStatus("lbank", 0)).toBe("open");
    expect(normalizeStatus("lbank", 1)).toBe("open");
    expect(normalizeStatus("lbank", 2)).toBe("closed");
    // lbank sends the codes as JSON numbers or strings
    expect(normalizeStatus("lbank", "-1")).toBe("canceled");
    expect(normalizeStatus("lbank", "2")).toBe("closed");
  });

  it("yields undefined for lbank codes and words outside its numeric list (docs/exchange-rules.md#states)", () => {
    expect(normalizeStatus("lbank", 5)).toBeUndefined();
    expect(normalizeStatus("lbank", -2)).toBeUndefined();
    expect(normalizeStatus("lbank", "filled")).toBeUndefined();
  });

  it("maps mexc 'PARTIALLY_CANCELED' to open: 'On the exchange that uses the 'PARTIALLY_CANCELED' variant, that status maps to open' (docs/exchange-rules.md#states, docs/decisions.md#d9)", () => {
    expect(normalizeStatus("mexc", "PARTIALLY_CANCELED")).toBe("open");
  });

  it("maps bybit Triggered to canceled: 'On bybit, triggered counts as canceled' (docs/exchange-rules.md#states)", () => {
    expect(normalizeStatus("bybit", "Triggered")).toBe("canceled");
    // not a general word: elsewhere it is unknown
    expect(normalizeStatus("okx", "Triggered")).toBeUndefined();
  });
});

describe("docs/decisions.md#d19 kucoin derives the status from isActive and cancelExist", () => {
  it("is open while isActive is true, whatever has filled and whatever cancelExist says", () => {
    expect(kucoinStatus({ isActive: true, cancelExist: false })).toBe("open");
    expect(kucoinStatus({ isActive: true, cancelExist: true })).toBe("open");
  });

  it("is canceled when inactive with cancelExist true, filled or not", () => {
    expect(kucoinStatus({ isActive: false, cancelExist: true })).toBe("canceled");
  });

  it("is closed when inactive, not cancelled, nothing filled: not open (docs/decisions.md#d19)", () => {
    expect(kucoinStatus({ isActive: false, cancelExist: false })).toBe("closed");
  });
});
