/** docs/dashboard-rules.md#screens, #states, #validation, #constants rules of the dashboard, where they live (the components only call them). */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AccountAnswer } from "../../lib/api.js";
import { resolveColorMode } from "./app/color-mode";
import { AWAKE_TOAST, awakeToast, listen, TOAST_POSITION, TOAST_VISIBLE, type ToastEvent } from "./app/events";
import { liveMessageAction, liveUrl, subscribeMessage } from "./app/live";
import { MIN_REFRESH_DELAY_MS, REFRESH_MARGIN_MS, refreshDelay, refreshRetryDelay } from "./app/session";
import { STORAGE } from "./app/storage";
import { ClientMultiSelect } from "./components/ClientMultiSelect";
import { addListItem, EMPTY_LIST_TEXT, numberOnBlur, removeListItem, reportRange } from "./components/inputs";
import { ListEditor } from "./components/ListEditor";
import { type ApiKeyFields, canDelete, canSubmitApiKeys, PASSPHRASE_HINT } from "./features/apikeys/rules";
import { EmailField } from "./features/auth/EmailField";
import {
  canKeyLogin,
  canSendCode,
  canSubmit,
  effectivePassword,
  isValidCode,
  isValidEmail,
  isValidPassword,
} from "./features/auth/rules";
import { WEBAUTHN_ALGORITHMS, WEBAUTHN_TIMEOUT_MS } from "./features/auth/webauthn";
import { Avatar } from "./features/home/Avatar";
import { botLetter, groupClients } from "./features/home/filters";
import { EXIT_QUESTION, EXIT_TOOLTIP } from "./features/layout/ExitDialog";
import { enteredKey, enteredKeyError } from "./features/layout/key-rules";
import { NOT_FOUND_TEXT } from "./features/layout/NotFound";
import { navFor } from "./features/layout/nav";
import { decodeQueryPath, encodeQueryPath } from "./features/trading/query-path";
import { canChangeScope, canPermitLogin, scopeFromSelection, scopeText } from "./features/users/rules";

describe("sign-in rules (docs/dashboard-rules.md#validation)", () => {
  it("accepts a standard e-mail, trimmed; refuses others", () => {
    expect(isValidEmail("  ann@example.com ")).toBe(true);
    expect(isValidEmail("ann@example")).toBe(false);
    expect(isValidEmail("ann example.com")).toBe(false);
  });
  // The 500 ms debounce (docs/dashboard-rules.md#constants) runs in Chromium: test/web/live-channel.test.ts.
  it("shows a green dot for a valid e-mail and a red one otherwise (docs/dashboard-rules.md#validation)", () => {
    const ok = renderToStaticMarkup(<EmailField value="a@b.co" settled="a@b.co" onChange={() => {}} />);
    const bad = renderToStaticMarkup(<EmailField value="a@b" settled="a@b" onChange={() => {}} />);
    expect(ok).toContain('class="dot ok"');
    expect(bad).toContain('class="dot bad"');
  });
  it("needs a password of at least 8 characters", () => {
    expect(isValidPassword("1234567")).toBe(false);
    expect(isValidPassword("12345678")).toBe(true);
  });
  it("needs a code of exactly 8 characters", () => {
    expect(isValidCode("ABCDEFG")).toBe(false);
    expect(isValidCode("ABCDEFGH")).toBe(true);
    expect(isValidCode("ABCDEFGHJ")).toBe(false);
  });
  it("treats the password as empty when the repeat does not match (registration)", () => {
    expect(effectivePassword("password1", "password2")).toBe("");
    expect(effectivePassword("password1", "password1")).toBe("password1");
    expect(
      canSubmit({ email: "a@b.co", password: effectivePassword("password1", "password2"), code: "ABCDEFGH" }),
    ).toBe(false);
  });
  it("enables Submit only when e-mail, password and code are all valid", () => {
    expect(canSubmit({ email: "a@b.co", password: "12345678", code: "ABCDEFGH" })).toBe(true);
    expect(canSubmit({ email: "a@b", password: "12345678", code: "ABCDEFGH" })).toBe(false);
    expect(canSubmit({ email: "a@b.co", password: "1234567", code: "ABCDEFGH" })).toBe(false);
    expect(canSubmit({ email: "a@b.co", password: "12345678", code: "ABC" })).toBe(false);
  });
  it("enables Send code only with a valid e-mail", () => {
    expect(canSendCode("a@b.co")).toBe(true);
    expect(canSendCode("a@")).toBe(false);
  });
  it("needs a valid e-mail and at least one credential for a key login", () => {
    expect(canKeyLogin("a@b.co", ["id1"])).toBe(true);
    expect(canKeyLogin("a@b.co", [])).toBe(false);
    expect(canKeyLogin("a@b", ["id1"])).toBe(false);
  });
  it("creates public keys with a 30 s time-out and algorithms -8, -7, -257 (docs/api.md#calls)", () => {
    expect(WEBAUTHN_TIMEOUT_MS).toBe(30_000);
    expect([...WEBAUTHN_ALGORITHMS]).toEqual([-8, -7, -257]);
  });
});

describe("session (docs/dashboard-rules.md#states, #constants)", () => {
  it("tries a refresh without an answer again after 1 s, doubling to 30 s: 'one failed token refresh is never retried' (docs/dashboard.md 'Sessions')", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(refreshRetryDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
  it("refreshes the access token 3 minutes before it expires", () => {
    expect(REFRESH_MARGIN_MS).toBe(180_000);
    expect(refreshDelay(1_000_000, 500_000)).toBe(320_000);
    expect(refreshDelay(15 * 60_000, 0)).toBe(12 * 60_000);
  });
  it("refreshes a token shorter-lived than twice the margin at half its life, never sooner than 5 s (docs/dashboard.md)", () => {
    expect(refreshDelay(6 * 60_000, 0)).toBe(3 * 60_000); // both rules meet at twice the margin
    expect(refreshDelay(60_000, 0)).toBe(30_000);
    expect(refreshDelay(1_000_000, 900_000)).toBe(50_000);
    expect(refreshDelay(4_000, 0)).toBe(MIN_REFRESH_DELAY_MS);
    expect(refreshDelay(0, 10_000)).toBe(MIN_REFRESH_DELAY_MS); // already expired: no loop either
  });
  it("uses the seed's local-storage names exactly (docs/dashboard-rules.md#entities, docs/decisions.md#d17)", () => {
    expect(Object.values(STORAGE).sort()).toEqual(
      [
        "userId",
        "uicolor",
        "viewport",
        "WAEnabled",
        "refreshTokenExpiry",
        "exchangeFilter",
        "clientFilter",
        "panel_state",
      ].sort(),
    );
  });
});

describe("colour mode (docs/dashboard-rules.md#overview, #constants)", () => {
  it("is dark by default, follows the system, and a stored choice wins", () => {
    expect(resolveColorMode(null, undefined)).toBe("dark");
    expect(resolveColorMode(null, true)).toBe("light");
    expect(resolveColorMode("dark", true)).toBe("dark");
    expect(resolveColorMode("light", false)).toBe("light");
  });
});

describe("toasts (docs/dashboard-rules.md#constants, docs/decisions.md#d17)", () => {
  // How long success and info toasts stay (docs/dashboard-rules.md#constants) is run in Chromium: test/web/live-channel.test.ts.
  it("at most 4, top-left", () => {
    expect(TOAST_VISIBLE).toBe(4);
    expect(TOAST_POSITION).toBe("top-left");
  });
  it("are raised through the AWAKE_TOAST app event", () => {
    const seen: ToastEvent[] = [];
    const off = listen<ToastEvent>(AWAKE_TOAST, (t) => seen.push(t));
    awakeToast("info", "Disconnected", "With code: 1006");
    off();
    expect(AWAKE_TOAST).toBe("AWAKE_TOAST");
    expect(seen).toEqual([{ kind: "info", title: "Disconnected", description: "With code: 1006" }]);
  });
});

describe("live channel (docs/dashboard-rules.md#states, docs/api.md#calls)", () => {
  // The 15 s keep-alive and reconnect (docs/dashboard-rules.md#states) run in Chromium: test/web/live-channel.test.ts.
  it("subscribes with {purpose:'sub_for_bots', userId, token}", () => {
    expect(JSON.parse(subscribeMessage("u1", "t1"))).toEqual({ purpose: "sub_for_bots", userId: "u1", token: "t1" });
  });
  it("ignores 'ping' and 'pong'", () => {
    expect(liveMessageAction("ping")).toEqual({ kind: "ignore" });
    expect(liveMessageAction("pong")).toEqual({ kind: "ignore" });
  });
  it("toasts 'Subscribed' or 'Not subscribed' with \"For channel '{purpose}'\"", () => {
    expect(liveMessageAction(JSON.stringify({ purpose: "sub_for_bots", result: true }))).toEqual({
      kind: "toast",
      toast: "success",
      title: "Subscribed",
      description: "For channel 'sub_for_bots'",
    });
    expect(liveMessageAction(JSON.stringify({ purpose: "sub_for_bots", result: false }))).toEqual({
      kind: "toast",
      toast: "error",
      title: "Not subscribed",
      description: "For channel 'sub_for_bots'",
    });
  });
  it("re-broadcasts other messages as an app event named by the type (snapshot, delta)", () => {
    expect(liveMessageAction(JSON.stringify({ type: "snapshot", data: [1] }))).toEqual({
      kind: "event",
      name: "snapshot",
      data: [1],
    });
    expect(liveMessageAction(JSON.stringify({ type: "delta", data: { botId: "b" } }))).toEqual({
      kind: "event",
      name: "delta",
      data: { botId: "b" },
    });
  });
  it("connects to the backend host with no path, wss under https", () => {
    expect(liveUrl({ protocol: "https:", host: "desk.example:443" })).toBe("wss://desk.example:443/");
    expect(liveUrl({ protocol: "http:", host: "localhost:8787" })).toBe("ws://localhost:8787/");
  });
});

describe("routes and header (docs/dashboard-rules.md#screens, docs/decisions.md#d5, #d13)", () => {
  it("titles the not-found screen 'Page not found ;('", () => expect(NOT_FOUND_TEXT).toBe("Page not found ;("));
  it("decodes /c/{queryPath} to exactly 3 parts or nothing", () => {
    expect(decodeQueryPath("[Demo][paper][main]")).toEqual(["Demo", "paper", "main"]);
    expect(decodeQueryPath(encodeQueryPath(["A]c[me", "paper", "sub 1"]))).toEqual(["A]c[me", "paper", "sub 1"]);
    expect(decodeQueryPath("[Demo][paper]")).toBeUndefined();
    expect(decodeQueryPath("[a][b][c][d]")).toBeUndefined();
    expect(decodeQueryPath("[a][b][c]x")).toBeUndefined();
    expect(decodeQueryPath("Demo/paper/main")).toBeUndefined();
  });
  it("disables the current page, hides admin navigation from others and sign-in entries from the signed-in", () => {
    expect(navFor("/", false, false).map((i) => i.label)).toEqual(["Home", "Login", "Register"]);
    expect(navFor("/", false, true).map((i) => i.label)).toEqual(["Home"]);
    const admin = navFor("/users", true, true);
    expect(admin.map((i) => i.label)).toEqual(["Home", "API Keys Manager", "Users Manager"]);
    expect(admin.filter((i) => i.current).map((i) => i.label)).toEqual(["Users Manager"]);
  });
  it("has the exit dialog's texts", () => {
    expect(EXIT_QUESTION).toBe("Are you sure you want to exit?");
    expect(EXIT_TOOLTIP).toBe("This action will remove all your session data in current website");
  });
  it("accepts an entered encryption key of 16, 24 or 32 characters, or a generated key's 64 hex (docs/dashboard-rules.md#validation, docs/decisions.md#d36)", () => {
    for (const n of [16, 24, 32]) expect(enteredKeyError("x".repeat(n))).toBeUndefined();
    for (const n of [0, 15, 17, 31, 33, 64]) expect(enteredKeyError("x".repeat(n))).toBeDefined();
    // "It is 64 hex characters; the key box takes only 16, 24 or 32, so Save stays disabled"
    const generated = "0123456789abcdef".repeat(4);
    expect(enteredKeyError(generated)).toBeUndefined();
    expect(enteredKey(generated.toUpperCase())).toBe(generated);
    expect(enteredKeyError(`${generated.slice(1)}x`)).toBe(
      "Encryption key must be 16, 24 or 32 characters, or the 64 hex characters of a generated key",
    );
  });
});

describe("home (docs/dashboard-rules.md#screens)", () => {
  const acc = (client: string, exchange: string, bots: string[] = []): AccountAnswer => ({
    path: [client, exchange, "main"],
    client,
    exchange,
    account: "main",
    pair: "BTC/USDT",
    active: true,
    bots: bots.map((b, i) => ({ botId: String(i), botType: b })),
  });
  it("filters clients by name and accounts by exchange", () => {
    const accounts = [acc("Acme", "paper"), acc("Acme", "okx"), acc("Demo", "paper")];
    expect(groupClients(["Acme", "Demo"], accounts, "ac", "").map((g) => g.client)).toEqual(["Acme"]);
    const okx = groupClients(["Acme", "Demo"], accounts, "", "okx");
    expect(okx.map((g) => [g.client, g.accounts.length])).toEqual([["Acme", 1]]);
  });
  it("shows the status letters F, G, V, HV, SD, CC", () => {
    expect(
      [
        "floating-bot",
        "grid-bot",
        "volume-bot",
        "heavy-volume-bot",
        "spread-decompression-bot",
        "candle-closer-bot",
      ].map(botLetter),
    ).toEqual(["F", "G", "V", "HV", "SD", "CC"]);
  });
  it("draws a round 32 px avatar (8 cells, scale 4) from the client name", () => {
    const html = renderToStaticMarkup(<Avatar name="Acme" />);
    expect(html).toContain('width="32"');
    expect(html).toContain('viewBox="0 0 8 8"');
    expect(html).toBe(renderToStaticMarkup(<Avatar name="Acme" />));
  });
});

describe("API keys (docs/dashboard-rules.md#screens, #validation)", () => {
  const full: ApiKeyFields = {
    client: "Acme",
    account: "main",
    pair: "BTC/USDT",
    api: "k",
    secret: "s",
    password: "",
    exchange: "okx",
  };
  it("enables Submit only when client, sub account, pair, api key, secret and exchange are filled; passphrase optional", () => {
    expect(canSubmitApiKeys(full)).toBe(true);
    for (const f of ["client", "account", "pair", "api", "secret", "exchange"] as const)
      expect(canSubmitApiKeys({ ...full, [f]: " " })).toBe(false);
  });
  it("hints that the passphrase is needed for Bitmart, Bitget, Kucoin, OKX", () => {
    expect(PASSPHRASE_HINT).toBe("Needed for Bitmart, Bitget, Kucoin, OKX");
  });
  it("keeps Delete disabled until a path is chosen", () => {
    expect(canDelete(undefined)).toBe(false);
    expect(canDelete(["a", "b", "c"])).toBe(true);
  });
});

describe("users (docs/dashboard-rules.md#screens, #validation)", () => {
  it("shows the scope as the word all or the list joined", () => {
    expect(scopeText("all")).toBe("all");
    expect(scopeText(["Acme", "Demo"])).toBe("Acme, Demo");
  });
  it("turns a selection of exactly all clients into scope all", () => {
    expect(scopeFromSelection(["Demo", "Acme"], ["Acme", "Demo"])).toBe("all");
    expect(scopeFromSelection(["Acme"], ["Acme", "Demo"])).toEqual(["Acme"]);
  });
  it("enables Permit login only with a valid e-mail and at least one client", () => {
    expect(canPermitLogin("a@b.co", ["Acme"])).toBe(true);
    expect(canPermitLogin("a@b.co", [])).toBe(false);
    expect(canPermitLogin("a@b", ["Acme"])).toBe(false);
  });
  it("enables Change scope only with a loaded user and at least one client", () => {
    expect(canChangeScope(true, ["Acme"])).toBe(true);
    expect(canChangeScope(false, ["Acme"])).toBe(false);
    expect(canChangeScope(true, [])).toBe(false);
  });
  it("lists clients as checkboxes", () => {
    const html = renderToStaticMarkup(
      <ClientMultiSelect clients={["Acme", "Demo"]} selected={["Acme"]} onChange={() => {}} />,
    );
    expect(html.match(/type="checkbox"/g)).toHaveLength(2);
    expect(html).toMatch(/checked=""[^>]*\/?>\s*<span>Acme/);
  });
});

describe("shared inputs (docs/dashboard-rules.md#screens, #validation)", () => {
  it("shows 'No items added to the group' for an empty list", () => {
    expect(EMPTY_LIST_TEXT).toBe("No items added to the group");
    expect(renderToStaticMarkup(<ListEditor label="Pairs" items={[]} onChange={() => {}} />)).toContain(
      "No items added to the group",
    );
  });
  it("trims and de-duplicates list items and refuses an empty one", () => {
    expect(addListItem(["BTC"], "  ETH ")).toEqual(["BTC", "ETH"]);
    expect(addListItem(["BTC"], " BTC ")).toEqual(["BTC"]);
    expect(addListItem(["BTC"], "   ")).toEqual(["BTC"]);
    expect(removeListItem(["BTC", "ETH"], "BTC")).toEqual(["ETH"]);
  });
  it("reports a range only when both min and max are set", () => {
    expect(reportRange("1", "")).toBeUndefined();
    expect(reportRange("", "2")).toBeUndefined();
    expect(reportRange("1,5", "2")).toEqual({ min: "1.5", max: "2" });
  });
  it("converts a comma to a dot and reverts invalid input on blur", () => {
    expect(numberOnBlur("-12,5", "3")).toBe("-12.5");
    expect(numberOnBlur("12a", "3")).toBe("3");
    expect(numberOnBlur("1.2.3", "3")).toBe("3");
    expect(numberOnBlur(",5", "3")).toBe(".5");
  });
});
