import { type Key, useInput } from "ink";
import { useRef } from "react";

/**
 * A key as one name: "up", "down", "left", "right", "enter", "escape", "tab", "shift+tab",
 * "backspace", "ctrl+c", "pageup", "pagedown", or the character typed ("q", "?", "C", "1").
 */
export type KeyName = string;

export function keyName(input: string, key: Key): KeyName {
  if (key.upArrow) return "up";
  if (key.downArrow) return "down";
  if (key.leftArrow) return "left";
  if (key.rightArrow) return "right";
  if (key.pageUp) return "pageup";
  if (key.pageDown) return "pagedown";
  if (key.return) return "enter";
  if (key.escape) return "escape";
  if (key.tab) return key.shift ? "shift+tab" : "tab";
  if (key.backspace || key.delete) return "backspace";
  if (key.ctrl && input === "c") return "ctrl+c";
  return input;
}

/** Calls `handler` with each key's name; the latest handler is used without resubscribing. */
export function useKeypress(handler: (key: KeyName) => void, isActive = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  useInput((input, key) => ref.current(keyName(input, key)), { isActive });
}
