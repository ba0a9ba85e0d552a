import { ExchangeError } from "../../lib/errors.js";

/**
 * docs/exchange-rules.md#paging: the most pages one list follows. Past it the list is refused,
 * never cut short: a venue still naming a next page after this many is not answering a list.
 */
export const PAGE_BOUND = 1000;

/** One page as the venue answered it: its items and whether it names a next one. */
export interface Page<T> {
  items: readonly T[];
  more: boolean;
}

/**
 * docs/exchange-rules.md#paging: follows a venue's pages until one says it is the last (a short
 * page, no cursor, the count reached) and gathers every item once, by `key`. A page that brings
 * nothing new ends the list (a venue ignoring its own cursor repeats a page); more than
 * PAGE_BOUND pages is an error naming the venue and the list, never a silent cut.
 */
export async function collectPages<T>(
  venue: string,
  what: string,
  key: (item: T) => string,
  fetchPage: (index: number, last: T | undefined) => Promise<Page<T>>,
): Promise<T[]> {
  const seen = new Map<string, T>();
  let last: T | undefined;
  for (let index = 0; index < PAGE_BOUND; index++) {
    const page = await fetchPage(index, last);
    let fresh = 0;
    for (const item of page.items) {
      if (seen.has(key(item))) continue;
      seen.set(key(item), item);
      fresh++;
    }
    if (!page.more || fresh === 0) return [...seen.values()];
    last = page.items.at(-1);
  }
  throw new ExchangeError(venue, `${venue} still names a next page of ${what} after ${PAGE_BOUND} pages`, {
    kind: "invalid-order",
  });
}
