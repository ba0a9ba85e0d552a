/**
 * Child process of test/tui/line-cache.test.ts: what Ink's line cache (patches/ink+6.8.0.patch,
 * docs/tui-memory.md "Ink's frame output") holds per styled character it keeps. Renders frames of
 * coloured lines never drawn before, fewer in all than the cache keeps, and prints one JSON line:
 * the heap kept after forced collections before and after them, and how many characters those
 * lines have.
 *
 *     FORCE_COLOR=1 node --expose-gc --import tsx test/tui/line-cache-heap.tsx [frames] [rows] [width]
 */
import { Box, render, Text } from "ink";
import { nullTerminal, settledHeap, turn } from "./null-terminal.js";

const [frames = 40, rows = 40, width = 60] = process.argv.slice(2).map(Number);

/** A row as a price ladder has them: digits, a separator, a side's colour; `frame` makes it new. */
const rowText = (frame: number, row: number) =>
  `${(63_000 + frame * rows + row).toLocaleString("en-US")}.50 ${String(frame * 7 + row).padStart(8, "0")} `
    .repeat(4)
    .slice(0, width);

function Frame({ frame }: { frame: number }) {
  return (
    <Box flexDirection="column">
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on the screen
        <Text key={row} color={row % 2 ? "red" : "green"}>
          {rowText(frame, row)}
        </Text>
      ))}
    </Box>
  );
}

const { stdout, options } = nullTerminal(width, rows + 2);
// frame -1 warms Ink, React and the JIT up with lines of its own
const instance = render(<Frame frame={-1} />, options);
await turn();
const before = settledHeap();
for (let frame = 0; frame < frames; frame++) {
  instance.rerender(<Frame frame={frame} />);
  await turn();
}
const after = settledHeap();
instance.unmount();
instance.cleanup();
process.stdout.write(
  `${JSON.stringify({ lines: frames * rows, chars: frames * rows * width, before, after, bytesWritten: stdout.bytes })}\n`,
);
