import { useState } from "react";
import { reportRange } from "./inputs";
import { NumberInput } from "./NumberInput";

/** docs/dashboard-rules.md#validation "Range": reported only when both min and max are set. */
export function RangeInput(props: {
  label: string;
  onChange: (range: { min: string; max: string } | undefined) => void;
}) {
  const [min, setMin] = useState("");
  const [max, setMax] = useState("");
  return (
    <fieldset className="field range">
      <legend>{props.label}</legend>
      <NumberInput
        label="Min"
        value={min}
        onChange={(v) => {
          setMin(v);
          props.onChange(reportRange(v, max));
        }}
      />
      <NumberInput
        label="Max"
        value={max}
        onChange={(v) => {
          setMax(v);
          props.onChange(reportRange(min, v));
        }}
      />
    </fieldset>
  );
}
