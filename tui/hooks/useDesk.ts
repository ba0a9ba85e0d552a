import { useMemo } from "react";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { Decimal, resolveOrderAmount } from "../../lib/decimal.js";
import { normalizePair } from "../../lib/pair.js";
import { EXCHANGE_IDS, type ExchangeId, type Side } from "../../lib/types.js";
import {
  type BookSelection,
  type BookView,
  clampSelection,
  moveSelection,
  moveSelectionBy,
  pickFromSelection,
  selectionOnBook,
} from "../book-view.js";
import type { PickerItem } from "../components/Picker.js";
import { errorText } from "../errors.js";
import { type BookStaleness, staleText } from "../feed-health.js";
import { formatPrice, groupThousands } from "../format.js";
import { checkFunds, type OrderDraft, type OrderWarning, orderWarning } from "../order-checks.js";
import type { TuiServices } from "../services.js";
import { EMPTY_TRADE_FORM, type TradeFormAction, type TradeFormState, tradeFormReducer } from "../trade-form.js";
import type { BalancesState } from "./useBalances.js";
import type { KeyName } from "./useKeypress.js";
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
  /** pairs: the options are the exchange's own list, and a pair outside it is refused */
  listed?: boolean;
}

/**
 * An order waits for "y" (step 1); when the guard or the book's staleness warns, "y" leads to step
 * 2, which sends only on "yes" typed and Enter (docs/tui.md "Order checks").
 */
export interface OrderConfirmation {
  kind: "order";
  side: Side;
  price: string;
  amount: string;
  /** maker only (docs/orders.md "Post-only") */
  postOnly: boolean;
  /** "Sell 0.5 BTC @ 6370 USDT (≈ 3185 USDT) on Paper (simulated)/default" */
  summary: string;
  /** step 1's question: "Send? [y/N] " and the summary */
  text: string;
  /** what the question adds, e.g. that the funds could not be checked */
  note: string | undefined;
  warning: OrderWarning | undefined;
  step: 1 | 2;
  /** step 2: what the trader typed so far */
  typed: string;
}

export type Confirmation = OrderConfirmation | { kind: "cancel-all"; text: string };

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
  /** a click on a book level (fills from it, as Enter) or the wheel (moves the selection) */
  handleMouse(event: DeskMouse): void;
}

/** A mouse event as the App placed it: on a book level (side and index), or elsewhere. */
export interface DeskMouse {
  kind: "click" | "wheel-up" | "wheel-down";
  level?: { side: "ask" | "bid"; index: number } | undefined;
  /** the panel under the pointer, focused by a click */
  panel?: Focus | undefined;
}

export interface DeskInputs {
  session: Session;
  services: TuiServices;
  view: BookView;
  /** set while the book is not live: filling from it is refused, a send asks twice */
  staleness: BookStaleness | undefined;
  /** the account's far-price limit in percent; the guard's default (5) when undefined */
  farPricePercent?: string | number | undefined;
  /** rows a PgUp/PgDn moves the book selection: the levels shown per side */
  pageRows?: number;
  orders: OpenOrdersState;
  balances: BalancesState;
  toast: (kind: ToastKind, text: string) => void;
  /** called first with every key: true when the key only dismissed a message (useToast's onKey) */
  dismissToast?: (key: KeyName) => boolean;
  quit: () => void;
}

/** What a number field holds while it is typed: digits, one point (or comma), a leading minus. */
const PARTIAL_NUMBER = /^-?\d*([.,]\d*)?$/;

/**
 * Why `key` cannot follow `text` in a number field, or undefined when it can (docs/tui.md
 * "Messages": an invalid entry says why at once instead of being dropped later).
 */
export function refusedNumberKey(text: string, key: string): string | undefined {
  const next = text + key;
  if (PARTIAL_NUMBER.test(next)) return undefined;
  if ((key === "." || key === ",") && /[.,]/.test(text)) return `"${next}" is not a number: it has one decimal point`;
  if (key === "-") return `"${next}" is not a number: a minus goes first`;
  return `"${next}" is not a number`;
}

const NUMBER_KEY = /^[0-9.,-]+$/;

/** The book's navigation keys (docs/tui.md "Keys"): arrows and vi keys one row, PgUp/PgDn a page, Home/End a side. */
const BOOK_STEPS: Readonly<Record<string, "up" | "down" | "pageup" | "pagedown" | "home" | "end">> = {
  up: "up",
  k: "up",
  down: "down",
  j: "down",
  pageup: "pageup",
  pagedown: "pagedown",
  home: "home",
  end: "end",
};
const NO_ITEMS: PickerItem[] = [];
const FIELD_LABEL = { price: "Price", amount: "Amount", quote: "Quote" } as const;

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
  const { session, services, view, staleness, orders, balances, toast, quit } = inputs;
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
    let listed = false;
    if (kind === "exchange") {
      options = EXCHANGE_IDS.map((id) => ({ value: id, label: `${CATALOGUE[id].name} (${id})` }));
    } else if (kind === "account") {
      const listed = (await services.listAccounts?.(session.exchange).catch(() => [])) ?? [];
      options = [...new Set([session.account, ...listed])].map((a) => ({ value: a, label: a }));
    } else {
      const choices = await services.listPairs?.(session.exchange).catch(() => undefined);
      const pairs = choices?.pairs ?? [];
      // docs/tui.md "Keys": only the exchange's pairs when it lists them (paper's list is the whole
      // of what it trades); without its list, the current pair and common ones, any pair typed
      listed = choices?.listed === true && pairs.length > 0;
      options = (listed ? pairs : [...new Set([session.pair, ...pairs])]).map((p) => ({ value: p, label: p }));
      if (choices && !choices.listed && CATALOGUE[session.exchange].needsApiKey) {
        toast("info", `${CATALOGUE[session.exchange].name}'s pair list could not be read: type any pair`);
      }
    }
    const current = kind === "exchange" ? session.exchange : kind === "account" ? session.account : session.pair;
    setPicker({
      kind,
      query: "",
      ...(listed ? { listed } : {}),
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
        const offered = pickerRef.current?.options ?? [];
        if (pickerRef.current?.listed && !offered.some((o) => o.value === pair)) {
          const name = CATALOGUE[session.exchange].name;
          return toast(
            "error",
            CATALOGUE[session.exchange].needsApiKey
              ? `${name} does not list ${pair}: pick one of its ${offered.length} pairs`
              : `Paper trades ${offered.map((o) => o.value).join(", ")}: not ${pair}`,
          );
        }
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
    // the guard must measure with this account's limit, which may be stricter than the default
    if (session.farPriceLoading) return toast("info", "Reading the account's far-price limit: press again in a moment");
    const form = formRef.current;
    try {
      // docs/dashboard-rules.md#validation "Orders" and docs/decisions.md#d1, in the lib: price plus amount or quote; zero is refused
      const { price, amount } = resolveOrderAmount({
        price: form.price,
        amount: form.amount,
        quote: form.quote,
        ...(session.decimals ?? {}),
      });
      const total = price.times(amount);
      const where = `${CATALOGUE[session.exchange].name}/${session.account}`;
      const draft: OrderDraft = { side, price: price.toFixed(), amount: amount.toFixed(), pair: session.pair };
      // docs/tui.md "Order checks": the free balance before the question
      const funds = checkFunds(draft, balances);
      if (!funds.ok) return toast("error", funds.message);
      // docs/orders.md "Post-only": never sent as a plain limit where the exchange has no form
      const postOnly = form.postOnly;
      if (postOnly && CATALOGUE[session.exchange].postOnly === null)
        return toast("error", `${session.exchange} has no post-only order type: press m to turn post-only off`);
      const summary = `${side}${postOnly ? " post-only" : ""} ${draft.amount} ${base} @ ${draft.price} ${quote} (≈ ${groupThousands(total.decimalPlaces(8, Decimal.ROUND_DOWN).toFixed())} ${quote}) on ${where}`;
      setConfirmation({
        kind: "order",
        side,
        price: draft.price,
        amount: draft.amount,
        postOnly,
        summary,
        // the answer keys first: a narrow terminal cuts the end of the line, never the question
        text: `Send? [y/N] ${summary}`,
        note: funds.note,
        warning: warningFor(draft),
        step: 1,
        typed: "",
      });
    } catch (e) {
      toast("error", errorText(e));
    }
  };

  const warningFor = (draft: OrderDraft) => orderWarning(draft, view, staleness, inputs.farPricePercent);

  /** Step 1 answered "y": a warning (as of now, or as shown) asks the explicit second step. */
  const confirmFirst = (c: OrderConfirmation) => {
    const warning = warningFor({ side: c.side, price: c.price, amount: c.amount, pair: session.pair }) ?? c.warning;
    if (!warning) {
      setConfirmation(undefined);
      return void send(c);
    }
    setConfirmation({ ...c, warning, step: 2, typed: "" });
  };

  /** Step 2: only "yes" and Enter sends; a new kind of warning since the question asks again. */
  const answerSecond = (c: OrderConfirmation, key: KeyName) => {
    if (key === "enter") {
      if (c.typed.trim().toLowerCase() !== "yes") {
        setConfirmation(undefined);
        return toast("info", "Not sent");
      }
      const fresh = warningFor({ side: c.side, price: c.price, amount: c.amount, pair: session.pair });
      if (fresh && fresh.kind !== c.warning?.kind) return setConfirmation({ ...c, warning: fresh, typed: "" });
      setConfirmation(undefined);
      return void send(c);
    }
    if (key === "backspace") return setConfirmation({ ...c, typed: c.typed.slice(0, -1) });
    if (key === "escape" || key === "n" || key === "N" || key === "q") {
      setConfirmation(undefined);
      return toast("info", "Not sent");
    }
    if (key.length === 1 && key >= " " && c.typed.length < 8) setConfirmation({ ...c, typed: c.typed + key });
  };

  const send = async (c: Confirmation) => {
    const adapter = session.adapter;
    if (!adapter) return;
    try {
      if (c.kind === "order") {
        const order = await adapter.createOrder({
          pair: session.pair,
          side: c.side,
          amount: c.amount,
          price: c.price,
          ...(c.postOnly ? { postOnly: true } : {}),
        });
        // docs/tui.md "Fills": what filled at once is said here, and listed with your fills
        const fill = orders.recordPlaced(order);
        const placed = `${order.side} ${formatPrice(order.amount)} ${base} @ ${formatPrice(order.price)} placed`;
        toast(
          "success",
          fill
            ? `${placed} · id ${order.id} · filled ${formatPrice(fill.amount)} ${base} at once ${fill.atLimitOrBetter ? `at ${formatPrice(order.price)} or better` : `at an average of ${formatPrice(fill.price)}`}${fill.complete ? "" : `, ${new Decimal(order.amount).minus(order.filled).toFixed()} resting`}`
            : `${placed} · id ${order.id}`,
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
    if (orders.error) return toast("error", `orders unavailable: ${orders.error}`);
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
    // Esc backs out of an open question, picker or help first; an error under it stays until then
    const overlay = help || confirmation !== undefined || picker !== undefined;
    if (inputs.dismissToast?.(overlay && key === "escape" ? "" : key)) return;
    if (help) {
      setHelp(false);
      return;
    }
    if (confirmation) {
      if (confirmation.kind === "order" && confirmation.step === 2) return answerSecond(confirmation, key);
      // "[y/N]": only y answers yes; Enter is the default, no (docs/tui.md "Order checks")
      if (key === "y" || key === "Y") {
        if (confirmation.kind === "order") return confirmFirst(confirmation);
        setConfirmation(undefined);
        void send(confirmation);
      } else if (key === "n" || key === "N" || key === "enter" || key === "escape" || key === "q") {
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
      if (NUMBER_KEY.test(key)) {
        const f = formRef.current;
        const why = refusedNumberKey(f[f.active], key);
        if (why) return toast("error", `${FIELD_LABEL[f.active]}: ${why}; "${key}" not typed`);
        return dispatch({ type: "input", text: key });
      }
      if (key === "escape") return setFocus("book");
      if (key === "backspace") return dispatch({ type: "backspace" });
      if (key === "up") return dispatch({ type: "move", direction: -1 });
      if (key === "down" || key === "enter") return dispatch({ type: "move", direction: 1 });
    }
    if (focus === "book") {
      const step = BOOK_STEPS[key];
      if (step === "up" || step === "down") return setSelection((s) => moveSelection(s, step, view));
      if (step !== undefined) {
        const page = Math.max(1, inputs.pageRows ?? 10);
        const rows = step === "pageup" ? page : step === "pagedown" ? -page : step === "home" ? 1e6 : -1e6;
        return setSelection((s) => moveSelectionBy(s, rows, view));
      }
      if (key === "escape") {
        if (!selection) return toast("info", "Nothing to back out of: Tab moves between panels, q quits");
        return setSelection(undefined);
      }
      if (key === "enter") {
        // docs/tui.md "Stale book": prices from a book that is not live do not go into the panel
        if (staleness) return toast("error", `Not filled from the book: ${staleText(staleness)}`);
        // docs/tui.md "Book selection": only the price the row shows is filled; a level that left
        // the book moves the selection and asks for Enter again
        if (selection?.price !== undefined && !selectionOnBook(selection, view)) {
          const moved = clampSelection(selection, view);
          setSelection(moved);
          return toast(
            "info",
            moved?.price
              ? `The level ${formatPrice(selection.price)} left the book: now on ${formatPrice(moved.price)}, Enter to fill it`
              : `The level ${formatPrice(selection.price)} left the book`,
          );
        }
        const pick = pickFromSelection(selection, view);
        if (!pick) return toast("info", "Select a level with ↑ ↓ (or j k) first");
        dispatch({ type: "fill", pick });
        return toast(
          "info",
          `${pick.type} ${groupThousands(pick.amount)} ${base} up to ${formatPrice(pick.price)}: panel filled`,
        );
      }
    }
    if (focus === "orders") {
      if (key === "escape") return setFocus("book");
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
      case "m":
        if (!formRef.current.postOnly && CATALOGUE[session.exchange].postOnly === null)
          return toast("error", `${session.exchange} has no post-only order type`);
        toast(
          "info",
          `Post-only ${formRef.current.postOnly ? "off" : "on"}: ${formRef.current.postOnly ? "orders may take" : "an order that would take is refused"}`,
        );
        return dispatch({ type: "postOnly" });
      case "c":
        return toast("info", "Tab to open orders and pick the order to cancel");
      case "C":
        if (!session.adapter) return toast("error", session.adapterError ?? "The account is not open yet");
        if (!orders.error && orders.lastUpdate !== undefined && orders.rows.length === 0)
          return toast("info", `Nothing to cancel: no open ${session.pair} orders`);
        return setConfirmation({
          kind: "cancel-all",
          // without a list there is no count to show: the exchange cancels whatever is open
          text:
            orders.error || orders.lastUpdate === undefined
              ? `Cancel all? [y/N] every open ${session.pair} order (list ${orders.error ? `unavailable: ${orders.error}` : "not loaded yet"}) on ${CATALOGUE[session.exchange].name}/${session.account}`
              : `Cancel all? [y/N] ${orders.rows.length} open ${session.pair} orders on ${CATALOGUE[session.exchange].name}/${session.account}`,
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

  /** docs/tui.md "Mouse": the wheel is ↑/↓ of the book; a click on a level is a selection and Enter. */
  const handleMouse = (event: DeskMouse) => {
    if (helpRef.current || confirmationRef.current || pickerRef.current) return;
    if (event.kind !== "click") {
      setFocus("book");
      const direction = event.kind === "wheel-up" ? "up" : "down";
      return setSelection((s) => moveSelection(s, direction, view));
    }
    inputs.dismissToast?.("click");
    if (!event.level) {
      if (event.panel) setFocus(event.panel);
      return;
    }
    const rows = event.level.side === "ask" ? view.asks : view.bids;
    const row = rows[event.level.index];
    if (!row) return;
    setFocus("book");
    const clicked: BookSelection = { side: event.level.side, index: event.level.index, price: row.price };
    setSelection(clicked);
    handleKey("enter");
  };

  return { focus, selection, orderIndex, form, help, picker, confirmation, pickerItems, handleKey, handleMouse };
}
