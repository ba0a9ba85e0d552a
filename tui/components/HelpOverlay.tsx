import { Box, Text } from "ink";
import { memo } from "react";
import { KEY_BINDINGS } from "../keys.js";
import { useTheme } from "../theme.js";
import { padEnd } from "./layout.js";

const KEY_WIDTH = Math.max(...KEY_BINDINGS.map((b) => b.keys.length)) + 1;

/** The help overlay: every key from the one table, in as many columns as the height needs. */
export const HelpOverlay = memo(function HelpOverlay(props: { width: number; height: number }) {
  const theme = useTheme();
  const columnCount = Math.ceil(KEY_BINDINGS.length / Math.max(1, props.height - 1));
  const perColumn = Math.ceil(KEY_BINDINGS.length / columnCount);
  const columnWidth = Math.floor(props.width / columnCount);
  const groups = Array.from({ length: columnCount }, (_, i) => KEY_BINDINGS.slice(i * perColumn, (i + 1) * perColumn));
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Text bold>Keys (any key closes this help)</Text>
      <Box flexDirection="row">
        {groups.map((group) => (
          <Box key={group[0]?.keys} flexDirection="column" width={columnWidth}>
            {group.map((b) => (
              <Text key={b.keys}>
                <Text color={theme.accent}>{padEnd(b.keys, KEY_WIDTH)}</Text>
                {padEnd(b.does, columnWidth - KEY_WIDTH)}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
});
