import { useState } from "react";
import { Decimal } from "../../../../../lib/decimal.js";
import { formatCompact, formatSpread } from "../../../../../lib/format.js";
import { staleText } from "../../../../../lib/order-checks.js";
import type { CumulativeRow } from "../../../../../lib/orderbook.js";
import { awakeToast, emit } from "../../../app/events";
import { BOOK_PICK, type BookPick, pickOf } from "./book-view";
import type { OrderBookState } from "./useOrderBook";

/** 2 decimals, or 4 below 0.1 %: a liquid pair's 0.0015 % would read ~0.00 % (as the TUI does). */
function spreadDecimals(spread: string): number {
  return new Decimal(spread).lt("0.1") ? 4 : 2;
}

type Hover = { side: "ask" | "bid"; index: number } | undefined;

/**
 * docs/dashboard-rules.md#screens "Order book": Price, Amount, Total; asks on top (best just above the middle row);
 * the middle row with the mid, the "~" spread and a refresh; hovering a row highlights the
 * cumulative rows and shows their cumulative amount and total; a click broadcasts BOOK_PICK. A book
 * that is not live is greyed, says since when, and is not used to fill the panel (issue 20).
 */
export function OrderBookPanel({ book, pair }: { book: OrderBookState; pair: string }) {
  const [hover, setHover] = useState<Hover>(undefined);
  const { view, staleness } = book;
  const [base = "", quote = ""] = pair.split("/");
  const hovered = hover ? (hover.side === "ask" ? view.asks : view.bids)[hover.index] : undefined;

  const pick = (side: "ask" | "bid", index: number) => {
    if (staleness) {
      awakeToast("error", "Not filled from the book", staleText(staleness));
      return;
    }
    const p = pickOf(view, side, index);
    if (p) emit<BookPick>(BOOK_PICK, p);
  };
  const row = (side: "ask" | "bid", r: CumulativeRow, index: number) => {
    const inRange = hover !== undefined && hover.side === side && index <= hover.index;
    return (
      <tr
        key={r.price}
        className={`level ${side}${inRange ? " hl" : ""}`}
        data-testid={`${side}-row`}
        onMouseEnter={() => setHover({ side, index })}
        onClick={() => pick(side, index)}
        aria-label={`${side === "ask" ? "Ask" : "Bid"} ${r.price}`}
      >
        <td className={`num ${side === "ask" ? "sell" : "buy"}`}>{r.price}</td>
        <td className="num">{r.amount}</td>
        <td className="num">{formatCompact(r.total, 4)}</td>
      </tr>
    );
  };
  return (
    <section
      className={`panel book${staleness ? " stale" : ""}`}
      aria-label="Order book"
      data-state={book.state}
      data-source={book.source}
      data-version={view.version}
      data-source-version={view.sourceVersion}
    >
      <header className="row between">
        <h2>Order book</h2>
        <span className="muted">{pair}</span>
      </header>
      {staleness ? (
        <p className="stale-banner" role="status">
          ⚠ Order book not live: {staleText(staleness)}
        </p>
      ) : null}
      <table className="table book-table" onMouseLeave={() => setHover(undefined)}>
        <thead>
          <tr>
            <th>Price ({quote})</th>
            <th>Amount ({base})</th>
            <th>Total ({quote})</th>
          </tr>
        </thead>
        <tbody className="asks">
          {view.asks
            .map((r, i) => ({ r, i }))
            .reverse()
            .map(({ r, i }) => row("ask", r, i))}
        </tbody>
        <tbody>
          <tr className="mid-row">
            <td colSpan={3}>
              <div className="row between">
                <span>
                  <span className="num mid" data-testid="mid">
                    {staleness ? "—" : (view.mid ?? "—")}
                  </span>{" "}
                  <span className="muted num" data-testid="spread">
                    {!staleness && view.spread !== undefined
                      ? formatSpread(view.spread, spreadDecimals(view.spread))
                      : ""}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn small"
                  aria-label="Refresh order book"
                  onClick={() =>
                    void book.refresh().catch((e: Error) => awakeToast("error", "Order book refresh failed", e.message))
                  }
                >
                  ↻
                </button>
              </div>
            </td>
          </tr>
        </tbody>
        <tbody className="bids">{view.bids.map((r, i) => row("bid", r, i))}</tbody>
      </table>
      <p className="hover-sum num" data-testid="book-hover" aria-live="polite">
        {hovered ? `Σ ${hovered.cumAmount} ${base} · ${hovered.cumTotal} ${quote}` : " "}
      </p>
    </section>
  );
}
