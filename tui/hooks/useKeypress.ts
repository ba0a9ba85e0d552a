import { type Key, useInput } from "ink";
import { useRef } from "react";

/**
 * A key as one name: "up", "down", "left", "right", "enter", "escape", "tab", "shift+tab",
 * "backspace", "ctrl+c", "pageup", "pagedown", "home", "end", or the character typed ("q", "?", "C", "1").
 */
export type KeyName = string;

export function keyName(input: string, key: Key): KeyName {
  if (key.upArrow) return "up";
  if (key.downArrow) return "down";
  if (key.leftArrow) return "left";
  if (key.rightArrow) return "right";
  if (key.pageUp) return "pageup";
  if (key.pageDown) return "pagedown";
  if (key.home) return "home";
  if (key.end) return "end";
  if (key.return) return "enter";
  if (key.escape) return "escape";
  if (key.tab) return key.shift ? "shift+tab" : "tab";
  if (key.backspace || key.delete) return "backspace";
  if (key.ctrl && input === "c") return "ctrl+c";
  return input;
}

const CONTROL_NAMES: Readonly<Record<string, KeyName>> = {
  "\t": "tab",
  "\r": "enter",
  "\n": "enter",
  "\u007f": "backspace",
  "\b": "backspace",
};

/**
 * The keys in one input event. Ink splits a stdin chunk at escape sequences only, so plain text
 * typed or pasted at once ("\t50000", tmux send-keys Tab 50000) arrives as one string: it is
 * taken one character at a time, as if typed.
 */
export function keyNames(input: string, key: Key): KeyName[] {
  const name = keyName(input, key);
  if (name !== input || input.length < 2 || key.ctrl || key.meta) return [name];
  const names: KeyName[] = [];
  for (const char of input) {
    const control = CONTROL_NAMES[char];
    if (control) names.push(control);
    else if (char >= " ") names.push(char);
  }
  return names;
}

/** Calls `handler` with each key's name; the latest handler is used without resubscribing. */
export function useKeypress(handler: (key: KeyName) => void, isActive = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  useInput(
    (input, key) => {
      for (const name of keyNames(input, key)) ref.current(name);
    },
    { isActive },
  );
}
