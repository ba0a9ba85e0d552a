import { Text } from "ink";
import { Decimal } from "../../lib/decimal.js";
import { useTheme } from "../theme.js";

const BARS = "▁▂▃▄▅▆▇█";

/** The bars of the last `width` values, scaled between their min and max (flat when all are equal). */
export function sparkline(values: readonly string[], width: number): string {
  const tail = values.slice(-width);
  if (tail.length === 0) return "";
  const nums = tail.map((v) => new Decimal(v));
  let min = nums[0] as Decimal;
  let max = nums[0] as Decimal;
  for (const n of nums) {
    if (n.lt(min)) min = n;
    if (n.gt(max)) max = n;
  }
  const range = max.minus(min);
  return nums
    .map((n) => {
      if (range.isZero()) return BARS[3];
      // position on an 8-step scale; only the bar height is a float
      const step = Math.min(
        BARS.length - 1,
        Math.floor(
          n
            .minus(min)
            .dividedBy(range)
            .times(BARS.length - 1)
            .plus(0.5)
            .toNumber(),
        ),
      );
      return BARS[step];
    })
    .join("");
}

/** A small sparkline of recent mid prices; greyed while the book is not live (docs/tui.md "Stale book"). */
export function Sparkline(props: { mids: readonly string[]; width: number; stale?: boolean }) {
  const theme = useTheme();
  return (
    <Text color={props.stale ? theme.muted : theme.accent} dimColor={props.stale === true}>
      {sparkline(props.mids, props.width)}
    </Text>
  );
}
