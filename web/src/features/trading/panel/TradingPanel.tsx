import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import { CATALOGUE } from "../../../../../exchanges/catalogue.js";
import type { PairSpec } from "../../../../../exchanges/types.js";
import type { AccountPath } from "../../../../../lib/api.js";
import { ambiguousNumberMessage, isUserNumber, ZERO_AMOUNT_MESSAGE } from "../../../../../lib/decimal.js";
import {
  type KnownBalances,
  type OrderDraft,
  type OrderWarning,
  orderWarning,
} from "../../../../../lib/order-checks.js";
import { DEFAULT_FAR_PRICE_PERCENT } from "../../../../../lib/price-guard.js";
import type { ExchangeId, Order, Side } from "../../../../../lib/types.js";
import { api } from "../../../app/api";
import { awakeToast, emit, listen } from "../../../app/events";
import { normalizeNumber } from "../../../components/inputs";
import { balanceRows } from "../account/BalancesPanel";
import { recordPlaced } from "../account/fills";
import { ORDER_ACTION, useBalances, useTradeKey } from "../account/useTrade";
import { BOOK_PICK, type BookPick } from "../book/book-view";
import type { OrderBookState } from "../book/useOrderBook";
import { prepareOrder, WEB_FAR_PRICE_OVERRIDE, ZERO_TOAST } from "./prepare-order";

type Step =
  | { kind: "idle" }
  | { kind: "confirm"; draft: OrderDraft; note: string | undefined }
  | { kind: "warning"; draft: OrderDraft; warning: OrderWarning };

/** A number input of the panel (docs/dashboard-rules.md#validation "Numbers": a comma becomes a dot; invalid input reverts on blur). */
function PanelNumber(props: { label: string; name: string; value: string; onChange: (v: string) => void }) {
  const [previous, setPrevious] = useState(props.value);
  // '1,000' is neither reverted nor read as 1: it stays as typed and is refused in the CLI's words
  const ambiguous = ambiguousNumberMessage(props.value, props.name);
  // a value set from outside (a click on the book) is the one to go back to
  useEffect(() => {
    if (props.value.trim() === "" || isUserNumber(props.value)) setPrevious(props.value);
  }, [props.value]);
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        inputMode="decimal"
        className="num"
        name={props.name}
        aria-label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={ambiguous !== undefined}
        onBlur={() => {
          const t = props.value;
          if (ambiguousNumberMessage(t)) return;
          const next = t.trim() === "" ? "" : isUserNumber(t) ? normalizeNumber(t) : previous;
          setPrevious(next);
          props.onChange(next);
        }}
      />
      {ambiguous ? (
        <span className="error-text small-text" role="alert">
          {ambiguous}
        </span>
      ) : null}
    </label>
  );
}

/**
 * docs/dashboard-rules.md#screens "Trading panel": Price, Amount (base), Quote (total), Buy and Sell; filled by a click
 * on the book (BOOK_PICK). Before the question: the amount (quote / price when the amount is
 * empty, cut to the pair's decimals, the zero toast) and the free balance; then "Send?"; a far
 * price or a book that is not live asks a second, explicit confirmation (issue 20,
 * docs/web-trading.md).
 */
export function TradingPanel(props: {
  path: AccountPath;
  pair: string;
  decimals: { price: number; amount: number } | undefined;
  /** the venue's minimums of the pair (GET /token/trade/pair) */
  rules?: Pick<PairSpec, "minAmount" | "minNotional"> | undefined;
  book: OrderBookState;
}) {
  const { path, pair, book } = props;
  const [price, setPrice] = useState("");
  const [amount, setAmount] = useState("");
  const [quote, setQuote] = useState("");
  const [postOnly, setPostOnly] = useState(false);
  // docs/orders.md "Post-only": offered where the exchange has a maker-only form
  const makerForm = CATALOGUE[path[1] as ExchangeId]?.postOnly ?? null;
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const balances = useBalances(path);
  const { key } = useTradeKey(path);
  const [base = "", quoteCcy = ""] = pair.split("/");

  useEffect(
    () =>
      listen<BookPick>(BOOK_PICK, (p) => {
        setPrice(p.price);
        setAmount(p.amount);
        setQuote(p.total);
        setRefusal(undefined);
      }),
    [],
  );

  const known = (): KnownBalances => ({
    rows: balances.data ? balanceRows(balances.data) : [],
    error: balances.isError ? balances.error.message : undefined,
    lastUpdate: balances.data ? balances.dataUpdatedAt : undefined,
  });
  const warningFor = (draft: OrderDraft) =>
    orderWarning(draft, book.view, book.staleness, DEFAULT_FAR_PRICE_PERCENT, WEB_FAR_PRICE_OVERRIDE);

  const ask = (side: Side) => {
    const prepared = prepareOrder({
      side,
      price,
      amount,
      quote,
      pair,
      decimals: props.decimals,
      rules: props.rules,
      balances: known(),
    });
    if (!prepared.ok) {
      setRefusal(prepared.title === ZERO_TOAST.title ? ZERO_AMOUNT_MESSAGE : prepared.description);
      awakeToast("error", prepared.title, prepared.description);
      return;
    }
    setRefusal(undefined);
    setStep({ kind: "confirm", draft: prepared.draft, note: prepared.note });
  };

  const send = async (draft: OrderDraft) => {
    setSending(true);
    const r = await api.call<Order>("createOrder", {
      path,
      ...(key !== undefined ? { key } : {}),
      body: {
        price: draft.price,
        amount: draft.amount,
        side: draft.side,
        ...(postOnly && makerForm ? { postOnly: true } : {}),
      },
    });
    setSending(false);
    setStep({ kind: "idle" });
    if (r.ok) recordPlaced(path, r.data, Date.now());
    if (r.ok) emit<string>(ORDER_ACTION, `placing ${draft.side} ${draft.amount} ${base} @ ${draft.price}`);
  };

  // The checks run again at each answer: the book may have moved or gone stale meanwhile.
  const confirm = () => {
    if (step.kind === "idle") return;
    const warning = warningFor(step.draft);
    if (warning && (step.kind === "confirm" || warning.kind !== step.warning.kind)) {
      setStep({ kind: "warning", draft: step.draft, warning });
      return;
    }
    void send(step.draft);
  };

  const draft = step.kind === "idle" ? undefined : step.draft;
  return (
    <section className="panel trading-panel" aria-label="Trading panel">
      <h2>Trade {pair}</h2>
      <div className="panel-inputs">
        <PanelNumber label="Price" name="price" value={price} onChange={setPrice} />
        <PanelNumber label="Amount" name="amount" value={amount} onChange={setAmount} />
        <PanelNumber label="Quote" name="quote" value={quote} onChange={setQuote} />
      </div>
      <p className="hint">
        Amount in {base}; Quote in {quoteCcy} (used when Amount is empty: amount = quote / price)
      </p>
      <p className="hint" data-testid="pair-decimals">
        {props.decimals
          ? `${pair}: prices to ${props.decimals.price} decimals, amounts to ${props.decimals.amount}; more is cut`
          : `${pair}: decimals not known, nothing is cut`}
      </p>
      <label
        className="field-inline"
        title={makerForm ? "Maker only: refused instead of taking" : `${path[1]} has no post-only order type`}
      >
        <input
          type="checkbox"
          name="postOnly"
          checked={postOnly && makerForm !== null}
          disabled={makerForm === null}
          onChange={(e) => setPostOnly(e.target.checked)}
        />{" "}
        Post-only{makerForm ? "" : ` (none on ${path[1]})`}
      </label>
      <div className="row">
        <button type="button" className="btn buy grow" onClick={() => ask("Buy")}>
          Buy
        </button>
        <button type="button" className="btn sell grow" onClick={() => ask("Sell")}>
          Sell
        </button>
      </div>
      {refusal ? (
        <p className="error-text wrap" role="alert">
          {refusal}
        </p>
      ) : null}
      <Dialog.Root open={step.kind !== "idle"} onOpenChange={(open) => (open ? undefined : setStep({ kind: "idle" }))}>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog" aria-describedby={undefined}>
            {draft ? (
              <>
                <Dialog.Title>{step.kind === "warning" ? "Send anyway?" : "Send?"}</Dialog.Title>
                <p className="mono">
                  <span className={draft.side === "Buy" ? "buy" : "sell"}>{draft.side}</span> {draft.amount} {base} @{" "}
                  {draft.price} {quoteCcy} on {path.join(" / ")}
                  {postOnly && makerForm ? " (post-only)" : ""}
                </p>
                {step.kind === "confirm" && step.note ? <p className="muted">{step.note}</p> : null}
                {step.kind === "warning" ? (
                  <p className="warning-text" role="alert">
                    {step.warning.text}
                  </p>
                ) : null}
                <div className="row end">
                  <Dialog.Close asChild>
                    <button type="button" className="btn">
                      Cancel
                    </button>
                  </Dialog.Close>
                  <button
                    type="button"
                    className={`btn ${step.kind === "warning" ? "danger" : "primary"}`}
                    disabled={sending}
                    onClick={confirm}
                  >
                    {step.kind === "warning" ? "Send anyway" : "Send"}
                  </button>
                </div>
              </>
            ) : null}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
