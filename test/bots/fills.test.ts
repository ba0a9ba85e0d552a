/**
 * docs/bots.md "What each bot did": the PnL of a scripted fill sequence equals a hand computation
 * to the last digit (average cost; fees in the base, the quote and a third currency; a fill through
 * zero; a short covered in part), and the ledger survives a restart's parse.
 */
import { describe, expect, it } from "vitest";
import { Decimal } from "../../lib/decimal.js";
import {
  applyFill,
  type BotFill,
  EMPTY_LEDGER,
  type Ledger,
  markAtMid,
  restoreLedger,
} from "../../server/bots/fills.js";

const fill = (side: BotFill["side"], amount: string, price: string, fee: string, feeCurrency: string): BotFill => ({
  at: 0,
  orderId: "1",
  side,
  price,
  amount,
  fee,
  feeCurrency,
  liquidity: "maker",
});
const run = (fills: BotFill[]): Ledger => fills.reduce((l, f) => applyFill(l, f, "BTC", "USDT"), EMPTY_LEDGER);

const F1 = fill("Buy", "0.5", "100", "0.0005", "BTC");
const F2 = fill("Buy", "1", "110", "0.11", "USDT");
const F3 = fill("Sell", "0.5", "120", "0.06", "USDT");
const F4 = fill("Sell", "1.5", "90", "0.135", "USDT");
const F5 = fill("Buy", "0.2", "95", "0.00001", "BNB");

describe('a bot\'s PnL by average cost (docs/bots.md "What each bot did")', () => {
  it("buys: a base fee lowers the inventory, a quote fee raises the cost", () => {
    // 1. buy 0.5 @ 100, fee 0.0005 BTC: inventory 0.5 − 0.0005 = 0.4995, cost 50, fee worth 0.0005 × 100 = 0.05
    // 2. buy 1 @ 110, fee 0.11 USDT: inventory 1.4995, cost 50 + 110 + 0.11 = 160.11
    expect(run([F1, F2])).toEqual({
      fills: 2,
      inventory: "1.4995",
      cost: "160.11",
      realized: "0",
      volume: "160",
      fees: { BTC: "0.0005", USDT: "0.11" },
      feesInQuote: "0.16",
    });
  });

  it("a sell realizes against the average cost, to 30 decimals half up", () => {
    // 3. sell 0.5 @ 120, fee 0.06 USDT: brings 60 − 0.06 = 59.94; its cost 160.11 × 0.5 ÷ 1.4995
    //    = 80.055 ÷ 1.4995 = 53.387795931977325775258419473158|0… (30 decimals: the 31st is 0)
    //    realized 59.94 − 53.387795931977325775258419473158 = 6.552204068022674224741580526842
    //    cost left 160.11 − 53.387795931977325775258419473158 = 106.722204068022674224741580526842
    expect(run([F1, F2, F3])).toMatchObject({
      inventory: "0.9995",
      cost: "106.722204068022674224741580526842",
      realized: "6.552204068022674224741580526842",
      volume: "220",
      feesInQuote: "0.22",
    });
  });

  it("a sell through zero closes the inventory with its share of the quote and opens a short with the rest", () => {
    // 4. sell 1.5 @ 90, fee 0.135 USDT: brings 135 − 0.135 = 134.865; the 0.9995 held close with
    //    134.865 × 0.9995 ÷ 1.5 = 134.7975675 ÷ 1.5 = 89.865045, realizing
    //    6.552204068022674224741580526842 + 89.865045 − 106.722204068022674224741580526842 = −10.304955;
    //    the 0.5005 sold short received 134.865 − 89.865045 = 44.999955 (cost −44.999955)
    expect(run([F1, F2, F3, F4])).toMatchObject({
      inventory: "-0.5005",
      cost: "-44.999955",
      realized: "-10.304955",
      volume: "355",
      fees: { BTC: "0.0005", USDT: "0.305" },
      feesInQuote: "0.355",
    });
  });

  it("a buy covers part of the short; a fee in a third currency is listed and moves neither; marked at the mid", () => {
    // 5. buy 0.2 @ 95, fee 0.00001 BNB: pays 19; the covered part's cost −44.999955 × 0.2 ÷ 0.5005
    //    = −8.999991 ÷ 0.5005 = −17.982, realizing −19 − (−17.982) = −1.018: −10.304955 − 1.018 = −11.322955;
    //    cost left −44.999955 + 17.982 = −27.017955, inventory −0.3005
    const ledger = run([F1, F2, F3, F4, F5]);
    expect(ledger).toEqual({
      fills: 5,
      inventory: "-0.3005",
      cost: "-27.017955",
      realized: "-11.322955",
      volume: "374",
      fees: { BTC: "0.0005", USDT: "0.305", BNB: "0.00001" },
      feesInQuote: "0.355",
    });
    // at a mid of 97.5: value −0.3005 × 97.5 = −29.29875, unrealized −29.29875 + 27.017955 = −2.280795,
    // pnl −11.322955 − 2.280795 = −13.60375
    const marked = markAtMid(ledger, "97.5");
    expect(marked).toMatchObject({ mid: "97.5", value: "-29.29875", unrealized: "-2.280795", pnl: "-13.60375" });
    // the same result as the quote moved plus the base moved at the mid:
    // quote −50 − 110.11 + 59.94 + 134.865 − 19 = 15.695; base 0.4995 + 1 − 0.5 − 1.5 + 0.2 = −0.3005
    expect(new Decimal("15.695").plus(new Decimal("-0.3005").times("97.5")).toFixed()).toBe(marked.pnl);
  });

  it("closing the whole inventory takes the whole cost: nothing left behind by rounding", () => {
    const ledger = run([
      fill("Buy", "1", "100", "0", "USDT"),
      fill("Buy", "2", "101", "0", "USDT"),
      fill("Sell", "1", "102", "0", "USDT"),
      fill("Sell", "2", "102", "0", "USDT"),
    ]);
    // cost 302 for 3; the first sell's part 302 ÷ 3 = 100.666…667 (rounded), the second takes the rest
    expect(ledger).toMatchObject({ inventory: "0", cost: "0", realized: "4" });
    expect(markAtMid(ledger, "50").pnl).toBe("4");
  });

  it("a stored ledger is read back; a malformed one starts afresh", () => {
    const ledger = run([F1, F2, F3]);
    expect(restoreLedger(JSON.parse(JSON.stringify(ledger)))).toEqual(ledger);
    expect(restoreLedger({ ...ledger, cost: "1e5" })).toEqual(EMPTY_LEDGER);
    expect(restoreLedger(null)).toEqual(EMPTY_LEDGER);
  });
});
