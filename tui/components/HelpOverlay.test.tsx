import { afterEach, describe, expect, it } from "vitest";
import { maxLineWidth, type RenderResult, render } from "../../test/tui/render.js";
import { KEY_BINDINGS } from "../keys.js";
import { HelpOverlay } from "./HelpOverlay.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

describe("Help overlay", () => {
  it("lists every key within 80x24", () => {
    screen = render(<HelpOverlay width={80} height={21} />, { columns: 80, rows: 24 });
    const frame = screen.lastFrame();
    for (const b of KEY_BINDINGS) expect(frame).toContain(b.does);
    expect(maxLineWidth(frame)).toBeLessThanOrEqual(80);
    expect(frame.split("\n").length).toBeLessThanOrEqual(21);
  });
});
