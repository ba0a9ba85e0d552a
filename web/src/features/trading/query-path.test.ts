/** PRODUCT D13 links (docs/dashboard-delivery.md#links): /c/{queryPath} encoded once, any name round-trips. */
import { describe, expect, it } from "vitest";
import type { AccountPath } from "../../../../lib/api.js";
import { decodeQueryPath, encodeQueryPath, queryPathHref, queryPathOf } from "./query-path";

describe("/c/{queryPath} (PRODUCT D13)", () => {
  it("encodes each segment once, brackets literal", () => {
    expect(queryPathHref(["Acme Fund", "paper", "main"])).toBe("/c/[Acme%20Fund][paper][main]");
    expect(encodeQueryPath(["50% [A] Ü", "paper", "main"])).toBe("[50%25%20%5BA%5D%20%C3%9C][paper][main]");
  });

  it("round-trips names with %, brackets, spaces and non-ASCII", () => {
    const names: AccountPath[] = [
      ["Acme Fund", "paper", "main"],
      ["50% [A] Ü", "paper", "desk #2"],
      ["a]b[c", "gate", "%25"],
      ["Ünïcødé 日本", "okx", "sub/1?x"],
    ];
    for (const path of names) expect(decodeQueryPath(queryPathOf(queryPathHref(path)) ?? "")).toEqual(path);
  });

  it("reads the raw queryPath of a location href, without search or hash", () => {
    expect(queryPathOf("/c/[A%20B][paper][main]?x=1#top")).toBe("[A%20B][paper][main]");
    expect(queryPathOf("/c/[A][paper][main]/")).toBe("[A][paper][main]");
    expect(queryPathOf("/users")).toBeUndefined();
    expect(queryPathOf("/c/[A]/[paper][main]")).toBeUndefined();
  });

  it("decodes a hand-written single-encoded link, and leaves a broken one empty", () => {
    expect(decodeQueryPath("[Acme%20Fund][paper][main]")).toEqual(["Acme Fund", "paper", "main"]);
    // a double-encoded link is a different name, not silently the same account
    expect(decodeQueryPath("[Acme%2520Fund][paper][main]")).toEqual(["Acme%20Fund", "paper", "main"]);
    expect(decodeQueryPath("[50%][paper][main]")).toBeUndefined();
    expect(decodeQueryPath("[Acme][paper]")).toBeUndefined();
  });
});
