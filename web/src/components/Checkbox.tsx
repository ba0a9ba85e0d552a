import * as RadixCheckbox from "@radix-ui/react-checkbox";
import type { ReactNode } from "react";

/**
 * A labelled Radix checkbox (keyboard, focus and aria-checked from Radix; colours from the CSS
 * variables of both modes). The label wraps the control so a click on the text toggles it.
 */
export function Checkbox(props: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
  name?: string;
  disabled?: boolean;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the Radix checkbox inside the label is its control (a button with role checkbox)
    <label className="check">
      <RadixCheckbox.Root
        className="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        name={props.name}
        onCheckedChange={(c) => props.onCheckedChange(c === true)}
      >
        <RadixCheckbox.Indicator className="checkbox-mark" aria-hidden>
          ✓
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <span>{props.children}</span>
    </label>
  );
}
