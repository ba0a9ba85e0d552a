import * as RadixSelect from "@radix-ui/react-select";

export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A Radix select (typeahead, keyboard, focus handling; inside a form it also keeps a hidden native
 * select with `name` for autofill). Radix items cannot carry "", so `emptyValue` stands for it.
 */
export function Select(props: {
  id?: string;
  name?: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  placeholder: string;
  /** an item meaning "nothing chosen" (for example "All exchanges"), shown first */
  emptyLabel?: string;
  "aria-label"?: string;
}) {
  const EMPTY = "__none__";
  const value = props.value === "" ? (props.emptyLabel ? EMPTY : "") : props.value;
  return (
    <RadixSelect.Root name={props.name} value={value} onValueChange={(v) => props.onValueChange(v === EMPTY ? "" : v)}>
      <RadixSelect.Trigger id={props.id} className="select-trigger" aria-label={props["aria-label"]}>
        <RadixSelect.Value placeholder={props.placeholder} />
        <RadixSelect.Icon aria-hidden>▾</RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content className="select-content" position="popper" sideOffset={4}>
          <RadixSelect.Viewport>
            {props.emptyLabel ? (
              <RadixSelect.Item value={EMPTY} className="select-item">
                <RadixSelect.ItemText>{props.emptyLabel}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ) : null}
            {props.options.map((o) => (
              <RadixSelect.Item key={o.value} value={o.value} className="select-item">
                <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
