import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { Checkbox } from "./Checkbox";
import { addListItem, EMPTY_LIST_TEXT, removeListItem } from "./inputs";

/** docs/dashboard-rules.md#screens: add an item; click an item to delete it; pick from a list in a checkbox dialog (Submit, Clear). */
export function ListEditor(props: {
  label: string;
  items: string[];
  onChange: (items: string[]) => void;
  options?: string[];
}) {
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<string[]>(props.items);
  const add = () => {
    props.onChange(addListItem(props.items, text));
    setText("");
  };
  return (
    <div className="field">
      <span>{props.label}</span>
      <div className="row">
        <input
          className="grow"
          value={text}
          aria-label={`Add to ${props.label}`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn" onClick={add} disabled={text.trim() === ""}>
          Add
        </button>
        {props.options ? (
          <Dialog.Root onOpenChange={(open) => open && setPicked(props.items)}>
            <Dialog.Trigger asChild>
              <button type="button" className="btn">
                Select…
              </button>
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="overlay" />
              <Dialog.Content className="dialog" aria-describedby={undefined}>
                <Dialog.Title>{props.label}</Dialog.Title>
                {props.options.map((o) => (
                  <Checkbox
                    key={o}
                    checked={picked.includes(o)}
                    onCheckedChange={(on) => setPicked(on ? addListItem(picked, o) : removeListItem(picked, o))}
                  >
                    {o}
                  </Checkbox>
                ))}
                <div className="row end">
                  <button type="button" className="btn" onClick={() => setPicked([])}>
                    Clear
                  </button>
                  <Dialog.Close asChild>
                    <button type="button" className="btn primary" onClick={() => props.onChange(picked)}>
                      Submit
                    </button>
                  </Dialog.Close>
                </div>
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        ) : null}
      </div>
      <div className="chips">
        {props.items.length === 0 ? <span className="muted">{EMPTY_LIST_TEXT}</span> : null}
        {props.items.map((i) => (
          <button
            key={i}
            type="button"
            className="chip"
            title="Click to remove"
            onClick={() => props.onChange(removeListItem(props.items, i))}
          >
            {i} ×
          </button>
        ))}
      </div>
    </div>
  );
}
