import { Box, Text } from "ink";
import { memo } from "react";
import type { FeedState } from "../../exchanges/types.js";
import type { CumulativeRow } from "../../lib/orderbook.js";
import { levelKey, type BookSelection, type BookView, clampSelection } from "../book-view.js";
import { formatAmount, formatPrice, formatSpreadPercent } from "../format.js";
import { useTheme, type Theme } from "../theme.js";
import { columns, padEnd, padStart } from "./layout.js";

export interface OrderBookProps {
  view: BookView;
  pair: string;
  /** levels drawn per side; rows without a level stay blank so the layout does not jump */
  rowsPerSide: number;
  width: number;
  feedState: FeedState;
  selection: BookSelection | undefined;
  focused: boolean;
}

/** Lines the panel takes besides the level rows: title, header, middle row, footer. */
export const ORDER_BOOK_CHROME_LINES = 4;

export function stateColor(state: FeedState, theme: Theme): string | undefined {
  if (state === "live") return theme.success;
  if (state === "resyncing" || state === "connecting") return theme.warning;
  return theme.error;
}

/**
 * Seed 000 §2 "Order book": Price, Amount, Total; asks on top, bids below; the middle row with the
 * mid price and "~" spread percent; the hovered row highlights the cumulative rows and shows the
 * cumulative amount and total. Render only: every number comes from the view.
 */
export const OrderBook = memo(function OrderBook(props: OrderBookProps) {
  const theme = useTheme();
  const { view, rowsPerSide, width, selection: rawSelection } = props;
  const selection = clampSelection(rawSelection, view);
  const [wPrice = 0, wAmount = 0, wTotal = 0] = columns(width - 2, [4, 3, 3]);
  const [base = "", quote = ""] = props.pair.split("/");

  const line = (side: "ask" | "bid", row: CumulativeRow | undefined, index: number) => {
    if (!row) return <Text key={`${side}-${index}`}> </Text>;
    const inCumulative = selection !== undefined && selection.side === side && index <= selection.index;
    const isSelected = inCumulative && selection !== undefined && index === selection.index;
    const flashing = view.changed.has(levelKey(side, row.price));
    const sideColor = side === "ask" ? theme.sell : theme.buy;
    const marker = isSelected ? "▸" : flashing ? "*" : " ";
    const text = `${marker}${padEnd(formatPrice(row.price), wPrice)}${padStart(formatAmount(row.amount), wAmount)}${padStart(formatAmount(row.total), wTotal)} `;
    return (
      <Text
        key={`${side}-${index}`}
        color={flashing && !inCumulative ? theme.flash : sideColor}
        inverse={inCumulative}
        bold={isSelected || flashing}
      >
        {text}
      </Text>
    );
  };

  const askLines = [];
  for (let i = rowsPerSide - 1; i >= 0; i--) askLines.push(line("ask", view.asks[i], i));
  const bidLines = [];
  for (let i = 0; i < rowsPerSide; i++) bidLines.push(line("bid", view.bids[i], i));

  const middle =
    view.mid === undefined
      ? "no quotes yet"
      : `${formatPrice(view.mid)}  ${view.spread === undefined ? "" : formatSpreadPercent(view.spread)}`;
  const selected = selection ? (selection.side === "ask" ? view.asks : view.bids)[selection.index] : undefined;
  const title = `Order book ${props.pair}`;

  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold inverse={props.focused}>
          {title}
        </Text>
        <Text color={stateColor(props.feedState, theme)}>
          {padStart(props.feedState, Math.max(0, width - title.length))}
        </Text>
      </Text>
      <Text color={theme.muted}>
        {` ${padEnd("Price", wPrice)}${padStart("Amount", wAmount)}${padStart("Total", wTotal)} `}
      </Text>
      {askLines}
      <Text bold>{padEnd(` ${middle}`, width)}</Text>
      {bidLines}
      {selected && selection ? (
        <Text color={theme.accent}>
          {padEnd(
            ` Σ ${selection.index + 1} ${selection.side === "ask" ? "asks" : "bids"}: ${formatAmount(selected.cumAmount)} ${base} · ${formatAmount(selected.cumTotal)} ${quote}`,
            width,
          )}
        </Text>
      ) : (
        <Text color={theme.muted}>{padEnd(" ↑↓ select  ⏎ fill the panel", width)}</Text>
      )}
    </Box>
  );
});
