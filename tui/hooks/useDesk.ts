import { useMemo } from "react";
import { resolveOrderAmount } from "../../lib/decimal.js";
import { EXCHANGES } from "../../lib/exchanges.js";
import { normalizePair } from "../../lib/pair.js";
import { EXCHANGE_IDS, type ExchangeId, type Side } from "../../lib/types.js";
import { type BookSelection, type BookView, moveSelection, pickFromSelection } from "../book-view.js";
import type { PickerItem } from "../components/Picker.js";
import { errorText } from "../errors.js";
import { formatAmount, formatPrice } from "../format.js";
import type { TuiServices } from "../services.js";
import { EMPTY_TRADE_FORM, type TradeFormAction, tradeFormReducer, type TradeFormState } from "../trade-form.js";
import type { KeyName } from "./useKeypress.js";
import type { BalancesState } from "./useBalances.js";
import type { OpenOrdersState } from "./useOrders.js";
import type { Session } from "./useSession.js";
import { useSyncedState } from "./useSyncedState.js";
import type { ToastKind } from "./useToast.js";

export type Focus = "book" | "trade" | "orders";
const FOCUS_ORDER: readonly Focus[] = ["book", "trade", "orders"];

export type PickerKind = "exchange" | "account" | "pair";

export interface PickerState {
  kind: PickerKind;
  query: string;
  index: number;
  options: PickerItem[];
}

export type Confirmation =
  | { kind: "order"; side: Side; price: string; amount: string; text: string }
  | { kind: "cancel-all"; text: string };

export interface DeskState {
  focus: Focus;
  selection: BookSelection | undefined;
  orderIndex: number;
  form: TradeFormState;
  help: boolean;
  picker: PickerState | undefined;
  confirmation: Confirmation | undefined;
  /** the items of the open picker after its filter */
  pickerItems: PickerItem[];
  handleKey(key: KeyName): void;
}

export interface DeskInputs {
  session: Session;
  services: TuiServices;
  view: BookView;
  orders: OpenOrdersState;
  balances: BalancesState;
  toast: (kind: ToastKind, text: string) => void;
  quit: () => void;
}

const NUMBER_KEY = /^[0-9.,-]+$/;
const NO_ITEMS: PickerItem[] = [];

export function filterPicker(picker: PickerState): PickerItem[] {
  const q = picker.query.trim().toLowerCase();
  if (!q) return picker.options;
  return picker.options.filter((o) => o.value.toLowerCase().includes(q) || o.label.toLowerCase().includes(q));
}

/**
 * The keyboard controller of the TUI: focus, book selection, the trading form, confirmations,
 * switchers and the help overlay. Components only render what this returns.
 */
export function useDesk(inputs: DeskInputs): DeskState {
  const { session, services, view, orders, balances, toast, quit } = inputs;
  // what keys change is read through the refs: see useSyncedState
  const [focus, setFocus, focusRef] = useSyncedState<Focus>("book");
  const [selection, setSelection, selectionRef] = useSyncedState<BookSelection | undefined>(undefined);
  const [orderIndex, setOrderIndex, orderIndexRef] = useSyncedState(0);
  const [form, setForm, formRef] = useSyncedState<TradeFormState>(EMPTY_TRADE_FORM);
  const dispatch = (action: TradeFormAction) => setForm((f) => tradeFormReducer(f, action));
  const [help, setHelp, helpRef] = useSyncedState(false);
  const [picker, setPicker, pickerRef] = useSyncedState<PickerState | undefined>(undefined);
  const [confirmation, setConfirmation, confirmationRef] = useSyncedState<Confirmation | undefined>(undefined);
  const pickerItems = useMemo(() => (picker ? filterPicker(picker) : NO_ITEMS), [picker]);
  const [base = "", quote = ""] = session.pair.split("/");

  const openPicker = async (kind: PickerKind) => {
    let options: PickerItem[];
    if (kind === "exchange") {
      options = EXCHANGE_IDS.map((id) => ({ value: id, label: `${EXCHANGES[id].name} (${id})` }));
    } else if (kind === "account") {
      const listed = (await services.listAccounts?.(session.exchange).catch(() => [])) ?? [];
      options = [...new Set([session.account, ...listed])].map((a) => ({ value: a, label: a }));
    } else {
      const listed = (await services.listPairs?.(session.exchange).catch(() => [])) ?? [];
      options = [...new Set([session.pair, ...listed])].map((p) => ({ value: p, label: p }));
    }
    const current = kind === "exchange" ? session.exchange : kind === "account" ? session.account : session.pair;
    setPicker({
      kind,
      query: "",
      index: Math.max(
        0,
        options.findIndex((o) => o.value === current),
      ),
      options,
    });
  };

  const choose = (kind: PickerKind, value: string) => {
    try {
      if (kind === "exchange") {
        if (value !== session.exchange) {
          setSelection(undefined);
          session.switchTo({ exchange: value as ExchangeId });
        }
      } else if (kind === "account") {
        session.switchTo({ account: value.trim() });
      } else {
        const pair = normalizePair(value, session.exchange);
        if (pair !== session.pair) {
          setSelection(undefined);
          dispatch({ type: "clear" });
          session.switchTo({ pair });
        }
      }
      setPicker(undefined);
    } catch (e) {
      toast("error", errorText(e));
    }
  };

  const prepareOrder = (side: Side) => {
    if (!session.adapter) {
      toast("error", session.adapterError ?? "The account is not open yet");
      return;
    }
    const form = formRef.current;
    try {
      // seed 000 §5 "Orders" and PRODUCT D1, in the lib: price plus amount or quote; zero is refused
      const { price, amount } = resolveOrderAmount({
        price: form.price,
        amount: form.amount,
        quote: form.quote,
        ...(session.decimals ?? {}),
      });
      const total = price.times(amount);
      const where = `${EXCHANGES[session.exchange].name}/${session.account}`;
      setConfirmation({
        kind: "order",
        side,
        price: price.toFixed(),
        amount: amount.toFixed(),
        // the answer keys first: a narrow terminal cuts the end of the line, never the question
        text: `Send? [y/n] ${side} ${amount.toFixed()} ${base} @ ${price.toFixed()} ${quote} (≈ ${formatAmount(total)} ${quote}) on ${where}`,
      });
    } catch (e) {
      toast("error", errorText(e));
    }
  };

  const send = async (c: Confirmation) => {
    const adapter = session.adapter;
    if (!adapter) return;
    try {
      if (c.kind === "order") {
        const order = await adapter.createOrder({ pair: session.pair, side: c.side, amount: c.amount, price: c.price });
        toast(
          "success",
          `${order.side} ${formatPrice(order.amount)} ${base} @ ${formatPrice(order.price)} placed · id ${order.id}`,
        );
      } else {
        const ids = await orders.cancelAll();
        toast("success", `Cancelled all ${session.pair} orders${ids.length ? ` (${ids.length})` : ""}`);
      }
    } catch (e) {
      toast("error", errorText(e));
    } finally {
      void orders.refresh();
      void balances.refresh();
    }
  };

  const cancelSelected = async () => {
    const row = orders.rows[Math.min(orderIndexRef.current, orders.rows.length - 1)];
    if (!row) {
      toast("info", "No open order to cancel");
      return;
    }
    try {
      await orders.cancel(row.order.id);
      toast("success", `Cancelled ${row.order.side} @ ${formatPrice(row.order.price)} · id ${row.order.id}`);
      void balances.refresh();
    } catch (e) {
      toast("error", errorText(e));
    }
  };

  const refreshBook = () => {
    const feed = session.feed;
    if (!feed) return;
    feed.refresh().then(
      () => toast("info", "Order book refreshed"),
      (e: unknown) => toast("error", errorText(e)),
    );
  };

  const handleKey = (key: KeyName) => {
    // this key's state, with the keys before it in the same chunk applied
    const help = helpRef.current;
    const confirmation = confirmationRef.current;
    const picker = pickerRef.current;
    const focus = focusRef.current;
    const selection = selectionRef.current;
    if (key === "ctrl+c") return quit();
    if (help) {
      setHelp(false);
      return;
    }
    if (confirmation) {
      if (key === "y" || key === "Y" || key === "enter") {
        setConfirmation(undefined);
        void send(confirmation);
      } else if (key === "n" || key === "N" || key === "escape" || key === "q") {
        setConfirmation(undefined);
        toast("info", "Not sent");
      }
      return;
    }
    if (picker) {
      const pickerItems = filterPicker(picker);
      if (key === "escape") return setPicker(undefined);
      if (key === "up") return setPicker({ ...picker, index: Math.max(0, picker.index - 1) });
      if (key === "down")
        return setPicker({ ...picker, index: Math.min(Math.max(0, pickerItems.length - 1), picker.index + 1) });
      if (key === "enter") {
        const item = pickerItems[picker.index];
        if (item) return choose(picker.kind, item.value);
        if (picker.kind !== "exchange" && picker.query.trim()) return choose(picker.kind, picker.query.trim());
        return;
      }
      if (key === "backspace") return setPicker({ ...picker, query: picker.query.slice(0, -1), index: 0 });
      if (key.length === 1 && key >= " ") return setPicker({ ...picker, query: picker.query + key, index: 0 });
      return;
    }

    if (focus === "trade") {
      if (NUMBER_KEY.test(key)) return dispatch({ type: "input", text: key });
      if (key === "backspace") return dispatch({ type: "backspace" });
      if (key === "up") return dispatch({ type: "move", direction: -1 });
      if (key === "down" || key === "enter") return dispatch({ type: "move", direction: 1 });
    }
    if (focus === "book") {
      if (key === "up" || key === "down") return setSelection((s) => moveSelection(s, key, view));
      if (key === "escape") return setSelection(undefined);
      if (key === "enter") {
        const pick = pickFromSelection(selection, view);
        if (!pick) return toast("info", "Select a level with ↑ ↓ first");
        dispatch({ type: "fill", pick });
        return toast(
          "info",
          `${pick.type} ${formatAmount(pick.amount)} ${base} up to ${formatPrice(pick.price)}: panel filled`,
        );
      }
    }
    if (focus === "orders") {
      if (key === "up") return setOrderIndex((i) => Math.max(0, Math.min(i, orders.rows.length - 1) - 1));
      if (key === "down") return setOrderIndex((i) => Math.min(Math.max(0, orders.rows.length - 1), i + 1));
      if (key === "c") return void cancelSelected();
    }

    switch (key) {
      case "q":
        return quit();
      case "?":
        return setHelp(true);
      case "tab":
      case "shift+tab": {
        const step = key === "tab" ? 1 : FOCUS_ORDER.length - 1;
        return setFocus((f) => FOCUS_ORDER[(FOCUS_ORDER.indexOf(f) + step) % FOCUS_ORDER.length] as Focus);
      }
      case "b":
        return prepareOrder("Buy");
      case "s":
        return prepareOrder("Sell");
      case "x":
        return dispatch({ type: "clear" });
      case "c":
        return toast("info", "Tab to open orders and pick the order to cancel");
      case "C":
        if (!session.adapter) return toast("error", session.adapterError ?? "The account is not open yet");
        return setConfirmation({
          kind: "cancel-all",
          text: `Cancel all? [y/n] ${orders.rows.length} open ${session.pair} orders on ${EXCHANGES[session.exchange].name}/${session.account}`,
        });
      case "r":
        return refreshBook();
      case "o":
        return void orders.refresh();
      case "l":
        return void balances.refresh();
      case "R":
        refreshBook();
        void orders.refresh();
        return void balances.refresh();
      case "e":
        return void openPicker("exchange");
      case "a":
        return void openPicker("account");
      case "p":
        return void openPicker("pair");
    }
  };

  return { focus, selection, orderIndex, form, help, picker, confirmation, pickerItems, handleKey };
}
