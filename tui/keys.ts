/**
 * Every key of the TUI, in one table: the help overlay lists it and a test checks that the keys the
 * controller (hooks/useDesk.ts) handles are all here. Texts are short so two columns fit 80 wide.
 */
export interface KeyBinding {
  keys: string;
  does: string;
}

export const KEY_BINDINGS: readonly KeyBinding[] = [
  { keys: "Tab S-Tab", does: "focus book/trade/orders" },
  { keys: "↑↓ j k book", does: "select level, cumulative" },
  { keys: "PgUp PgDn", does: "select a page away" },
  { keys: "Home End", does: "top ask / bottom bid" },
  { keys: "Enter book", does: "fill panel from level" },
  { keys: "Esc", does: "back out of panel/prompt" },
  { keys: "0-9 . , -", does: "type number (, = .)" },
  { keys: "↑ ↓ trade", does: "previous / next field" },
  { keys: "Enter trade", does: "next field" },
  { keys: "Backspace", does: "delete a character" },
  { keys: "b / s", does: "Buy / Sell (asks first)" },
  { keys: "x", does: "clear the trading panel" },
  { keys: "m", does: "post-only (maker) on/off" },
  { keys: "↑ ↓ orders", does: "select an open order" },
  { keys: "c orders", does: "cancel selected order" },
  { keys: "C", does: "cancel all (asks to confirm)" },
  { keys: "y / n Enter", does: "send / do not send" },
  { keys: "yes Enter", does: "send far/unchecked order" },
  { keys: "r o l / R", does: "refresh book/orders/bal/all" },
  { keys: "e a p", does: "switch exchange/acct/pair" },
  { keys: "? ", does: "this help; any key closes" },
  { keys: "q Ctrl-C", does: "quit, restore terminal" },
];
