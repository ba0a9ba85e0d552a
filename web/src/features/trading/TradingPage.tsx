import { getRouteApi } from "@tanstack/react-router";
import { exchangeName } from "../../../../lib/exchanges.js";
import type { ExchangeId } from "../../../../lib/types.js";
import { EXCHANGES } from "../../../../lib/exchanges.js";
import { decodeQueryPath } from "./query-path";

const route = getRouteApi("/_auth/c/$queryPath");

/** Seed 000 §2 "Client trading view": part 2 builds the chart, book, panels and bots here. */
export function TradingPage() {
  const { queryPath } = route.useParams();
  const path = decodeQueryPath(queryPath);
  if (!path) return <section className="panel empty" aria-label="Trading view" data-testid="trading-empty" />;
  const [client, exchange, account] = path;
  const name = exchange in EXCHANGES ? exchangeName(exchange as ExchangeId) : exchange;
  return (
    <section className="panel" aria-label="Trading view">
      <h1>
        {client} <span className="muted">/</span> {name} <span className="muted">/</span> {account}
      </h1>
      <p className="muted">The trading view (order book, chart, orders, bots) is not built yet.</p>
    </section>
  );
}
