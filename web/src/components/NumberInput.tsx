import { useRef, useState } from "react";
import { numberOnBlur } from "./inputs";

/** docs/dashboard-rules.md#validation: minus, digits, '.' or ','; a comma becomes a dot; invalid input reverts on blur. */
export function NumberInput(props: { label: string; value: string; onChange: (v: string) => void; name?: string }) {
  const [text, setText] = useState(props.value);
  const previous = useRef(props.value);
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        inputMode="decimal"
        className="num"
        name={props.name}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          const next = numberOnBlur(text, previous.current);
          previous.current = next;
          setText(next);
          props.onChange(next);
        }}
      />
    </label>
  );
}
