/**
 * Where `serve` keeps its data when no --data-dir is given (server/README.md): SPOTDESK_DATA_DIR, or
 * `server` in the CLI's data directory. A variable set but empty means its default (the XDG Base
 * Directory rule), never a directory relative to wherever serve was started.
 */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultDataDir as paperDataDir } from "../../exchanges/paper/store.js";
import { defaultDataDir } from "../../server/config.js";

describe("the server's default data directory (server/config.ts defaultDataDir)", () => {
  it("is server/ in the CLI's data directory, following XDG_DATA_HOME", () => {
    expect(defaultDataDir({ XDG_DATA_HOME: "/srv/data" }, "linux")).toBe("/srv/data/spotdesk/server");
    expect(defaultDataDir({ XDG_DATA_HOME: "/srv/data" }, "linux")).toBe(
      join(paperDataDir({ XDG_DATA_HOME: "/srv/data" }, "linux"), "server"),
    );
  });

  it("takes XDG_DATA_HOME set but empty as unset: ~/.local/share, not ./spotdesk/server", () => {
    const dir = defaultDataDir({ XDG_DATA_HOME: "" }, "linux");
    expect(isAbsolute(dir)).toBe(true);
    expect(dir).toBe(join(homedir(), ".local", "share", "spotdesk", "server"));
  });

  it("takes LOCALAPPDATA set but empty as unset on Windows", () => {
    expect(defaultDataDir({ LOCALAPPDATA: "" }, "win32")).toMatch(/AppData[/\\]Local[/\\]spotdesk[/\\]server$/);
  });

  it("is SPOTDESK_DATA_DIR itself when that is set", () => {
    expect(defaultDataDir({ SPOTDESK_DATA_DIR: "/tmp/desk", XDG_DATA_HOME: "/srv/data" }, "linux")).toBe("/tmp/desk");
  });
});
