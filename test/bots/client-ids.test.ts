import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { checkClientOrderId } from "../../exchanges/core/client-order-id.js";
import { EXCHANGE_IDS } from "../../lib/types.js";
import { botClientOrderId, botTag, clientIdRule, parseBotClientOrderId } from "../../server/bots/client-ids.js";

/** The bots' ids read each exchange's rule from its info.ts (docs/exchanges.md "What info.ts holds"). */
describe("bot client order ids", () => {
  it("fit every exchange's own client order id check, and read back", () => {
    const tag = botTag("bot-1");
    for (const id of EXCHANGE_IDS) {
      const rule = clientIdRule(id);
      const clientOrderId = botClientOrderId(tag, 513, 7, rule);
      expect(clientOrderId.length, id).toBe(CATALOGUE[id].clientOrderId.length ?? 32);
      expect(checkClientOrderId(id, CATALOGUE[id].clientOrderId, clientOrderId), id).toBe(clientOrderId);
      expect(parseBotClientOrderId(clientOrderId, rule), id).toEqual({ tag, slot: 513, generation: 7 });
    }
  });

  it("take gate's prefix and length, xt's 22, and 32 for an id the catalogue does not know", () => {
    expect(clientIdRule("gate")).toEqual({ prefix: "t-", length: 30 });
    expect(clientIdRule("xt")).toEqual({ length: 22 });
    expect(clientIdRule("okx")).toEqual({ length: 32 });
    expect(clientIdRule("constructor")).toEqual({ length: 32 });
  });
});
