import { describe, expect, it } from "vitest";
import { CATALOGUE, type Operation } from "../../exchanges/catalogue.js";
import { assertBatchSize, assertSupported, isSupported } from "../../exchanges/core/limits.js";
import { ExchangeError } from "../../lib/errors.js";
import { REAL_EXCHANGE_IDS, type RealExchangeId } from "../../lib/types.js";

/** docs/exchange-rules.md#limits, verbatim: exchange | open-orders limit | create batch max | cancel batch max. */
const SEED_TABLE: Record<RealExchangeId, [open: number | "unlimited", create: number, cancel: number]> = {
  bingx: [500, 10, 10],
  bitget: [100, 50, 50],
  bitrue: [0, 0, 0],
  bitmart: [200, 10, 10],
  bitteam: [100, 0, 0],
  bybit: [50, 10, 10],
  coinstore: ["unlimited", 40, 40],
  gate: [100, 10, 20],
  htx: [500, 10, 50],
  kucoin: [500, 5, 0],
  lbank: [200, 0, 0],
  mexc: [500, 20, 0],
  okx: [500, 20, 20],
  probit: ["unlimited", 0, 0],
  xt: ["unlimited", 40, 40],
};

function thrown(fn: () => void): ExchangeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected a throw");
}

describe("docs/exchange-rules.md#limits Business constants and limits", () => {
  it("holds a row for each of the fifteen exchanges (docs/exchange-rules.md#operations)", () => {
    for (const id of REAL_EXCHANGE_IDS) expect(CATALOGUE[id].limits, id).toBeDefined();
  });

  for (const id of REAL_EXCHANGE_IDS) {
    const [open, create, cancel] = SEED_TABLE[id];
    it(`gives ${id} open-orders ${open}, create batch max ${create}, cancel batch max ${cancel} (docs/exchange-rules.md#limits)`, () => {
      // docs/decisions.md#d10: 0 and "unlimited" mean no cap of ours (null).
      expect(CATALOGUE[id].limits.openOrders).toBe(open === "unlimited" || open === 0 ? null : open);
      expect(CATALOGUE[id].limits.createBatch).toBe(create);
      expect(CATALOGUE[id].limits.cancelBatch).toBe(cancel);
    });
  }

  it("treats 'A maximum of 0 means the operation is unsupported' (docs/exchange-rules.md#limits)", () => {
    for (const id of REAL_EXCHANGE_IDS) {
      expect(isSupported(id, "createBatch"), `${id} createBatch`).toBe(CATALOGUE[id].limits.createBatch > 0);
      expect(isSupported(id, "cancelBatch"), `${id} cancelBatch`).toBe(CATALOGUE[id].limits.cancelBatch > 0);
    }
  });

  it("marks 'cancel all: bitrue, coinstore, okx, probit' unsupported, and only those (docs/exchange-rules.md#limits)", () => {
    const unsupported = REAL_EXCHANGE_IDS.filter((id) => !isSupported(id, "cancelAll"));
    expect(unsupported.sort()).toEqual(["bitrue", "coinstore", "okx", "probit"]);
  });

  it("marks 'batch: bitrue, bitteam, lbank, probit' unsupported; gate's batch is supported (docs/exchange-rules.md#limits, docs/decisions.md#d10)", () => {
    const noBatch = REAL_EXCHANGE_IDS.filter((id) => !isSupported(id, "createBatch"));
    expect(noBatch.sort()).toEqual(["bitrue", "bitteam", "lbank", "probit"]);
    expect(isSupported("gate", "createBatch")).toBe(true);
    expect(isSupported("gate", "cancelBatch")).toBe(true);
  });

  it("marks 'cancel batch: kucoin, mexc' unsupported beside the no-batch exchanges (docs/exchange-rules.md#limits)", () => {
    const noCancelBatch = REAL_EXCHANGE_IDS.filter((id) => !isSupported(id, "cancelBatch"));
    expect(noCancelBatch.sort()).toEqual(["bitrue", "bitteam", "kucoin", "lbank", "mexc", "probit"]);
  });

  it("supports the single-order operations everywhere (docs/exchange-rules.md#operations)", () => {
    const always: Operation[] = ["createOrder", "cancelOrder", "fetchOrder", "fetchOpenOrders", "fetchBalances"];
    for (const id of REAL_EXCHANGE_IDS) for (const op of always) expect(isSupported(id, op), `${id} ${op}`).toBe(true);
  });

  it("supports everything on paper", () => {
    for (const op of ["createBatch", "cancelBatch", "cancelAll"] as const) expect(isSupported("paper", op)).toBe(true);
  });
});

describe("docs/exchange-rules.md#validation validation messages", () => {
  it('throws "Not supported for {exchange id}" for an unsupported operation (docs/exchange-rules.md#validation)', () => {
    const error = thrown(() => assertSupported("okx", "cancelAll"));
    expect(error.message).toBe("ExchangeId: okx, msg: Not supported for okx");
    expect(error.detail).toBe("Not supported for okx");
    expect(error.kind).toBe("unsupported");
    expect(() => assertSupported("bybit", "cancelAll")).not.toThrow();
  });

  it("rejects an over-long batch create with \"Maximum for 'createBatch' is: {max}\" (docs/exchange-rules.md#validation)", () => {
    for (const id of REAL_EXCHANGE_IDS) {
      const max = CATALOGUE[id].limits.createBatch;
      if (max === 0) continue;
      expect(() => assertBatchSize(id, "createBatch", max)).not.toThrow();
      const error = thrown(() => assertBatchSize(id, "createBatch", max + 1));
      expect(error.detail).toBe(`Maximum for 'createBatch' is: ${max}`);
      expect(error.message).toBe(`ExchangeId: ${id}, msg: Maximum for 'createBatch' is: ${max}`);
      expect(error.kind).toBe("bad-input");
    }
  });

  it("rejects an over-long batch cancel with \"Maximum for 'cancelBatch' is: {max}\" (docs/exchange-rules.md#validation)", () => {
    expect(() => assertBatchSize("gate", "cancelBatch", 20)).not.toThrow();
    expect(thrown(() => assertBatchSize("gate", "cancelBatch", 21)).detail).toBe("Maximum for 'cancelBatch' is: 20");
    expect(thrown(() => assertBatchSize("htx", "cancelBatch", 51)).detail).toBe("Maximum for 'cancelBatch' is: 50");
  });

  it('answers a batch on an exchange without batches with "Not supported for {exchange id}", not a maximum of 0 (docs/exchange-rules.md#validation, #limits)', () => {
    const error = thrown(() => assertBatchSize("mexc", "cancelBatch", 1));
    expect(error.detail).toBe("Not supported for mexc");
    expect(error.kind).toBe("unsupported");
    expect(thrown(() => assertBatchSize("lbank", "createBatch", 1)).detail).toBe("Not supported for lbank");
  });

  it("rejects an empty batch as bad input, naming the operation", () => {
    const error = thrown(() => assertBatchSize("bybit", "createBatch", 0));
    expect(error.kind).toBe("bad-input");
    expect(error.detail).toBe("Nothing to do: 'createBatch' needs at least one item");
  });

  it("lists as unsupported exactly the batches with a maximum of 0 and the seed's cancel-all exceptions (docs/exchange-rules.md#limits)", () => {
    const noCancelAll = new Set(["bitrue", "coinstore", "okx", "probit"]);
    for (const id of [...REAL_EXCHANGE_IDS, "paper" as const]) {
      const expected = [
        ...(CATALOGUE[id].limits.createBatch === 0 ? ["createBatch"] : []),
        ...(CATALOGUE[id].limits.cancelBatch === 0 ? ["cancelBatch"] : []),
        ...(noCancelAll.has(id) ? ["cancelAll"] : []),
      ];
      expect([...CATALOGUE[id].limits.unsupported].sort(), id).toEqual(expected.sort());
    }
  });
});
