import { type AnsiCode, reduceAnsiCodes, styledCharsFromTokens, tokenize } from "@alcalzone/ansi-tokenize";
import chalk from "chalk";
import { Box, Text } from "ink";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { render } from "./render.js";

/**
 * patches/ink+6.8.0.patch keeps styled lines across frames and skips the style diff between
 * characters of one run (docs/tui-memory.md "Ink's frame output"). What a terminal shows must not
 * change: each character keeps exactly its own styles, none leaks into the next cell, and every
 * line ends with no style open. Checked by reading the raw frames back with ansi-tokenize.
 */
/** The style codes in effect on each visible character of a raw line. */
function styledLine(line: string): { value: string; codes: string[] }[] {
  return styledCharsFromTokens(tokenize(line)).map((c) => ({ value: c.value, codes: c.styles.map((s) => s.code) }));
}
const codesOf = (line: string, char: string) =>
  styledLine(line)
    .find((c) => c.value === char)
    ?.codes.sort();
const openAtEnd = (line: string) =>
  reduceAnsiCodes(tokenize(line).filter((t): t is AnsiCode => t.type === "ansi")).map((c) => c.code);

function Ladder({ prices, bold }: { prices: string[]; bold: number }) {
  return (
    <Box flexDirection="column">
      {prices.map((price, i) => (
        <Box key={price}>
          <Box width={12} justifyContent="flex-end">
            <Text color={i % 2 ? "red" : "green"} bold={i === bold}>
              {price}
            </Text>
          </Box>
          <Box width={3} />
          <Text inverse={i === bold}>{`◂ ${i}`}</Text>
          <Text color="yellow">{"Σ"}</Text>
          <Text dimColor>{"·"}</Text>
        </Box>
      ))}
      <Box width={10} overflow="hidden">
        <Box width={36} flexShrink={0}>
          <Text color="cyan">{"clipped text that runs past its box"}</Text>
        </Box>
      </Box>
    </Box>
  );
}

const chalkLevel = chalk.level;
beforeEach(() => {
  chalk.level = 1; // colours written, as on a terminal
});
afterEach(() => {
  chalk.level = chalkLevel;
});

describe("Ink's frame output (patched)", () => {
  it("draws each character in its own styles, frame after frame, and closes every line", () => {
    const prices = ["64,621.00", "64,620.50", "64,620.00", "64,619.50"];
    const screen = render(<Ladder prices={prices} bold={1} />, { columns: 40, rows: 10, noColor: false });
    try {
      const frames: string[] = [];
      for (let frame = 0; frame < 8; frame++) {
        const bold = frame % 4;
        screen.instance.rerender(<Ladder prices={prices} bold={bold} />);
        const raw = screen.lastRawFrame();
        frames.push(raw);
        const lines = raw.split("\n");
        prices.forEach((price, i) => {
          const line = lines[i]!;
          const colour = i % 2 ? "\u001b[31m" : "\u001b[32m";
          expect(codesOf(line, price[0]!)).toEqual(i === bold ? ["\u001b[1m", colour] : [colour]);
          expect(codesOf(line, "◂")).toEqual(i === bold ? ["\u001b[7m"] : []);
          expect(codesOf(line, "Σ")).toEqual(["\u001b[33m"]);
          expect(codesOf(line, "·")).toEqual(["\u001b[2m"]);
        });
        for (const line of lines) expect(openAtEnd(line)).toEqual([]);
        expect(codesOf(lines[4]!, "c")).toEqual(["\u001b[36m"]);
      }
      // the same screen drawn again is the same string, whatever the caches held
      screen.instance.rerender(<Ladder prices={prices} bold={1} />);
      expect(screen.lastRawFrame()).toBe(frames[1]);
      expect(screen.lastFrame()).toContain("clipped te");
      expect(screen.lastFrame()).not.toContain("clipped text");
    } finally {
      screen.unmount();
    }
  });
});
