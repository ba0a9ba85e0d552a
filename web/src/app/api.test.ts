/** The one place API errors are handled (web/src/app/api.ts): a 602 refreshes the access token and the call is retried once (docs/api.md#errors). */
import { describe, expect, it, vi } from "vitest";
import { type ApiFailure, createApiClient } from "../../../lib/client.js";
import { recoverFailure, SUCCESS_TEXT, sessionEndOf, setAccessExpiredHandler, successTitle } from "./api";
import { toastId } from "./events";

const failure = (code: number): ApiFailure => ({ code, title: "t", method: "GET", path: "/token/clients" });

describe("602 'Need to refresh your Access Token...' (docs/api.md#errors)", () => {
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

describe('toasts that inform without covering (docs/dashboard.md "Toasts")', () => {
  it("names a successful call in words, never by method and path", () => {
    expect(successTitle("changeScope")).toBe("User scope changed");
    expect(successTitle("removeUser")).toBe("User removed");
    expect(successTitle("setApiKeys")).toBe("API key saved");
    for (const text of Object.values(SUCCESS_TEXT)) expect(text).not.toMatch(/^(Success|POST|PUT|DELETE)|\/token\//);
  });

  it("gives the same toast the same place, so a repeated error replaces its twin", () => {
    const down = { kind: "error" as const, title: "WebSocket Error", description: '{"type":"error"}' };
    expect(toastId(down)).toBe(toastId({ ...down }));
    expect(toastId(down)).not.toBe(toastId({ ...down, description: "other" }));
    expect(toastId({ kind: "success", title: "Connected", id: "live-channel" })).toBe(
      toastId({ kind: "success", title: "Subscribed", description: "For channel 'sub_for_bots'", id: "live-channel" }),
    );
  });
});

describe('the end of a session (docs/dashboard.md "Sessions")', () => {
  it("ends on 603 (expired), 607 and a 606 on a signed-in call (revoked); not on other failures", () => {
    expect(sessionEndOf(failure(603))).toBe("expired");
    expect(sessionEndOf(failure(607))).toBe("revoked");
    expect(sessionEndOf(failure(606))).toBe("revoked");
    expect(sessionEndOf({ ...failure(606), path: "/code" })).toBeUndefined();
    expect(sessionEndOf(failure(600))).toBeUndefined();
    expect(sessionEndOf(failure(602))).toBeUndefined();
  });
});
