import { Checkbox } from "./Checkbox";

/** A multi-select of clients (docs/dashboard-rules.md#screens "User create"/"User edit"): a list of Radix checkboxes. */
export function ClientMultiSelect(props: {
  clients: readonly string[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const toggle = (c: string, on: boolean) =>
    props.onChange(on ? [...props.selected.filter((s) => s !== c), c] : props.selected.filter((s) => s !== c));
  return (
    <fieldset className="field multi">
      <legend>Clients</legend>
      {props.clients.length === 0 ? <span className="muted">No clients</span> : null}
      {props.clients.map((c) => (
        <Checkbox key={c} checked={props.selected.includes(c)} onCheckedChange={(on) => toggle(c, on)}>
          {c}
        </Checkbox>
      ))}
    </fieldset>
  );
}
