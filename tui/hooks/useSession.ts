import { useEffect, useState } from "react";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import type { ExchangeId } from "../../lib/types.js";
import { errorText } from "../errors.js";
import type { TuiServices } from "../services.js";

export interface SessionTarget {
  exchange: ExchangeId;
  account: string;
  pair: string;
}

export interface Session extends SessionTarget {
  feed: BookFeed | undefined;
  feedError: string | undefined;
  adapter: ExchangeAdapter | undefined;
  adapterError: string | undefined;
  decimals: { priceDecimals: number; amountDecimals: number } | undefined;
  /** the account's far-price limit in percent; undefined: the guard's default */
  farPricePercent: string | undefined;
  /** true while the account's limit is being read: no order is prepared with a limit not its own */
  farPriceLoading: boolean;
  switchTo(change: Partial<SessionTarget>): void;
}

/**
 * The exchange, account and pair on screen, with the feed and the adapter they open. docs/exchange-rules.md#states:
 * on a change of pair or exchange the book is cleared and a new feed starts; the old one stops.
 */
export function useSession(services: TuiServices, initial: SessionTarget): Session {
  const [target, setTarget] = useState<SessionTarget>(initial);
  const [feed, setFeed] = useState<BookFeed | undefined>(undefined);
  const [feedError, setFeedError] = useState<string | undefined>(undefined);
  const [adapter, setAdapter] = useState<ExchangeAdapter | undefined>(undefined);
  const [adapterError, setAdapterError] = useState<string | undefined>(undefined);
  const [adapterFor, setAdapterFor] = useState<string | undefined>(undefined);
  const [decimals, setDecimals] = useState<Session["decimals"]>(undefined);
  const [farPrice, setFarPrice] = useState<{ for: string; percent: string | undefined }>({
    for: "",
    percent: undefined,
  });
  const { exchange, account, pair } = target;

  useEffect(() => {
    let cancelled = false;
    let opened: BookFeed | undefined;
    setFeed(undefined);
    setFeedError(undefined);
    // paper's synthetic book has 50 levels: a tall terminal shows them all (docs/tui.md "Every size")
    services.openFeed(exchange, pair, exchange === "paper" ? 50 : undefined).then(
      (f) => {
        if (cancelled) return;
        opened = f;
        f.start();
        setFeed(f);
      },
      (e: unknown) => {
        if (!cancelled) setFeedError(errorText(e));
      },
    );
    return () => {
      cancelled = true;
      opened?.stop();
    };
  }, [services, exchange, pair]);

  useEffect(() => {
    let cancelled = false;
    let opened: ExchangeAdapter | undefined;
    setAdapter(undefined);
    setAdapterError(undefined);
    services.openExchange(exchange, account).then(
      (a) => {
        if (cancelled) {
          void a.close();
          return;
        }
        opened = a;
        setAdapter(a);
        setAdapterFor(`${exchange}/${account}`);
      },
      (e: unknown) => {
        if (!cancelled) setAdapterError(errorText(e));
      },
    );
    return () => {
      cancelled = true;
      void opened?.close();
    };
  }, [services, exchange, account]);

  useEffect(() => {
    let cancelled = false;
    setDecimals(undefined);
    services.pairDecimals?.(exchange, pair).then(
      (d) => {
        if (!cancelled) setDecimals(d);
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [services, exchange, pair]);

  useEffect(() => {
    let cancelled = false;
    const key = `${exchange}/${account}`;
    services.farPricePercent?.(exchange, account).then(
      (percent) => {
        if (!cancelled) setFarPrice({ for: key, percent });
      },
      // an unreadable setting leaves the documented default
      () => {
        if (!cancelled) setFarPrice({ for: key, percent: undefined });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [services, exchange, account]);

  const switchTo = (change: Partial<SessionTarget>) => setTarget((t) => ({ ...t, ...change }));
  // Between a switch and the effects above, state still holds the previous feed and adapter: they
  // are not shown under the new pair or account, not even for one frame.
  const feedMatches = feed !== undefined && feed.exchange === exchange && feed.pair === pair;
  const adapterMatches = adapter !== undefined && adapterFor === `${exchange}/${account}`;
  return {
    ...target,
    feed: feedMatches ? feed : undefined,
    feedError,
    adapter: adapterMatches ? adapter : undefined,
    adapterError,
    decimals,
    // another account's limit is never applied, not even for the frame after a switch
    farPricePercent: farPrice.for === `${exchange}/${account}` ? farPrice.percent : undefined,
    farPriceLoading: services.farPricePercent !== undefined && farPrice.for !== `${exchange}/${account}`,
    switchTo,
  };
}
