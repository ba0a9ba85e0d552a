import { Box, Text } from "ink";
import { memo, useMemo } from "react";
import type { FeedState } from "../../exchanges/types.js";
import type { CumulativeRow } from "../../lib/orderbook.js";
import {
  type BookBlock,
  type BookSelection,
  type BookView,
  bookColumnWidths,
  bookSideBlocks,
  clampSelection,
  selectedRow,
  totalDecimals,
  UNICODE_MARKS,
} from "../book-view.js";
import { type ColumnDecimals, decimalsOf, formatFixed, formatSpreadPercent } from "../format.js";
import { type Theme, useTheme } from "../theme.js";
import { firstFitting, truncate } from "./layout.js";

export interface OrderBookProps {
  view: BookView;
  pair: string;
  /** levels drawn per side; rows without a level stay blank so the layout does not jump */
  rowsPerSide: number;
  width: number;
  feedState: FeedState;
  selection: BookSelection | undefined;
  focused: boolean;
  /** the feed is not live (docs/tui.md "Stale book"): levels greyed, no mid; the banner is the app's */
  stale?: boolean;
  /** the pair's decimals from its tick and lot; else the book's own (view.decimals) */
  decimals?: ColumnDecimals | undefined;
  /** levelKey(side, price) of the levels where your orders rest */
  ownLevels?: ReadonlySet<string>;
  /** draw ASCII markers (the locale is not UTF-8) */
  ascii?: boolean;
}

const NO_LEVELS: ReadonlySet<string> = new Set();

/** Lines the panel takes besides the level rows: title, header, middle row, footer. */
export const ORDER_BOOK_CHROME_LINES = 4;

export function stateColor(state: FeedState, theme: Theme): string | undefined {
  if (state === "live") return theme.success;
  if (state === "resyncing" || state === "connecting") return theme.warning;
  return theme.error;
}

/** "Σ 2 asks: 4 BTC · 406.5 USDT", tighter where the panel is narrow (34 columns at 80x24). */
function cumulativeLine(
  selection: BookSelection,
  row: CumulativeRow,
  base: string,
  quote: string,
  width: number,
  decimals: ColumnDecimals,
  ascii: boolean,
): string {
  const count = `${selection.index + 1} ${selection.side === "ask" ? "asks" : "bids"}`;
  const amount = `${formatFixed(row.cumAmount, decimals.amountDecimals)} ${base}`;
  const total = `${formatFixed(row.cumTotal, totalDecimals(decimals))} ${quote}`;
  const sigma = ascii ? "Sum" : "Σ";
  const dot = ascii ? "-" : "·";
  return firstFitting(width, [
    ` ${sigma} ${count}: ${amount} ${dot} ${total}`,
    ` ${sigma}${count} ${amount} ${dot} ${total}`,
    `${sigma}${count} ${amount}${dot}${total}`,
  ]);
}

/** The mid with the pair's price decimals, one more when it falls between two ticks. */
export function formatMid(mid: string, priceDecimals: number): string {
  return formatFixed(mid, Math.max(priceDecimals, Math.min(decimalsOf(mid), priceDecimals + 1)));
}

/** One level row's piece of a column; memoised, so a frame re-renders only the cells that changed. */
const Cell = memo(function Cell(props: {
  text: string;
  color: string | undefined;
  bold: boolean;
  inverse: boolean;
  dim?: boolean;
}) {
  // a row without a level is an empty line of the column
  if (props.text === "") return <Box height={1} flexShrink={0} />;
  return (
    <Text color={props.color} bold={props.bold} inverse={props.inverse} dimColor={props.dim} wrap="truncate">
      {props.text}
    </Text>
  );
});

/**
 * One block of rows: each column a stack of one <Text> per level row (a blank row is an empty line
 * of the stack), emphasised cells in the flash colour and bold (docs/tui-memory.md).
 */
function Block({ block, color, dim }: { block: BookBlock; color: string | undefined; dim?: boolean }) {
  // docs/tui.md "Numbers": a changed level flashes bold in its side's colour
  return (
    <Box height={block.rows} flexShrink={0}>
      {block.columns.map((column, c) => (
        <Box
          // biome-ignore lint/suspicious/noArrayIndexKey: the columns of a block never reorder
          key={c}
          width={column.width}
          flexShrink={0}
          flexDirection="column"
          alignItems={column.alignRight ? "flex-end" : "flex-start"}
        >
          {column.cells.map((cell, r) => (
            <Cell
              // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional rows
              key={r}
              text={cell.text}
              color={color}
              bold={cell.emphasis}
              inverse={block.highlighted}
              dim={dim}
            />
          ))}
        </Box>
      ))}
    </Box>
  );
}

/**
 * docs/dashboard-rules.md#screens "Order book": Price, Amount, Total; asks on top, bids below; the middle row with the
 * mid price and "~" spread percent; the hovered row highlights the cumulative rows and shows the
 * cumulative amount and total. Render only: every number and every line comes from book-view.
 */
export const OrderBook = memo(function OrderBook(props: OrderBookProps) {
  const theme = useTheme();
  const { view, rowsPerSide, width, selection: rawSelection } = props;
  const selection = clampSelection(rawSelection, view);
  const widths = bookColumnWidths(width);
  const [base = "", quote = ""] = props.pair.split("/");
  // the pair's decimals, but never fewer than the book's own strings have: a level's price is
  // never cut (docs/tui.md "Numbers")
  const decimals = useMemo(
    () =>
      props.decimals
        ? {
            priceDecimals: Math.max(props.decimals.priceDecimals, view.decimals.priceDecimals),
            amountDecimals: Math.max(props.decimals.amountDecimals, view.decimals.amountDecimals),
          }
        : view.decimals,
    [props.decimals, view.decimals],
  );
  const ascii = props.ascii === true;
  const marks = useMemo(
    () => ({
      own: props.ownLevels ?? NO_LEVELS,
      selected: ascii ? ">" : UNICODE_MARKS.selected,
      ownOrder: ascii ? "<" : UNICODE_MARKS.ownOrder,
    }),
    [props.ownLevels, ascii],
  );
  const askBlocks = bookSideBlocks("ask", view, rowsPerSide, widths, selection, decimals, marks);
  const bidBlocks = bookSideBlocks("bid", view, rowsPerSide, widths, selection, decimals, marks);

  const stale = props.stale === true;
  const middle = stale
    ? "— not live, no mid"
    : view.mid === undefined
      ? "no quotes yet"
      : `${formatMid(view.mid, decimals.priceDecimals)}  ${view.spread === undefined ? "" : formatSpreadPercent(view.spread)}`;
  const selected = selectedRow(selection, view);
  const title = `Order book ${props.pair}`;
  const stateRoom = Math.max(0, width - title.length);
  const stateText = truncate(props.feedState, stateRoom);

  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold inverse={props.focused}>
          {title}
        </Text>
        {" ".repeat(stateRoom - stateText.length)}
        <Text color={stateColor(props.feedState, theme)}>{stateText}</Text>
      </Text>
      <Box flexShrink={0}>
        <Box width={widths.price + 1} flexShrink={0}>
          <Text color={theme.muted}>{` ${truncate("Price", widths.price)}`}</Text>
        </Box>
        <Box width={widths.amount} flexShrink={0} justifyContent="flex-end">
          <Text color={theme.muted}>{truncate("Amount", widths.amount)}</Text>
        </Box>
        <Box width={widths.total} flexShrink={0} justifyContent="flex-end">
          <Text color={theme.muted}>{truncate("Total", widths.total)}</Text>
        </Box>
      </Box>
      {askBlocks.map((block, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: at most two blocks a side, in screen order
        <Block key={`ask-${i}`} block={block} color={stale ? theme.muted : theme.sell} dim={stale} />
      ))}
      <Text bold>{truncate(` ${middle}`, width)}</Text>
      {bidBlocks.map((block, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: at most two blocks a side, in screen order
        <Block key={`bid-${i}`} block={block} color={stale ? theme.muted : theme.buy} dim={stale} />
      ))}
      {selected && selection ? (
        <Text color={theme.accent}>{cumulativeLine(selection, selected, base, quote, width, decimals, ascii)}</Text>
      ) : (
        <Text color={theme.muted}>
          {truncate(ascii ? " j/k select  Enter fill the panel" : " ↑↓ select  ⏎ fill the panel", width)}
        </Text>
      )}
    </Box>
  );
});
