import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { exchangeName } from "../../../../exchanges/catalogue.js";
import { botIndicator, indicatorText } from "../../../../lib/bot-status.js";
import { BOT_LIST_ORDER, type BotType } from "../../../../lib/schemas.js";
import { isExchangeId } from "../../../../lib/types.js";
import { useAccounts, useClients } from "../../app/query";
import { readStorage, STORAGE, writeStorage } from "../../app/storage";
import { Select } from "../../components/Select";
import { useLiveBots } from "../bots/bots-store";
import { StopAllBots } from "../bots/StopAllBots";
import { encodeQueryPath } from "../trading/query-path";
import { Avatar } from "./Avatar";
import { botLetter, groupClients } from "./filters";

/** docs/dashboard-rules.md#constants "Bot list order", as in the bots dialog. */
const bySeedOrder = (x: { botType: string }, y: { botType: string }) =>
  (BOT_LIST_ORDER[x.botType as BotType] ?? 99) - (BOT_LIST_ORDER[y.botType as BotType] ?? 99);

const displayName = (id: string) => (isExchangeId(id) ? exchangeName(id) : id);

export function HomePage() {
  const clients = useClients();
  const accounts = useAccounts();
  const [clientFilter, setClientFilter] = useState(() => readStorage(STORAGE.clientFilter) ?? "");
  const [exchangeFilter, setExchangeFilter] = useState(() => readStorage(STORAGE.exchangeFilter) ?? "");
  const setClient = (v: string) => {
    setClientFilter(v);
    writeStorage(STORAGE.clientFilter, v === "" ? null : v);
  };
  const setExchange = (v: string) => {
    setExchangeFilter(v);
    writeStorage(STORAGE.exchangeFilter, v === "" ? null : v);
  };
  const exchangeIds = [...new Set((accounts.data ?? []).map((a) => a.exchange))].sort();
  const groups = groupClients(clients.data ?? [], accounts.data ?? [], clientFilter, exchangeFilter);
  const loading = clients.isPending || accounts.isPending;
  const liveById = new Map(useLiveBots().map((b) => [b.botId, b]));
  const now = Date.now();

  return (
    <section aria-label="Clients">
      <div className="toolbar">
        <label className="field inline">
          <span>Client</span>
          <input
            type="search"
            value={clientFilter}
            onChange={(e) => setClient(e.target.value)}
            placeholder="Filter by name"
          />
        </label>
        <div className="field inline">
          <span>Exchange</span>
          <Select
            aria-label="Exchange filter"
            value={exchangeFilter}
            onValueChange={setExchange}
            placeholder="All exchanges"
            emptyLabel="All exchanges"
            options={[...new Set([...exchangeIds, ...(exchangeFilter ? [exchangeFilter] : [])])].map((id) => ({
              value: id,
              label: displayName(id),
            }))}
          />
        </div>
        <button
          type="button"
          className="btn"
          disabled={clientFilter === "" && exchangeFilter === ""}
          onClick={() => {
            setClient("");
            setExchange("");
          }}
        >
          Clear filters
        </button>
        <StopAllBots />
      </div>
      {loading ? <p className="muted">Loading…</p> : null}
      {!loading && groups.length === 0 ? <p className="muted">No clients</p> : null}
      <div className="clients">
        {groups.map((g) => (
          <article key={g.client} className="client" aria-label={`Client ${g.client}`}>
            <header className="client-head">
              <Avatar name={g.client} />
              <h2 className="truncate" title={g.client}>
                {g.client}
              </h2>
            </header>
            <div className="cards">
              {g.accounts.length === 0 ? <p className="muted">No accounts</p> : null}
              {g.accounts.map((a) => (
                <Link
                  key={a.path.join("\u0000")}
                  to="/c/$queryPath"
                  params={{ queryPath: encodeQueryPath(a.path) }}
                  className="card"
                >
                  <span className="card-title">{displayName(a.exchange)}</span>
                  <span className="muted truncate" title={`${a.account} · ${a.pair}`}>
                    {a.account} · {a.pair}
                  </span>
                  <span className="letters">
                    {[...a.bots].sort(bySeedOrder).map((b) => {
                      // docs/dashboard-rules.md#states indicator colours from the bot's live records (lib/bot-status.ts)
                      const live = liveById.get(b.botId);
                      const indicator = live ? botIndicator(live, now) : "idle";
                      return (
                        <span
                          key={b.botId}
                          className={`letter ind-${indicator}`}
                          title={`${b.botType}: ${indicatorText(indicator)}`}
                          data-indicator={indicator}
                        >
                          {botLetter(b.botType)}
                        </span>
                      );
                    })}
                  </span>
                </Link>
              ))}
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
