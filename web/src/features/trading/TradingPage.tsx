import { getRouteApi } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { exchangeName } from "../../../../exchanges/catalogue.js";
import { isExchangeId } from "../../../../lib/types.js";
import { useAccounts } from "../../app/query";
import { useSession } from "../../app/session-store";
import { AccountSwitcher } from "./AccountSwitcher";
import { BalancesPanel } from "./account/BalancesPanel";
import { FillsPanel } from "./account/FillsPanel";
import { OpenOrdersPanel } from "./account/OpenOrdersPanel";
import { decimalsOf, pairDecimals, usePairRules, useTokenPairs } from "./account/useTrade";
import { OrderBookPanel } from "./book/OrderBookPanel";
import { useOrderBook } from "./book/useOrderBook";
import { DecimalsSetup } from "./DecimalsSetup";
import { TradingPanel } from "./panel/TradingPanel";
import { decodeQueryPath } from "./query-path";

const route = getRouteApi("/_auth/c/$queryPath");
const ChartPanel = lazy(() => import("./chart/ChartPanel").then((m) => ({ default: m.ChartPanel })));
const BotsButton = lazy(() => import("../bots/BotsDialog").then((m) => ({ default: m.BotsDialog })));

/** docs/dashboard-rules.md#screens "Client trading view" (docs/web-trading.md): chart, book, panel, balances, orders, bots, switcher, decimals. */
export function TradingPage() {
  const { queryPath } = route.useParams();
  const path = decodeQueryPath(queryPath);
  const accounts = useAccounts();
  const pairs = useTokenPairs();
  const { admin } = useSession();
  const account = path
    ? accounts.data?.find((a) => a.client === path[0] && a.exchange === path[1] && a.account === path[2])
    : undefined;
  // docs/web-trading.md "Account switcher and decimals": a pair is upper case wherever it is used
  const pair = account?.pair.toUpperCase();
  const rules = usePairRules(path ?? ["", "", ""], pair !== undefined);
  const book = useOrderBook(path?.[1] ?? "", pair);
  if (!path) return <section className="panel empty" aria-label="Trading view" data-testid="trading-empty" />;
  const [client, exchange, accountName] = path;
  const name = isExchangeId(exchange) ? exchangeName(exchange) : exchange;
  const setDecimals = pair ? decimalsOf(pairs.data, exchange, pair) : undefined;
  const decimals = pairDecimals(setDecimals, rules.data);
  return (
    <section className="trading" aria-label="Trading view">
      <header className="trading-head">
        <h1>
          {client} <span className="muted">/</span> {name} <span className="muted">/</span> {accountName}
          {pair ? <span className="pair"> {pair}</span> : null}
        </h1>
        <div className="row wrap">
          <AccountSwitcher path={path} accounts={accounts.data ?? []} />
          {pair && admin ? <DecimalsSetup exchange={exchange} pair={pair} decimals={setDecimals} /> : null}
          {pair ? (
            <Suspense
              fallback={
                <button type="button" className="btn" disabled>
                  Bots
                </button>
              }
            >
              <BotsButton path={path} pair={pair} />
            </Suspense>
          ) : null}
        </div>
      </header>
      {accounts.isError ? <p className="error-text">accounts unavailable: {accounts.error.message}</p> : null}
      {accounts.data && !account ? <p className="muted">No account at this path.</p> : null}
      {pair ? (
        <div className="trading-grid">
          <div className="area-chart">
            <Suspense fallback={<section className="panel chart-box" aria-label="Chart" />}>
              <ChartPanel exchange={exchange} pair={pair} mid={book.view.mid} live={!book.staleness} />
            </Suspense>
          </div>
          <div className="area-book">
            <OrderBookPanel book={book} pair={pair} />
          </div>
          <div className="area-side">
            <TradingPanel path={path} pair={pair} decimals={decimals} rules={rules.data ?? undefined} book={book} />
            <BalancesPanel path={path} />
            <OpenOrdersPanel path={path} pair={pair} />
            <FillsPanel path={path} />
          </div>
        </div>
      ) : null}
    </section>
  );
}
