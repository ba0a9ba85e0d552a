import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { botIndicator, indicatorText } from "../../../../lib/bot-status.js";
import { formatUtcTimestamp } from "../../../../lib/format.js";
import type { BotType } from "../../../../lib/schemas.js";
import { api } from "../../app/api";
import { queryClient } from "../../app/query";
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
      </span>
      {runnable ? (
        <button type="button" className="btn small" disabled={busy} onClick={() => void pauseOrResume()}>
          {paused ? "Resume" : "Pause"}
        </button>
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
      </ConfirmDialog>
    </li>
  );
}
