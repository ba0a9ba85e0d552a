import { Box, Text } from "ink";
import { memo } from "react";
import type { Fill } from "../fills.js";
import { formatUtcTime } from "../format.js";
import { useTheme } from "../theme.js";
import { columns, padEnd, padStart } from "./layout.js";

export interface FillsProps {
  fills: readonly Fill[];
  maxRows: number;
  width: number;
  /** formats a price / amount of the pair with its column decimals */
  price: (value: string) => string;
  amount: (value: string) => string;
}

/**
 * Your fills this session, newest first (docs/tui.md "Fills"): time (UTC), side, price, amount,
 * fee where the exchange gives it ("-" where not). A fill taken at once without an average from
 * the exchange shows its limit with ≤ (Buy) or ≥ (Sell): it filled at that price or better.
 */
export const Fills = memo(function Fills(props: FillsProps) {
  const theme = useTheme();
  const { width } = props;
  const [wTime = 0, wSide = 0, wPrice = 0, wAmount = 0, wFee = 0] = columns(width - 1, [3, 2, 4, 4, 2]);
  const visible = props.fills.slice(0, Math.max(0, props.maxRows));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{`Your fills (${props.fills.length})`}</Text>
      {visible.length === 0 ? (
        <Text color={theme.muted}> none this session</Text>
      ) : (
        visible.map((f, i) => {
          const at = props.price(f.price);
          const price = f.atLimitOrBetter ? `${f.side === "Buy" ? "≤" : "≥"}${at}` : at;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: newest first, a fill never moves
            <Text key={`${f.orderId}-${f.time}-${i}`} color={f.side === "Buy" ? theme.buy : theme.sell}>
              {` ${padEnd(formatUtcTime(f.time).slice(0, 8), wTime)}${padEnd(f.side, wSide)}${padStart(price, wPrice)}${padStart(props.amount(f.amount), wAmount)} ${padStart(f.fee ?? "-", Math.max(1, wFee - 1))}`}
            </Text>
          );
        })
      )}
    </Box>
  );
});
