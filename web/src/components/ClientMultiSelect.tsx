/** A multi-select of clients (seed 000 §2 "User create"/"User edit"): a list of checkboxes. */
export function ClientMultiSelect(props: { clients: readonly string[]; selected: readonly string[]; onChange: (next: string[]) => void }) {
  const toggle = (c: string) =>
    props.onChange(props.selected.includes(c) ? props.selected.filter((s) => s !== c) : [...props.selected, c]);
  return (
    <fieldset className="field multi">
      <legend>Clients</legend>
      {props.clients.length === 0 ? <span className="muted">No clients</span> : null}
      {props.clients.map((c) => (
        <label key={c} className="check">
          <input type="checkbox" checked={props.selected.includes(c)} onChange={() => toggle(c)} />
          <span>{c}</span>
        </label>
      ))}
    </fieldset>
  );
}
