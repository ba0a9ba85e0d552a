import { Box, Text } from "ink";
import { memo } from "react";
import { windowStart } from "../orders-view.js";
import { useTheme } from "../theme.js";
import { padEnd } from "./layout.js";

export interface PickerItem {
  value: string;
  label: string;
}

export interface PickerProps {
  title: string;
  query: string;
  items: readonly PickerItem[];
  selectedIndex: number;
  /** the value on screen now, marked in the list */
  current: string;
  width: number;
  height: number;
  /** when true, Enter on a query that matches nothing takes the typed text (pairs, new paper accounts) */
  allowFreeText: boolean;
}

/** The exchange, account and pair switchers: a filter line and a list. */
export const Picker = memo(function Picker(props: PickerProps) {
  const theme = useTheme();
  const rows = Math.max(1, props.height - 3);
  const start = windowStart(props.selectedIndex, props.items.length, rows);
  return (
    <Box flexDirection="column" width={props.width} height={props.height}>
      <Text bold inverse>
        {padEnd(props.title, props.width)}
      </Text>
      <Text>
        <Text color={theme.muted}>{"> "}</Text>
        {props.query}▏
      </Text>
      {props.items.length === 0 ? (
        <Text color={theme.muted}>
          {props.allowFreeText && props.query ? `Enter: use '${props.query}'` : "nothing matches"}
        </Text>
      ) : (
        props.items.slice(start, start + rows).map((item, i) => (
          <Text key={item.value} inverse={start + i === props.selectedIndex}>
            {padEnd(`${item.value === props.current ? "●" : " "} ${item.label}`, props.width)}
          </Text>
        ))
      )}
      <Text color={theme.muted}>↑↓ pick · Enter choose · Esc close</Text>
    </Box>
  );
});
