import { Box, Text } from "ink";
import { memo, useMemo } from "react";
import { balanceDecimals, formatFixed, formatUtcTime } from "../format.js";
import type { BalanceRow } from "../orders-view.js";
import { useTheme } from "../theme.js";
import { columns, padEnd, padStart, wrapText } from "./layout.js";

export interface BalancesProps {
  rows: readonly BalanceRow[];
  /** ms since the epoch of the last successful fetch */
  lastUpdate: number | undefined;
  maxRows: number;
  width: number;
  loading: boolean;
  /** the last fetch's failure: shown as an error in place of the table, never as zero balances */
  error: string | undefined;
}

/** docs/dashboard-rules.md#screens "Balances table": Token, Total, Free, Locked and a "Last update" UTC time. */
// memo: the book refreshes every 500 ms; this panel's props do not change with it
export const Balances = memo(function Balances(props: BalancesProps) {
  const theme = useTheme();
  const { width } = props;
  // the token column as wide as the longest token; the numbers share the rest, a space apart
  const wToken = Math.min(Math.floor((width - 1) / 4), Math.max(6, ...props.rows.map((r) => r.token.length + 1)));
  const [wTotal = 0, wFree = 0, wLocked = 0] = columns(width - 1 - wToken, [1, 1, 1]);
  const title = "Balances";
  const updated = props.error
    ? "[l] retry"
    : props.lastUpdate === undefined
      ? props.loading
        ? "loading…"
        : "never updated"
      : `Last update ${formatUtcTime(props.lastUpdate)}`;
  const visible = props.rows.slice(0, Math.max(0, props.maxRows));
  // docs/tui.md "Numbers": one number of decimals for all three columns, points aligned
  const decimals = useMemo(() => balanceDecimals(props.rows.flatMap((r) => [r.total, r.free, r.locked])), [props.rows]);
  const num = (v: string) => formatFixed(v, decimals);
  // issue 20: an error reads as an error, in the lines of the table, not as an empty table
  const errorLines = props.error
    ? wrapText(` balances unavailable: ${props.error}`, width, Math.max(1, props.maxRows + 1))
    : undefined;
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold>{title}</Text>
        <Text color={props.error ? theme.error : theme.muted}>
          {padStart(updated, Math.max(0, width - title.length))}
        </Text>
      </Text>
      {errorLines ? <Text color={theme.error}>{errorLines.join("\n")}</Text> : null}
      {errorLines ? null : (
        <Text
          color={theme.muted}
        >{` ${padEnd("Token", wToken)}${padStart("Total", wTotal)}${padStart("Free", wFree)}${padStart("Locked", wLocked)}`}</Text>
      )}
      {(errorLines ? [] : visible).map((row) => (
        <Text key={row.token}>
          {` ${padEnd(row.token, wToken)}${padStart(num(row.total), wTotal - 1).padStart(wTotal)}${padStart(num(row.free), wFree - 1).padStart(wFree)}${padStart(num(row.locked), wLocked - 1).padStart(wLocked)}`}
        </Text>
      ))}
    </Box>
  );
});
