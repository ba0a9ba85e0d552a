import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { storeDir } from "../../cli/store.js";

const saved = process.env.XDG_CONFIG_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = saved;
});

/** The credential store's directory through env-paths: the same paths as before it (README "Files"). */
describe.runIf(process.platform === "linux")("the credential store's directory", () => {
  it("is SPOTDESK_CONFIG_DIR when set", () => {
    expect(storeDir({ SPOTDESK_CONFIG_DIR: "/srv/desk" })).toBe("/srv/desk");
  });

  it("is $XDG_CONFIG_HOME/spotdesk, else ~/.config/spotdesk, with no suffix", () => {
    process.env.XDG_CONFIG_HOME = "/tmp/xdg-config";
    expect(storeDir({})).toBe("/tmp/xdg-config/spotdesk");
    delete process.env.XDG_CONFIG_HOME;
    expect(storeDir({})).toBe(join(homedir(), ".config", "spotdesk"));
    process.env.XDG_CONFIG_HOME = "";
    expect(storeDir({})).toBe(join(homedir(), ".config", "spotdesk"));
  });
});
