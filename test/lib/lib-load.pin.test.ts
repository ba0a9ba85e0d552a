/**
 * Every module of lib/ loads (docs/mutation.md "A mutant that stops a module from loading reads as
 * survived"): imported inside a test, a module whose top-level code throws fails here, by name,
 * instead of failing to load the suites that import it (which the mutation runner counts as no failing test).
 */
import { describe, expect, it } from "vitest";

describe("lib modules load", () => {
  it("loads the schemas with every bot schema built", async () => {
    const schemas = await import("../../lib/schemas.js");
    expect(Object.keys(schemas.BOT_SCHEMAS)).toHaveLength(7);
    expect(schemas.gridBotSchema.safeParse({ pair: "A/B", quote: 1, size: 2 }).success).toBe(true);
  });

  it("loads the API contract and the client", async () => {
    const api = await import("../../lib/api.js");
    const client = await import("../../lib/client.js");
    expect(Object.keys(api.ROUTES).length).toBeGreaterThan(30);
    expect(typeof client.createApiClient).toBe("function");
  });
});
