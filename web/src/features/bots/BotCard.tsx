import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { botIndicator, indicatorText } from "../../../../lib/bot-status.js";
import { formatUtcTimestamp } from "../../../../lib/format.js";
import type { BotType } from "../../../../lib/schemas.js";
import { api } from "../../app/api";
import { queryClient, useBotFills } from "../../app/query";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { botLetter } from "../home/filters";
import { parseSetupText } from "./bot-forms";
import { forgetBot, type LiveBot, reloadBots } from "./bots-store";

/** The bot types the runner runs: those can be paused, resumed and edited while running (docs/bots.md "Create, edit, pause"). */
const RUNNABLE = new Set(["floating-bot", "grid-bot", "spread-decompression-bot", "liquidity-arranger-bot"]);

/**
 * docs/bots.md "Create, edit, pause": the setup as JSON, checked with the same schema as the server's
 * before Save (PUT /token/bot, same id); the schema's messages are shown as they are.
 */
function BotEditor({ bot, onSaved }: { bot: LiveBot; onSaved: () => void }) {
  const [text, setText] = useState(() => JSON.stringify(bot.setup, null, 2));
  const [busy, setBusy] = useState(false);
  const checked = parseSetupText(bot.botType as BotType, text);
  const save = async () => {
    if (!checked.ok) return;
    setBusy(true);
    const r = await api.call("editBot", {
      body: {
        botId: bot.botId,
        botType: bot.botType,
        setup: checked.setup,
        ...(bot.paths.length ? { paths: bot.paths } : {}),
      },
    });
    setBusy(false);
    if (r.ok) {
      await reloadBots();
      onSaved();
    }
  };
  return (
    <form
      className="form"
      aria-label={`Edit bot ${bot.botId}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="field">
        <span>Setup (JSON)</span>
        <textarea
          className="json"
          aria-label="Setup JSON"
          rows={12}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      {checked.ok ? null : (
        <ul className="errors" role="alert" data-testid="bot-edit-errors">
          {checked.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div className="row end">
        <button type="submit" className="btn primary" disabled={!checked.ok || busy}>
          Save
        </button>
      </div>
    </form>
  );
}

/** What the bot's records say (docs/decisions.md#d21–#d25): its order, its grid counts, its last trade, or why it is not run. */
export function botStateText(bot: LiveBot): string {
  if (bot.status === "not run") return "not run";
  // docs/bots.md "Risk limits and the kill switch": stopped until a person resumes it, and why
  if (bot.halted) return `stopped: ${bot.halted.reason}`;
  if (bot.status === "stopped") return "stopped";
  const parts: string[] = [];
  if (bot.status === "backing-off") parts.push(`backing off: ${bot.lastError ?? "exchange error"}`);
  if (bot.status === "paused") parts.push(`paused${bot.pausedSides?.length ? ` (${bot.pausedSides.join(", ")})` : ""}`);
  if (bot.botType === "floating-bot")
    parts.push(bot.order ? `order ${bot.order.side} ${bot.order.amount} @ ${bot.order.price}` : "no order");
  else if (bot.botType === "grid-bot") parts.push(`onBuy ${bot.onBuy ?? "-"} · onSell ${bot.onSell ?? "-"}`);
  else if (bot.botType === "spread-decompression-bot") {
    parts.push(`${bot.orders?.length ?? 0} orders`);
    if (bot.dailyQuoteLeft) parts.push(`left Buy ${bot.dailyQuoteLeft.Buy} · Sell ${bot.dailyQuoteLeft.Sell}`);
  } else if (bot.lastTrade !== undefined) parts.push(`last trade ${formatUtcTimestamp(bot.lastTrade)}`);
  else parts.push(bot.status);
  if (bot.note) parts.push(bot.note);
  return parts.join(" · ");
}

/** docs/bots.md "What each bot did": the bot's money in one line (quote amounts unless named). */
export function botPnlText(bot: LiveBot): string | undefined {
  const p = bot.pnl;
  if (!p) return undefined;
  const base = botBase(bot);
  return `PnL ${short(p.pnl)} · realized ${short(p.realized)} · inventory ${p.inventory}${base ? ` ${base}` : ""} (value ${short(p.value)}) · volume ${short(p.volume)} · fees ${short(p.feesInQuote)} · ${p.fills} fills`;
}

/** A quote amount to 8 decimals at most, for the card (the details hold the full figures). */
function short(value: string): string {
  const [whole, fraction = ""] = value.split(".");
  const cut = fraction.slice(0, 8).replace(/0+$/, "");
  return cut ? `${whole}.${cut}` : (whole ?? value);
}

function botBase(bot: LiveBot): string | undefined {
  const s = bot.setup as { pair?: unknown; main?: { pair?: unknown } } | null;
  const pair = s?.main?.pair ?? s?.pair;
  return typeof pair === "string" ? pair.split("/")[0] : undefined;
}

/** docs/bots.md "What each bot did": the fills table of the details dialog, newest first. */
function FillsTable({ botId }: { botId: string }) {
  const fills = useBotFills(botId);
  if (fills.isPending) return <p className="muted">Loading fills…</p>;
  const rows = fills.data?.fills ?? [];
  if (rows.length === 0) return <p className="muted">No fills yet</p>;
  return (
    <table className="table small-text" aria-label="Fills">
      <thead>
        <tr>
          <th>Time</th>
          <th>Order</th>
          <th>Side</th>
          <th className="num">Price</th>
          <th className="num">Amount</th>
          <th className="num">Fee</th>
          <th>Maker/taker</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((f) => (
          <tr key={f.seq}>
            <td>{formatUtcTimestamp(f.at)}</td>
            <td className="mono">{f.orderId}</td>
            <td>{f.side}</td>
            <td className="num">{f.price}</td>
            <td className="num">{f.amount}</td>
            <td className="num">
              {f.fee} {f.feeCurrency}
            </td>
            <td>{f.liquidity}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the runner publishes beside the setup (docs/decisions.md#d21–#d25): status, reason, error and the bot's records. */
export function botState(bot: LiveBot): Record<string, unknown> {
  const { botId: _id, botType: _type, path: _path, paths: _paths, setup: _setup, created: _created, ...state } = bot;
  return state;
}

/** docs/dashboard-rules.md#screens "Bot card": the id, a details dialog with the setup as formatted JSON, and Remove (which cancels its orders first, docs/decisions.md#d25). */
export function BotCard({ bot, now }: { bot: LiveBot; now: number }) {
  const indicator = botIndicator(bot, now);
  const [details, setDetails] = useState(false);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const runnable = RUNNABLE.has(bot.botType);
  const paused = bot.status === "paused" && bot.reason?.startsWith("Paused:") === true;
  const pauseOrResume = async () => {
    setBusy(true);
    const r = await api.call(paused ? "resumeBot" : "pauseBot", { params: { id: bot.botId } });
    setBusy(false);
    if (r.ok) await reloadBots();
  };
  const stop = async (): Promise<boolean> => (await api.call("stopBot", { params: { id: bot.botId } })).ok;
  const resume = async () => {
    await api.call("resumeBot", { params: { id: bot.botId } });
  };
  const pnl = botPnlText(bot);
  const remove = async (): Promise<boolean> => {
    const r = await api.call("removeBot", { body: { botId: bot.botId } });
    if (!r.ok) return false;
    forgetBot(bot.botId);
    void queryClient.invalidateQueries({ queryKey: ["exchanges"] });
    return true;
  };
  return (
    <li className="bot-card" aria-label={`Bot ${bot.botId}`} data-bot-type={bot.botType}>
      <span
        className={`indicator ${indicator}`}
        role="img"
        aria-label={indicatorText(indicator)}
        title={bot.reason ?? indicatorText(indicator)}
      />
      <span className="letter">{botLetter(bot.botType)}</span>
      <span className="grow">
        <span className="mono small-text">{bot.botId}</span>
        <br />
        <span className="muted small-text" data-testid="bot-state">
          {botStateText(bot)}
        </span>
        {pnl ? (
          <>
            <br />
            <span className="small-text" data-testid="bot-pnl">
              {pnl}
            </span>
          </>
        ) : null}
      </span>
      {runnable && !bot.halted ? (
        <button type="button" className="btn small" disabled={busy} onClick={() => void pauseOrResume()}>
          {paused ? "Resume" : "Pause"}
        </button>
      ) : null}
      {runnable && bot.halted ? (
        <button type="button" className="btn small" onClick={() => void resume()}>
          Resume
        </button>
      ) : null}
      {runnable && !bot.halted ? (
        <ConfirmDialog
          trigger={
            <button type="button" className="btn small">
              Stop
            </button>
          }
          title={`Stop bot ${bot.botId}?`}
          confirmLabel="Stop bot"
          onConfirm={stop}
        >
          <p>Its open orders are cancelled; it stays stopped, also after a restart, until you resume it.</p>
        </ConfirmDialog>
      ) : null}
      <Dialog.Root
        open={details}
        onOpenChange={(open) => {
          setDetails(open);
          if (!open) setEditing(false);
        }}
      >
        <Dialog.Trigger asChild>
          <button type="button" className="btn small">
            Details
          </button>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog bots-dialog" aria-describedby={undefined}>
            <Dialog.Title>
              {bot.botType} {bot.botId}
            </Dialog.Title>
            {editing ? (
              <BotEditor bot={bot} onSaved={() => setEditing(false)} />
            ) : (
              <pre className="json" data-testid="bot-json">
                {JSON.stringify(bot.setup, null, 2)}
              </pre>
            )}
            <h3>Fills</h3>
            <FillsTable botId={bot.botId} />
            <h3>State</h3>
            <pre className="json" data-testid="bot-state-json">
              {JSON.stringify(botState(bot), null, 2)}
            </pre>
            <div className="row end">
              {editing ? null : (
                <button type="button" className="btn" onClick={() => setEditing(true)}>
                  Edit
                </button>
              )}
              <Dialog.Close asChild>
                <button type="button" className="btn">
                  Close
                </button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <ConfirmDialog
        trigger={
          <button type="button" className="btn small danger">
            Remove
          </button>
        }
        title={`Remove bot ${bot.botId}?`}
        confirmLabel="Remove bot"
        onConfirm={remove}
      >
        <p>Its open orders are cancelled first, then it stops and its copy of the account's credentials is deleted.</p>
        {bot.pnl && bot.pnl.inventory !== "0" ? (
          <p data-testid="bot-leaves">
            It leaves its inventory on the account: {bot.pnl.inventory} {botBase(bot) ?? ""} (bought for{" "}
            {short(bot.pnl.cost)}).
          </p>
        ) : null}
      </ConfirmDialog>
    </li>
  );
}
