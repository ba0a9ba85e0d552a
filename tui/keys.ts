/** Every key of the TUI, in one table: the help overlay lists it and the tests check it is complete. */
export interface KeyBinding {
  keys: string;
  where: "anywhere" | "book" | "trade" | "orders" | "confirm" | "switcher";
  does: string;
}

export const KEY_BINDINGS: readonly KeyBinding[] = [
  { keys: "Tab / Shift+Tab", where: "anywhere", does: "move focus: book → trade → open orders" },
  { keys: "↑ ↓", where: "book", does: "select a level; highlights the cumulative rows" },
  { keys: "Enter", where: "book", does: "fill the panel: price, cumulative amount and total" },
  { keys: "Esc", where: "book", does: "clear the selection" },
  { keys: "0-9 . , -", where: "trade", does: "type into Price, Amount or Quote (comma = dot)" },
  { keys: "↑ ↓ / Enter", where: "trade", does: "previous / next field" },
  { keys: "Backspace", where: "trade", does: "delete a character" },
  { keys: "b / s", where: "anywhere", does: "Buy / Sell with the panel's numbers (asks to confirm)" },
  { keys: "x", where: "anywhere", does: "clear the trading panel" },
  { keys: "↑ ↓", where: "orders", does: "select an open order (shows its details)" },
  { keys: "c", where: "orders", does: "cancel the selected order" },
  { keys: "C", where: "anywhere", does: "cancel all orders of the pair (asks to confirm)" },
  { keys: "y / Enter", where: "confirm", does: "send" },
  { keys: "n / Esc", where: "confirm", does: "do not send" },
  { keys: "r", where: "anywhere", does: "refresh the order book (fresh snapshot)" },
  { keys: "o", where: "anywhere", does: "refresh open orders" },
  { keys: "l", where: "anywhere", does: "refresh balances" },
  { keys: "R", where: "anywhere", does: "refresh everything" },
  { keys: "e", where: "anywhere", does: "switch exchange" },
  { keys: "a", where: "anywhere", does: "switch account" },
  { keys: "p", where: "anywhere", does: "switch pair" },
  { keys: "type, ↑ ↓, Enter, Esc", where: "switcher", does: "filter or type a name, pick, choose, close" },
  { keys: "?", where: "anywhere", does: "this help (any key closes it)" },
  { keys: "q / Ctrl+C", where: "anywhere", does: "quit and restore the terminal" },
];
