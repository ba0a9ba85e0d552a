import * as Tooltip from "@radix-ui/react-tooltip";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { AccountPath } from "../../../../../lib/api.js";
import { Decimal } from "../../../../../lib/decimal.js";
import { formatUtcTime, formatUtcTimestamp, orderTooltip, TOOLTIP_WIDTH_PX } from "../../../../../lib/format.js";
import type { Order } from "../../../../../lib/types.js";
import { api } from "../../../app/api";
import { listen } from "../../../app/events";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useLiveBots } from "../../bots/bots-store";
import { botsPlacingOn, cancelAllQuestion } from "./cancel-all";
import { ORDER_ACTION, useOpenOrders, useTradeKey } from "./useTrade";

/** docs/dashboard-rules.md#screens "Open orders panel": sorted by price descending. */
export function sortByPriceDescending(orders: readonly Order[]): Order[] {
  return [...orders].sort((a, b) => new Decimal(b.price).comparedTo(a.price) ?? 0);
}

/**
 * docs/dashboard-rules.md#screens "Open orders panel": refresh and Cancel all; each row the side colour, the price, the
 * quote total (price × amount) and a cancel; the row tooltip (id, quantity, status, date, and seed
 * docs/exchange-rules.md#chart's 200 px Avg. price / Amount / Volume); the header tooltip the count. Cancel sends the
 * order's id, its clientOID and the pair (docs/dashboard-rules.md#entities "Order payloads").
 */
export function OpenOrdersPanel({ path, pair }: { path: AccountPath; pair: string }) {
  const q = useOpenOrders(path);
  const { key } = useTradeKey(path);
  const client = useQueryClient();
  const bots = botsPlacingOn(useLiveBots(), path, pair);
  const [busy, setBusy] = useState(false);
  /** What the last action left resting, read back from the exchange after it (docs/web-trading.md). */
  const [after, setAfter] = useState<string | undefined>(undefined);
  const readBack = async (what: string) => {
    void client.invalidateQueries({ queryKey: ["balances", ...path] });
    const r = await q.refetch();
    setAfter(
      r.data
        ? `After ${what}: ${r.data.length} open order${r.data.length === 1 ? "" : "s"} resting (${formatUtcTime(r.dataUpdatedAt)})`
        : `After ${what}: open orders not read back`,
    );
  };
  // an order placed from the trading panel is read back here too
  const readBackRef = useRef(readBack);
  readBackRef.current = readBack;
  useEffect(() => listen<string>(ORDER_ACTION, (what) => void readBackRef.current(what)), []);
  const auth = key !== undefined ? { key } : {};
  const cancel = async (o: Order) => {
    setBusy(true);
    const r = await api.call("cancelOrder", {
      path,
      ...auth,
      body: { id: o.id, clientOID: o.clientOrderId || null, customPair: o.pair || pair },
    });
    setBusy(false);
    await readBack(r.ok ? `cancelling ${o.id}` : `a failed cancel of ${o.id}`);
  };
  const cancelAll = async (): Promise<boolean> => {
    setBusy(true);
    const r = await api.call<{ ids: string[] }>("cancelAll", { path, ...auth, body: { customPair: pair } });
    setBusy(false);
    await readBack(r.ok ? `Cancel all (${r.data.ids.length} cancelled)` : "a failed Cancel all");
    return r.ok;
  };
  const question = cancelAllQuestion(path, pair, q.data?.length ?? 0, bots);
  const orders = q.data ? sortByPriceDescending(q.data) : [];
  return (
    <section className="panel" aria-label="Open orders">
      <header className="row between">
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <h2>{q.data ? `Open orders (${q.data.length})` : "Open orders"}</h2>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content className="tooltip" sideOffset={4}>
              {q.data ? `${q.data.length} open order${q.data.length === 1 ? "" : "s"}` : "not loaded"}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
        <span className="row">
          <button type="button" className="btn small" aria-label="Refresh open orders" onClick={() => void q.refetch()}>
            ↻
          </button>
          <ConfirmDialog
            trigger={
              <button type="button" className="btn small danger" disabled={busy || !q.data || q.data.length === 0}>
                Cancel all
              </button>
            }
            title="Cancel all open orders?"
            confirmLabel="Cancel all orders"
            onConfirm={cancelAll}
          >
            <p>{question.text}</p>
            {question.bots ? (
              <p className="warning-text" role="note" data-testid="cancel-all-bots">
                {question.bots}
              </p>
            ) : null}
          </ConfirmDialog>
        </span>
      </header>
      {after ? (
        <p className="muted small-text" role="status" data-testid="orders-after">
          {after}
        </p>
      ) : null}
      <p className="muted small-text" data-testid="orders-updated">
        Last update: {q.dataUpdatedAt ? formatUtcTimestamp(q.dataUpdatedAt) : "-"}
      </p>
      {q.isError && q.data ? (
        <p className="error-text" role="alert">
          orders not updated since {formatUtcTime(q.dataUpdatedAt)}: {q.error.message}
        </p>
      ) : null}
      {q.isError && !q.data ? (
        <p className="error-text" role="alert">
          orders unavailable: {q.error.message}
        </p>
      ) : q.isPending ? (
        <p className="muted">Loading…</p>
      ) : orders.length === 0 ? (
        <p className="muted">No open orders</p>
      ) : (
        <ul className="orders" aria-label="Open orders list">
          {orders.map((o) => {
            const total = new Decimal(o.price).times(o.amount);
            const tip = orderTooltip({ amount: o.amount, price: o.price, pair: o.pair || pair });
            return (
              <Tooltip.Root key={o.id}>
                <Tooltip.Trigger asChild>
                  <li className={`order ${o.side === "Buy" ? "buy" : "sell"}`} aria-label={`${o.side} order ${o.id}`}>
                    <span className={`side-dot ${o.side === "Buy" ? "buy" : "sell"}`} aria-hidden />
                    <span className="num grow" data-testid="order-price">
                      {o.price}
                    </span>
                    <span className="num muted" data-testid="order-total">
                      {total.toFixed()}
                    </span>
                    <button
                      type="button"
                      className="btn small"
                      aria-label={`Cancel order ${o.id}`}
                      disabled={busy}
                      onClick={() => void cancel(o)}
                    >
                      ✕
                    </button>
                  </li>
                </Tooltip.Trigger>
                <Tooltip.Portal>
                  <Tooltip.Content className="tooltip order-tip" sideOffset={4} style={{ width: TOOLTIP_WIDTH_PX }}>
                    <div>id: {o.id}</div>
                    <div>quantity: {o.amount}</div>
                    <div>status: {o.status}</div>
                    <div>date: {formatUtcTimestamp(o.timestamp)}</div>
                    {tip.lines.map((l) => (
                      <div key={l}>{l}</div>
                    ))}
                  </Tooltip.Content>
                </Tooltip.Portal>
              </Tooltip.Root>
            );
          })}
        </ul>
      )}
    </section>
  );
}
