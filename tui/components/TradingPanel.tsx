import { Box, Text } from "ink";
import { memo } from "react";
import { formatAmount } from "../format.js";
import { useTheme } from "../theme.js";
import type { TradeField, TradeFormState } from "../trade-form.js";
import { padEnd } from "./layout.js";

export interface TradingPanelProps {
  form: TradeFormState;
  pair: string;
  /** amount = quote / price when the amount is empty (docs/dashboard-rules.md#validation), shown beside the empty field */
  derivedAmount: string | undefined;
  /** price × amount when the quote is empty: the total follows an edited price */
  derivedQuote?: string | undefined;
  focused: boolean;
  width: number;
  /** false when the account cannot trade (no adapter): the buttons are replaced by the reason */
  canTrade: boolean;
  tradeBlockedReason?: string | undefined;
}

export const TRADING_PANEL_LINES = 5;

/** docs/dashboard-rules.md#screens "Trading panel": Price, Amount (base), Quote (total); Buy and Sell. */
// memo: the book refreshes every 500 ms; this panel's props do not change with it
export const TradingPanel = memo(function TradingPanel(props: TradingPanelProps) {
  const theme = useTheme();
  const { form, focused, width } = props;
  const [base = "", quote = ""] = props.pair.split("/");
  const labelWidth = 8;
  const valueWidth = Math.max(6, width - labelWidth - Math.max(base.length, quote.length) - 3);

  const field = (name: TradeField, label: string, unit: string, hint?: string) => {
    const active = focused && form.active === name;
    const value = form[name];
    const shown = value === "" && hint ? hint : value;
    return (
      <Text key={name}>
        <Text color={theme.muted}>{padEnd(` ${label}`, labelWidth)}</Text>
        <Text inverse={active} color={value === "" && hint ? theme.muted : undefined}>
          {padEnd(active ? `${shown}▏` : shown, valueWidth)}
        </Text>
        <Text color={theme.muted}> {unit}</Text>
      </Text>
    );
  };

  const side = form.suggestedSide;
  // docs/orders.md "Post-only": the mode shows beside the title (m turns it on and off)
  const title = `Trade ${props.pair}${form.postOnly ? " post-only" : ""}`;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold inverse={focused}>
          {title}
        </Text>
        {side ? (
          <Text
            color={side === "Buy" ? theme.buy : theme.sell}
          >{`  ${side} from ${side === "Buy" ? "asks" : "bids"}`}</Text>
        ) : null}
      </Text>
      {field("price", "Price", quote)}
      {field(
        "amount",
        "Amount",
        base,
        props.derivedAmount ? `≈ ${formatAmount(props.derivedAmount)} from quote` : undefined,
      )}
      {field("quote", "Quote", quote, props.derivedQuote ? `≈ ${props.derivedQuote}` : undefined)}
      {props.canTrade ? (
        <Text>
          {" "}
          <Text color={theme.buy} bold={side === "Buy"}>
            [b] Buy
          </Text>
          {"  "}
          <Text color={theme.sell} bold={side === "Sell"}>
            [s] Sell
          </Text>
          <Text color={theme.muted}>{"  [x] clear"}</Text>
        </Text>
      ) : (
        <Text color={theme.warning}>{padEnd(` ${props.tradeBlockedReason ?? "trading unavailable"}`, width)}</Text>
      )}
    </Box>
  );
});
