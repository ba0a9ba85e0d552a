import * as Tooltip from "@radix-ui/react-tooltip";
import { useState } from "react";
import { INVALID_DURATION, parseDuration } from "../../../lib/duration.js";

/** docs/dashboard-rules.md#validation "Duration input": seconds, or a number with a unit; otherwise the tooltip reads 'Invalid format'. */
export function DurationInput(props: { label: string; onChange: (seconds: number | undefined) => void }) {
  const [text, setText] = useState("");
  const parsed = text.trim() === "" ? undefined : parseDuration(text);
  const invalid = parsed !== undefined && !parsed.ok;
  return (
    <label className="field">
      <span>{props.label}</span>
      <Tooltip.Root open={invalid}>
        <Tooltip.Trigger asChild>
          <input
            value={text}
            aria-invalid={invalid}
            onChange={(e) => {
              setText(e.target.value);
              const p = parseDuration(e.target.value);
              props.onChange(p.ok ? p.seconds : undefined);
            }}
          />
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content className="tooltip" side="bottom">
            {INVALID_DURATION}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </label>
  );
}
