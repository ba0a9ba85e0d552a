/** The central API-error place (STYLE.md): a 602 refreshes the access token and the call is retried once (000 §8). */
import { describe, expect, it, vi } from "vitest";
import { type ApiFailure, createApiClient } from "../../../lib/client.js";
import { recoverFailure, setAccessExpiredHandler } from "./api";

const failure = (code: number): ApiFailure => ({ code, title: "t", method: "GET", path: "/token/clients" });

describe("602 'Need to refresh your Access Token...' (000 §8)", () => {
  it("refreshes the token and asks for one retry", async () => {
    const refresh = vi.fn(async () => true);
    setAccessExpiredHandler(refresh);
    expect(await recoverFailure(failure(602), "clients")).toBe(true);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("does not retry when the refresh fails, for other codes, or for the refresh, profile and logout calls", async () => {
    const refresh = vi.fn(async () => false);
    setAccessExpiredHandler(refresh);
    expect(await recoverFailure(failure(602), "clients")).toBe(false);
    setAccessExpiredHandler(async () => true);
    expect(await recoverFailure(failure(603), "clients")).toBe(false);
    expect(await recoverFailure(failure(607), "clients")).toBe(false);
    for (const route of ["refresh", "me", "logout"] as const)
      expect(await recoverFailure(failure(602), route)).toBe(false);
  });

  it("sends the failed call again with the refreshed token and shows no 602 toast", async () => {
    let token = "expired";
    setAccessExpiredHandler(async () => {
      token = "fresh";
      return true;
    });
    const answers = [
      new Response(JSON.stringify({ code: 602, msg: "x" }), { status: 401 }),
      new Response("{}", { status: 200 }),
    ];
    const fetch = vi.fn(async (_u: string, _i?: RequestInit) => answers.shift() as Response);
    const onFailure = vi.fn();
    const client = createApiClient({
      fetch: fetch as never,
      accessToken: () => token,
      recover: recoverFailure,
      onFailure,
    });
    expect((await client.call("setApiKeys", { body: {} })).ok).toBe(true);
    expect(((fetch.mock.calls[1]?.[1]?.headers ?? {}) as Record<string, string>).authorization).toBe("Bearer fresh");
    expect(onFailure).not.toHaveBeenCalled();
  });
});
