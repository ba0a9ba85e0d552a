import { Box, Text } from "ink";
import { memo } from "react";
import { orderTooltip } from "../../lib/format.js";
import { totalDecimals } from "../book-view.js";
import { type ColumnDecimals, columnDecimals, formatFixed, formatUtcTimestamp } from "../format.js";
import { type OrderRow, orderDetailLines, windowStart } from "../orders-view.js";
import { useTheme } from "../theme.js";
import { columns, padEnd, padStart, wrapText } from "./layout.js";

export interface OpenOrdersProps {
  rows: readonly OrderRow[];
  /** the pair's decimals from its tick and lot, when known */
  decimals?: ColumnDecimals | undefined;
  selectedIndex: number;
  focused: boolean;
  /** order rows drawn (the detail line and title are extra) */
  maxRows: number;
  width: number;
  loading: boolean;
  /** the last fetch's failure: shown as an error in place of the list, never as "(0)" */
  error: string | undefined;
  /** false until the first fetch succeeded: no count is shown before there is one */
  loaded?: boolean;
}

/** The detail lines of the selected order; docs/exchange-rules.md#chart "Order tooltip" numbers come from the lib. */
function detailLines(row: OrderRow, width: number): [string, string] {
  const { order } = row;
  const tooltip = orderTooltip({ amount: order.amount, price: order.price, pair: order.pair });
  return orderDetailLines(row, tooltip, formatUtcTimestamp(order.timestamp), width);
}

/** Lines the panel takes besides its order rows when focused: title and two detail lines. */
export const OPEN_ORDERS_CHROME_LINES = 3;

/**
 * docs/dashboard-rules.md#screens "Open orders panel": sorted by price descending; each row the side colour, the price
 * and the quote total; the header shows the count; the selected row's details (id, quantity,
 * status, date; docs/exchange-rules.md's avg. price, amount, volume) stand in for the dashboard's tooltips.
 */
// memo: the book refreshes every 500 ms; this panel's props do not change with it
export const OpenOrders = memo(function OpenOrders(props: OpenOrdersProps) {
  const theme = useTheme();
  const { rows, width, maxRows } = props;
  const selected = Math.min(props.selectedIndex, rows.length - 1);
  const [wSide = 0, wPrice = 0, wAmount = 0, wTotal = 0] = columns(width - 1, [1, 4, 3, 3]);
  const start = windowStart(selected, rows.length, maxRows);
  const visible = rows.slice(start, start + maxRows);
  // issue 20: a failed or missing list has no count; "(0)" would read as "you have nothing"
  const known = props.error === undefined && props.loaded !== false;
  const title = known ? `Open orders (${rows.length})` : "Open orders";
  const status = props.error ? "[o] retry" : props.loading ? "loading…" : "[c] cancel [C] all";
  const detail = rows[selected];
  // docs/tui.md "Numbers": the pair's decimals, else the most the orders' own strings have
  const pd = props.decimals?.priceDecimals ?? columnDecimals(rows.map((r) => r.order.price));
  const ad = props.decimals?.amountDecimals ?? columnDecimals(rows.map((r) => r.order.amount));
  const td = totalDecimals({ priceDecimals: pd, amountDecimals: ad });
  const details = known && props.focused && detail ? detailLines(detail, width) : undefined;
  // the error takes the rows and the detail lines' room (the panel is laid out for both)
  const errorLines = props.error
    ? wrapText(` orders unavailable: ${props.error}`, width, Math.max(1, maxRows + OPEN_ORDERS_CHROME_LINES - 1))
    : undefined;

  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold inverse={props.focused}>
          {title}
        </Text>
        <Text color={props.error ? theme.error : theme.muted}>
          {padStart(status, Math.max(0, width - title.length))}
        </Text>
      </Text>
      {errorLines ? (
        <Text color={theme.error}>{errorLines.join("\n")}</Text>
      ) : !known ? (
        <Text color={theme.muted}>{padEnd(" loading…", width)}</Text>
      ) : rows.length === 0 ? (
        <Text color={theme.muted}>{padEnd(" no open orders", width)}</Text>
      ) : (
        visible.map(({ order, total }, i) => {
          const isSelected = props.focused && start + i === selected;
          return (
            <Text key={order.id} inverse={isSelected} color={order.side === "Buy" ? theme.buy : theme.sell}>
              {` ${padEnd(order.side === "Buy" ? "B" : "S", wSide)}${padStart(formatFixed(order.price, pd), wPrice)}${padStart(formatFixed(order.amount, ad), wAmount)}${padStart(formatFixed(total, td), wTotal)}`}
            </Text>
          );
        })
      )}
      {details ? (
        <>
          <Text color={theme.muted}>{details[0]}</Text>
          <Text color={theme.muted}>{details[1]}</Text>
        </>
      ) : null}
    </Box>
  );
});
