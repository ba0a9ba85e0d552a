/** The route files of docs/dashboard-rules.md#screens (docs/dashboard-delivery.md#routes) and the sign-in routes' validated search. */
import { readdirSync, readFileSync } from "node:fs";
import { createMemoryHistory, createRouter } from "@tanstack/react-router";
import { describe, expect, it } from "vitest";
import { isReturnPath, returnSearch, returnToSearchSchema } from "../features/auth/return-to";
import { routeTree } from "../routeTree.gen";

const routesDir = new URL(".", import.meta.url);

describe("routes (docs/dashboard-rules.md#screens)", () => {
  it("has one route per screen of the seed's table", () => {
    const router = createRouter({ routeTree, history: createMemoryHistory() });
    expect(Object.keys(router.routesByPath).sort()).toEqual(
      [
        "/",
        "/apikeys",
        "/c/$queryPath",
        "/login/key",
        "/login/password",
        "/registration",
        "/user/create",
        "/user/edit/$uuid",
        "/users",
      ].sort(),
    );
  });

  it("has the generated tree in step with the files under routes/ (rebuild the web app after adding one)", () => {
    const files = readdirSync(routesDir)
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => f.replace(/\.tsx?$/, ""))
      .sort();
    const generated = readFileSync(new URL("../routeTree.gen.ts", routesDir), "utf8");
    const imported = [...generated.matchAll(/from "\.\/routes\/([^"]+)"/g)].map((m) => m[1]).sort();
    expect(imported).toEqual(files);
  });

  it("accepts only an in-app path as the return path after sign-in", () => {
    expect(isReturnPath("/users")).toBe(true);
    expect(isReturnPath("/c/[Acme][paper][main]")).toBe(true);
    for (const bad of ["/", "//evil.example", "/\\evil", "https://evil.example/", "/login/password", "/registration"])
      expect(isReturnPath(bad)).toBe(false);
    expect(returnToSearchSchema.parse({ redirect: "/users" })).toEqual({ redirect: "/users" });
    expect(returnToSearchSchema.parse({ redirect: "//evil.example" })).toEqual({ redirect: undefined });
    expect(returnToSearchSchema.parse({})).toEqual({});
  });

  it("remembers the page for a lapsed session and a signed-out bookmark alike: 'A signed-out bookmark loses its target and lands on Home' (docs/dashboard.md 'Sessions')", () => {
    expect(returnSearch("/users")).toEqual({ redirect: "/users" });
    expect(returnSearch("/c/%5BDemo%5D%5Bpaper%5D%5Bmain%5D")).toEqual({
      redirect: "/c/%5BDemo%5D%5Bpaper%5D%5Bmain%5D",
    });
    expect(returnSearch("/")).toEqual({});
    expect(returnSearch("//evil.example/x")).toEqual({});
    expect(returnSearch("/login/password")).toEqual({});
  });
});
