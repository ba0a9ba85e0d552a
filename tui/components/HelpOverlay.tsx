import { Box, Text } from "ink";
import { KEY_BINDINGS } from "../keys.js";
import { useTheme } from "../theme.js";
import { padEnd } from "./layout.js";

/** The help overlay: every key from the one table, two columns when the terminal is wide enough. */
export function HelpOverlay(props: { width: number; height: number }) {
  const theme = useTheme();
  const keyWidth = Math.max(...KEY_BINDINGS.map((b) => b.keys.length)) + 2;
  const whereWidth = 10;
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Text bold>Keys — any key closes this help</Text>
      {KEY_BINDINGS.map((b) => (
        <Text key={`${b.where}-${b.keys}`} wrap="truncate-end">
          <Text color={theme.accent}>{padEnd(b.keys, keyWidth)}</Text>
          <Text color={theme.muted}>{padEnd(b.where, whereWidth)}</Text>
          <Text>{b.does}</Text>
        </Text>
      ))}
    </Box>
  );
}
