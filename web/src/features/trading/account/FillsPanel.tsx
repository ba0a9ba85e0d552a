import type { AccountPath } from "../../../../../lib/api.js";
import { formatUtcTime } from "../../../../../lib/format.js";
import { useFills } from "./fills";

/**
 * docs/web-trading.md "Fills": your fills of this account seen in this tab, newest first: time
 * (UTC), side, price, amount, fee where the exchange gives it (paper does), else "-".
 */
export function FillsPanel({ path }: { path: AccountPath }) {
  const fills = useFills(path);
  return (
    <section className="panel" aria-label="Fills">
      <h2>Fills{fills.length > 0 ? ` (${fills.length})` : ""}</h2>
      {fills.length === 0 ? (
        <p className="muted">No fills seen since this view opened</p>
      ) : (
        <table className="table small-text">
          <thead>
            <tr>
              <th>Time</th>
              <th>Side</th>
              <th>Price</th>
              <th>Amount</th>
              <th>Fee</th>
            </tr>
          </thead>
          <tbody>
            {fills.map((f) => (
              <tr key={`${f.orderId}-${f.time}-${f.amount}`} aria-label={`Fill of order ${f.orderId}`}>
                <td className="num">{formatUtcTime(f.time)}</td>
                <td className={f.side === "Buy" ? "buy" : "sell"}>{f.side}</td>
                <td className="num">
                  {f.atLimitOrBetter ? (f.side === "Buy" ? "≤ " : "≥ ") : ""}
                  {f.price}
                </td>
                <td className="num">{f.amount}</td>
                <td className="num">{f.fee ?? "-"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
