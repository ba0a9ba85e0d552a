/** What a disabled submit button says it waits for (issue 17, docs/dashboard-delivery.md#validation). */
import { describe, expect, it } from "vitest";
import { API_KEY_LABELS, type ApiKeyFields, apiKeyFormSchema } from "../features/apikeys/rules";
import { loginFormSchema } from "../features/auth/rules";
import { listText, waitingFor } from "./SubmitButton";

const full: ApiKeyFields = {
  client: "Acme",
  account: "main",
  pair: "BTC/USDT",
  api: "k",
  secret: "s",
  password: "",
  exchange: "okx",
};

describe("waiting for", () => {
  it("names each refused field in the form's order, and nothing when the form is ready", () => {
    expect(waitingFor(apiKeyFormSchema, full, API_KEY_LABELS)).toEqual([]);
    expect(waitingFor(apiKeyFormSchema, { ...full, client: " ", exchange: "" }, API_KEY_LABELS)).toEqual([
      "Client Name",
      "Exchange",
    ]);
    const login = { email: "a@b", password: "short", code: " ABCD1234 ", createKey: false };
    expect(
      waitingFor(loginFormSchema, login, { email: "a valid e-mail", password: "a password", code: "the code" }),
    ).toEqual(["a valid e-mail", "a password"]);
  });

  it("refuses a pair the server would refuse, with the server's words (lib/schemas.ts envelope pair)", () => {
    for (const pair of ["BTCUSDT", "BTC-USDT", "BTC/", "BTC/USDT/X"]) {
      const r = apiKeyFormSchema.safeParse({ ...full, pair });
      expect(r.success, pair).toBe(false);
      expect(r.error?.issues[0]?.message).toBe("Write the pair as BASE/QUOTE, for example BTC/USDT");
      expect(waitingFor(apiKeyFormSchema, { ...full, pair }, API_KEY_LABELS)).toEqual(["a pair such as BTC/USDT"]);
    }
    expect(apiKeyFormSchema.safeParse({ ...full, pair: " eth/usdt " }).success).toBe(true);
  });

  it("joins the list in words", () => {
    expect(listText(["a"])).toBe("a");
    expect(listText(["a", "b"])).toBe("a and b");
    expect(listText(["a", "b", "c"])).toBe("a, b and c");
  });
});
