import * as Dialog from "@radix-ui/react-dialog";
import { botIndicator, indicatorText } from "../../../../lib/bot-status.js";
import { formatUtcTimestamp } from "../../../../lib/format.js";
import { api } from "../../app/api";
import { queryClient } from "../../app/query";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { botLetter } from "../home/filters";
import { forgetBot, type LiveBot } from "./bots-store";

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
      <Dialog.Root>
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
            <pre className="json" data-testid="bot-json">
              {JSON.stringify(bot.setup, null, 2)}
            </pre>
            <h3>State</h3>
            <pre className="json" data-testid="bot-state-json">
              {JSON.stringify(botState(bot), null, 2)}
            </pre>
            <div className="row end">
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
