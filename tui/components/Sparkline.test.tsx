import { afterEach, describe, expect, it } from "vitest";
import { type RenderResult, render } from "../../test/tui/render.js";
import { Sparkline, sparkline } from "./Sparkline.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

describe("Sparkline of recent mid prices", () => {
  it("scales between the lowest and highest mid", () => {
    expect(sparkline(["100", "101", "102", "103", "104", "105", "106", "107"], 8)).toBe("▁▂▃▄▅▆▇█");
    expect(sparkline(["5", "5", "5"], 8)).toBe("▄▄▄");
  });

  it("keeps the most recent values that fit", () => {
    screen = render(<Sparkline mids={["1", "2", "3", "1", "3"]} width={3} />);
    expect(screen.lastFrame()).toBe("█▁█");
  });
});
