import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import type { AccountPath } from "../../../../lib/api.js";
import { BOT_LIST_ORDER, type BotType } from "../../../../lib/schemas.js";
import { useAccounts } from "../../app/query";
import { useTradeKey } from "../trading/account/useTrade";
import { BotCard } from "./BotCard";
import { BotForm } from "./BotForm";
import { BOT_BUTTONS } from "./bot-forms";
import { type LiveBot, useLiveBots } from "./bots-store";

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/** The running bots of the pair on this account, in the seed's order (docs/dashboard-rules.md#constants "Bot list order"). */
export function botsOfPair(bots: readonly LiveBot[], path: AccountPath, pair: string): LiveBot[] {
  return bots
    .filter((b) => samePath(b.path, path) && botPair(b) === pair)
    .sort(
      (a, b) =>
        (BOT_LIST_ORDER[a.botType as BotType] ?? 99) - (BOT_LIST_ORDER[b.botType as BotType] ?? 99) ||
        a.created - b.created,
    );
}

function botPair(bot: LiveBot): string | undefined {
  const s = bot.setup as { pair?: unknown; main?: { pair?: unknown } } | null;
  const pair = s?.main?.pair ?? s?.pair;
  return typeof pair === "string" ? pair : undefined;
}

/** docs/dashboard-rules.md#screens "Bots dialog": the seven bot buttons, a form for the chosen one, and the running bots of the pair. */
export function BotsDialog({ path, pair }: { path: AccountPath; pair: string }) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<BotType | undefined>(undefined);
  const bots = botsOfPair(useLiveBots(), path, pair);
  const accounts = useAccounts();
  const { key } = useTradeKey(path);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn">
          Bots{bots.length > 0 ? ` (${bots.length})` : ""}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog bots-dialog" aria-describedby={undefined}>
          <Dialog.Title>Bots · {pair}</Dialog.Title>
          <fieldset className="bot-types" aria-label="New bot">
            {BOT_BUTTONS.map((b) => (
              <button
                key={b.type}
                type="button"
                className={`btn small${type === b.type ? " primary" : ""}`}
                aria-pressed={type === b.type}
                onClick={() => setType(b.type)}
              >
                {b.label}
              </button>
            ))}
          </fieldset>
          {type ? (
            <BotForm
              key={type}
              type={type}
              path={path}
              pair={pair}
              tradeKey={key}
              accounts={accounts.data ?? []}
              onCreated={() => setType(undefined)}
            />
          ) : null}
          <h3>Running bots</h3>
          {bots.length === 0 ? <p className="muted">No bots on {pair}</p> : null}
          <ul className="bot-list" aria-label="Running bots">
            {bots.map((b) => (
              <BotCard key={b.botId} bot={b} now={now} />
            ))}
          </ul>
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
  );
}
