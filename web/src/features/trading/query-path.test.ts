/** docs/decisions.md#d13 links (docs/dashboard-delivery.md#links): /c/{queryPath} encoded once, any name round-trips. */
import { createMemoryHistory, createRouter } from "@tanstack/react-router";
import { describe, expect, it } from "vitest";
import type { AccountPath } from "../../../../lib/api.js";
import { routeTree } from "../../routeTree.gen";
import { decodeQueryPath, encodeQueryPath, queryPathHref, queryPathRewrite } from "./query-path";

const NAMES: AccountPath[] = [
  ["Acme Fund", "paper", "main"],
  ["50% [A] Ü", "paper", "desk #2"],
  ["a]b[c", "gate", "%25"],
  ["Ünïcødé 日本", "okx", "sub/1?x\\y"],
];

/** The app's router (web/src/router.tsx's options) on an in-memory history at `href`. */
function routerAt(href: string) {
  return createRouter({
    routeTree,
    rewrite: queryPathRewrite,
    history: createMemoryHistory({ initialEntries: [href] }),
  });
}

describe("/c/{queryPath} (docs/decisions.md#d13)", () => {
  it("encodes each segment once, brackets literal", () => {
    expect(queryPathHref(["Acme Fund", "paper", "main"])).toBe("/c/[Acme%20Fund][paper][main]");
    expect(encodeQueryPath(["50% [A] Ü", "paper", "main"])).toBe("[50%25%20%5BA%5D%20%C3%9C][paper][main]");
  });

  it("round-trips names with %, brackets, spaces, slashes and non-ASCII", () => {
    for (const path of NAMES) expect(decodeQueryPath(encodeQueryPath(path))).toEqual(path);
  });

  it("builds a link's href as the encoded-once address, through the router (no %2520)", () => {
    const router = routerAt("/");
    for (const path of NAMES) {
      const built = router.buildLocation({ to: "/c/$queryPath", params: { queryPath: encodeQueryPath(path) } });
      expect(built.publicHref).toBe(queryPathHref(path));
    }
  });

  it("hands the view the queryPath of the address as it is, so it decodes to the same names", () => {
    for (const path of NAMES) {
      const router = routerAt(queryPathHref(path));
      const location = router.parseLocation(router.history.location);
      expect(location.publicHref).toBe(queryPathHref(path));
      const [, params, route] = router.getMatchedRoutes(location.pathname);
      expect(route?.id).toBe("/_auth/c/$queryPath");
      expect(params.queryPath).toBe(encodeQueryPath(path));
      expect(decodeQueryPath(params.queryPath as string)).toEqual(path);
      // the address the router would settle on is the one it was given: no rewrite of the address bar
      const canonical = router.buildLocation({ to: location.pathname, params: true, search: true, hash: true });
      expect(canonical.publicHref).toBe(queryPathHref(path));
    }
  });

  it("leaves other paths alone", () => {
    expect(queryPathRewrite.input({ url: new URL("http://x/users?a=%20") })).toBeUndefined();
    expect(queryPathRewrite.output({ url: new URL("http://x/user/edit/%2520") })).toBeUndefined();
    expect(routerAt("/users").buildLocation({ to: "/user/edit/$uuid", params: { uuid: "a b" } }).publicHref).toBe(
      "/user/edit/a%20b",
    );
  });

  it("decodes a hand-written single-encoded link, and leaves a broken one empty", () => {
    expect(decodeQueryPath("[Acme%20Fund][paper][main]")).toEqual(["Acme Fund", "paper", "main"]);
    // a double-encoded link is a different name, not silently the same account
    expect(decodeQueryPath("[Acme%2520Fund][paper][main]")).toEqual(["Acme%20Fund", "paper", "main"]);
    expect(decodeQueryPath("[50%][paper][main]")).toBeUndefined();
    expect(decodeQueryPath("[50%25%20[A]][paper][main]")).toBeUndefined();
    expect(decodeQueryPath("[Acme][paper]")).toBeUndefined();
  });
});
