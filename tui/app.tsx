import { Box, Text, useApp } from "ink";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { CATALOGUE } from "../exchanges/catalogue.js";
import type { ExchangeId } from "../lib/types.js";
import { Balances } from "./components/Balances.js";
import { Fills } from "./components/Fills.js";
import { HelpOverlay } from "./components/HelpOverlay.js";
import { firstFitting, wrapText } from "./components/layout.js";
import { OPEN_ORDERS_CHROME_LINES, OpenOrders } from "./components/OpenOrders.js";
import { ORDER_BOOK_CHROME_LINES, OrderBook } from "./components/OrderBook.js";
import { Picker } from "./components/Picker.js";
import { Sparkline } from "./components/Sparkline.js";
import { TRADING_PANEL_LINES, TradingPanel } from "./components/TradingPanel.js";
import { staleBanner } from "./feed-health.js";
import { type Fill, fillNotice } from "./fills.js";
import { decimalsOf, formatFixed, formatPrice } from "./format.js";
import { useBalances } from "./hooks/useBalances.js";
import { useBookFeed } from "./hooks/useBookFeed.js";
import { type DeskMouse, type Focus, useDesk } from "./hooks/useDesk.js";
import { useKeypress } from "./hooks/useKeypress.js";
import { useOrders } from "./hooks/useOrders.js";
import { type SessionTarget, useSession } from "./hooks/useSession.js";
import { useTerminalSize } from "./hooks/useTerminalSize.js";
import { useToast } from "./hooks/useToast.js";
import { type MouseEvent, mouseEvents } from "./mouse.js";
import { ownLevelKeys } from "./orders-view.js";
import type { TuiServices } from "./services.js";
import { useTheme } from "./theme.js";
import { derivedAmount, derivedQuote } from "./trade-form.js";

export interface AppProps extends SessionTarget {
  services: TuiServices;
  /** book refresh period (docs/dashboard-rules.md#constants: 500 ms) */
  refreshMs?: number;
  ordersPollMs?: number;
  balancesPollMs?: number;
  now?: () => number;
  /** called after `q`, before Ink exits */
  onQuit?: () => void;
}

/**
 * The status line's key hints for the panel that has the focus (docs/tui.md "Keys"), longest
 * first: the first that fits the terminal is shown.
 */
export const KEY_HINTS: Readonly<Record<Focus, readonly string[]>> = {
  book: [
    "↑↓/jk select · PgUp/PgDn Home/End · Enter fill · Esc clear · b buy · s sell · Tab trade · ? keys",
    "↑↓/jk select · PgUp/PgDn · Enter fill · b buy · s sell · Tab trade · ? keys",
    "↑↓ select · Enter fill · b buy · s sell · Tab · ? keys",
  ],
  trade: [
    "0-9 . type · ↑↓/Enter next field · b buy · s sell · x clear · Esc back to book · Tab orders · ? keys",
    "0-9 . type · ↑↓ field · b buy · s sell · x clear · Esc book · Tab orders · ? keys",
    "type · ↑↓ field · b buy · s sell · x clear · Esc · ? keys",
  ],
  orders: [
    "↑↓ select order · c cancel it · C cancel all · o refresh · Esc back to book · Tab book · ? keys",
    "↑↓ order · c cancel · C cancel all · o refresh · Esc book · ? keys",
    "↑↓ · c cancel · C all · Esc · ? keys",
  ],
};

/** Where the book's rows and the right column's panels are, as last drawn. */
export interface MouseLayout {
  bookTop: number;
  bookWidth: number;
  rowsPerSide: number;
  stacked: boolean;
  rightTop: number;
  tradeLines: number;
  ordersEnd: number;
  live: boolean;
}

/**
 * A mouse event placed on the layout (docs/tui.md "Mouse"): the book's title and header lines,
 * then `rowsPerSide` ask rows (worst first), the middle row, and the bid rows (best first).
 */
export function placeMouse(e: MouseEvent, layout: MouseLayout): DeskMouse {
  const inBook = e.x < layout.bookWidth;
  if (inBook && layout.live) {
    const askStart = layout.bookTop + 2;
    const middle = askStart + layout.rowsPerSide;
    const n = layout.rowsPerSide;
    if (e.y >= askStart && e.y < middle)
      return { kind: e.kind, level: { side: "ask", index: n - 1 - (e.y - askStart) } };
    if (e.y > middle && e.y <= middle + n) return { kind: e.kind, level: { side: "bid", index: e.y - middle - 1 } };
    return { kind: e.kind, panel: "book" };
  }
  if (layout.stacked || e.x < layout.bookWidth + 2) return { kind: e.kind };
  if (e.y >= layout.rightTop && e.y < layout.rightTop + layout.tradeLines) return { kind: e.kind, panel: "trade" };
  if (e.y >= layout.rightTop + layout.tradeLines && e.y < layout.ordersEnd) return { kind: e.kind, panel: "orders" };
  return { kind: e.kind };
}

/**
 * The smallest terminal the TUI draws in (docs/tui.md "Every size"): the stacked layout's header,
 * book chrome and two levels a side, the trading panel and the status line. Below it the TUI says
 * so instead of dropping fields.
 */
export const MIN_COLUMNS = 40;
export const MIN_ROWS = 16;

/** The most levels a side the feed of `exchange` keeps: paper's synthetic book has 50. */
export function feedDepth(exchange: ExchangeId): number {
  return exchange === "paper" ? PAPER_FEED_DEPTH : CATALOGUE[exchange].depth;
}
/** exchanges/paper/market.ts BOOK_LEVELS: the TUI opens paper's feed at its full depth */
export const PAPER_FEED_DEPTH = 50;

/** Below this width the right column (trade, orders, balances) goes under the book. */
export const TWO_COLUMN_MIN_WIDTH = 70;

/**
 * Ink redraws by clearing the whole screen when its output is as tall as the terminal (a flicker
 * on every refresh), so the app leaves the last line free.
 */
export function usableRows(rows: number): number {
  return Math.max(6, rows - 1);
}

/**
 * Rows of the order book per side that fit `rows` terminal lines (header and status line excluded,
 * and `extraLines` more: the stale banner, a status message that wraps).
 */
export function bookRowsPerSide(rows: number, stacked: boolean, extraLines = 0): number {
  const available = usableRows(rows) - 2 - extraLines - ORDER_BOOK_CHROME_LINES - (stacked ? TRADING_PANEL_LINES : 0);
  return Math.max(1, Math.floor(available / 2));
}

/** A message below the panels wraps (a refusal must be read in full) up to this many lines. */
export const MAX_STATUS_LINES = 6;

interface StatusLine {
  text: string;
  color: string | undefined;
  bold?: boolean;
}

/**
 * The TUI: the terminal twin of the dashboard's trading view (docs/dashboard-rules.md#screens). Layout only; the state
 * lives in the hooks, the drawing in the components.
 */
export function App(props: AppProps) {
  const theme = useTheme();
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const session = useSession(props.services, { exchange: props.exchange, account: props.account, pair: props.pair });
  const stacked = columns < TWO_COLUMN_MIN_WIDTH;
  // as many levels as fit, up to what the feed keeps: no blank bands below a shallow book
  const depth = feedDepth(session.exchange);
  const rowsPerSide = Math.min(depth, bookRowsPerSide(rows, stacked));
  const now = props.now ?? Date.now;
  const { view, state: feedState, mids, staleness } = useBookFeed(session.feed, rowsPerSide, props.refreshMs, now);
  const { toast, show, onKey: dismissToast } = useToast();
  const decimals = session.decimals;
  const fmtPrice = useCallback((v: string) => formatFixed(v, decimals?.priceDecimals ?? decimalsOf(v)), [decimals]);
  const fmtAmount = useCallback((v: string) => formatFixed(v, decimals?.amountDecimals ?? decimalsOf(v)), [decimals]);
  // docs/tui.md "Fills": a notice on every fill, also of an order that rested and filled later
  const onFill = useCallback(
    (fill: Fill) => show("success", fillNotice(fill, fmtPrice(fill.price), fmtAmount(fill.amount))),
    [show, fmtPrice, fmtAmount],
  );
  const orders = useOrders(session.adapter, session.pair, props.ordersPollMs, now, onFill);
  const balances = useBalances(session.adapter, props.balancesPollMs, now);
  const onQuit = props.onQuit;
  const quit = useCallback(() => {
    onQuit?.();
    exit();
  }, [exit, onQuit]);
  const desk = useDesk({
    session,
    services: props.services,
    view,
    staleness,
    farPricePercent: session.farPricePercent,
    pageRows: rowsPerSide,
    orders,
    balances,
    toast: show,
    dismissToast,
    quit,
  });
  useKeypress(desk.handleKey);
  const layoutRef = useRef<MouseLayout | undefined>(undefined);
  const mouseRef = useRef(desk.handleMouse);
  mouseRef.current = desk.handleMouse;
  useEffect(() => {
    const listener = (e: MouseEvent) => {
      const layout = layoutRef.current;
      if (layout) mouseRef.current(placeMouse(e, layout));
    };
    mouseEvents.on("mouse", listener);
    return () => {
      mouseEvents.off("mouse", listener);
    };
  }, []);
  const derived = useMemo(() => derivedAmount(desk.form), [desk.form]);
  const derivedTotal = useMemo(() => derivedQuote(desk.form), [desk.form]);
  const ownLevels = useMemo(() => ownLevelKeys(orders.rows), [orders.rows]);

  const bookWidth = stacked ? columns : Math.min(60, Math.max(34, Math.floor(columns * 0.46)));
  const rightWidth = stacked ? columns : columns - bookWidth - 2;
  const height = usableRows(rows);

  // status: a confirmation wins over a toast, a toast over the key hints; messages wrap in full
  const statusLines: StatusLine[] = [];
  const say = (text: string, color: string | undefined, bold = false) => {
    for (const line of wrapText(text, columns)) statusLines.push({ text: line, color, bold });
  };
  const c = desk.confirmation;
  if (c?.kind === "order" && c.step === 2) {
    if (c.warning) say(c.warning.text, theme.error, true);
    say(`${c.summary}: send anyway? Type yes and Enter (n, Esc: not sent) > ${c.typed}▏`, theme.warning, true);
  } else if (c) {
    say(c.text, theme.warning, true);
    if (c.kind === "order" && c.note) say(c.note, theme.warning);
    if (c.kind === "order" && c.warning) say(`${c.warning.text} (y asks again)`, theme.error, true);
  } else if (toast) {
    // docs/tui.md "Messages": an error stays until Esc, and says so
    if (toast.kind === "error") say(`${toast.text} · Esc to dismiss`, theme.error);
    else say(toast.text, toast.kind === "success" ? theme.success : theme.accent);
  }
  if (statusLines.length > MAX_STATUS_LINES) {
    statusLines.length = MAX_STATUS_LINES;
    const last = statusLines[MAX_STATUS_LINES - 1] as StatusLine;
    last.text = `${last.text.slice(0, Math.max(0, columns - 1))}…`;
  }
  if (statusLines.length === 0) {
    const hints = desk.picker ? ["↑↓ choose · Enter switch · type to filter · Esc back"] : KEY_HINTS[desk.focus];
    statusLines.push({ text: firstFitting(columns, hints), color: theme.muted });
  }

  // docs/tui.md "Stale book": one line under the header while the feed is not live
  const banner = staleness && !session.feedError ? staleBanner(staleness, columns) : undefined;
  const extraLines = (banner ? 1 : 0) + statusLines.length - 1;
  const drawnRowsPerSide = Math.min(depth, bookRowsPerSide(rows, stacked, extraLines));
  const bodyHeight = height - 2 - extraLines;

  // header: where we are, the sparkline and the last mid
  const title = `spotdesk · ${CATALOGUE[session.exchange].name} · ${session.account} · ${session.pair}`;
  // a mid from a book that is not live is not shown (docs/tui.md "Stale book")
  const midText = view.mid === undefined || staleness ? "" : ` ${formatPrice(view.mid)}`;
  const hint = "  ? help  q quit";
  const sparkWidth = Math.max(0, Math.min(24, columns - title.length - midText.length - hint.length - 2));

  const bookError = session.feedError;
  const bookPanel = bookError ? (
    <Box flexDirection="column" width={bookWidth}>
      <Text bold>Order book {session.pair}</Text>
      <Text color={theme.error} wrap="wrap">
        {bookError}
      </Text>
    </Box>
  ) : (
    <OrderBook
      view={view}
      pair={session.pair}
      rowsPerSide={drawnRowsPerSide}
      width={bookWidth}
      feedState={feedState}
      stale={staleness !== undefined}
      selection={desk.selection}
      focused={desk.focus === "book"}
      decimals={session.decimals}
      ownLevels={ownLevels}
    />
  );

  const tradingPanel = (
    <TradingPanel
      form={desk.form}
      pair={session.pair}
      derivedAmount={derived}
      derivedQuote={derivedTotal}
      focused={desk.focus === "trade"}
      width={rightWidth}
      canTrade={session.adapter !== undefined}
      tradeBlockedReason={session.adapterError ?? (session.adapter ? undefined : "opening the account…")}
    />
  );

  // right column: trade panel, open orders, balances share what is left of the height
  // rest = orders (chrome + rows) + blank line + fills (title + rows) + blank line + balances (title, header + rows)
  const rest = Math.max(0, bodyHeight - TRADING_PANEL_LINES - 1);
  const fixed = OPEN_ORDERS_CHROME_LINES + 1 + 2;
  // "Your fills" only where it leaves every balance and two order rows: the quote's balance must
  // not scroll away for it (docs/tui.md "Fills")
  const avail = rest - fixed;
  // a failed call's reason is read in full (docs/tui.md "Errors are not empty lists")
  const balanceCount = balances.error
    ? wrapText(` balances unavailable: ${balances.error}`, rightWidth).length
    : Math.max(1, balances.rows.length);
  const fillRoom = avail - balanceCount - 2 - 2;
  const fillRows = fillRoom >= 1 ? Math.min(Math.max(1, orders.fills.length), fillRoom, 5) : 0;
  const fillLines = fillRows > 0 ? fillRows + 2 : 0;
  const balanceRows = fillLines > 0 ? balanceCount : Math.max(0, avail - Math.max(1, Math.ceil(avail / 2)));
  const orderRows = Math.max(1, avail - fillLines - balanceRows);

  let right = (
    <Box flexDirection="column" width={rightWidth}>
      {stacked ? null : tradingPanel}
      <Text> </Text>
      <OpenOrders
        rows={orders.rows}
        decimals={session.decimals}
        selectedIndex={desk.orderIndex}
        focused={desk.focus === "orders"}
        maxRows={orderRows}
        width={rightWidth}
        loading={orders.loading}
        error={orders.error}
        loaded={orders.lastUpdate !== undefined}
      />
      {fillRows > 0 ? (
        <>
          <Text> </Text>
          <Fills fills={orders.fills} maxRows={fillRows} width={rightWidth} price={fmtPrice} amount={fmtAmount} />
        </>
      ) : null}
      <Text> </Text>
      <Balances
        rows={balances.rows}
        lastUpdate={balances.lastUpdate}
        maxRows={balanceRows}
        width={rightWidth}
        loading={balances.loading}
        error={balances.error}
      />
    </Box>
  );
  if (desk.picker) {
    const p = desk.picker;
    const current = p.kind === "exchange" ? session.exchange : p.kind === "account" ? session.account : session.pair;
    right = (
      <Picker
        title={`Switch ${p.kind}`}
        query={p.query}
        items={desk.pickerItems}
        selectedIndex={p.index}
        current={current}
        width={rightWidth}
        height={stacked ? Math.max(4, bodyHeight - 4) : bodyHeight}
        allowFreeText={p.kind === "account" || (p.kind === "pair" && !p.listed)}
      />
    );
  }

  // Narrow terminals stack the book over the trading panel; open orders take the panel's place
  // while they have the focus, and balances wait for a wider window.
  const stackedLower =
    desk.focus === "orders" ? (
      <OpenOrders
        rows={orders.rows}
        decimals={session.decimals}
        selectedIndex={desk.orderIndex}
        focused
        maxRows={Math.max(1, TRADING_PANEL_LINES - OPEN_ORDERS_CHROME_LINES)}
        width={columns}
        loading={orders.loading}
        error={orders.error}
        loaded={orders.lastUpdate !== undefined}
      />
    ) : (
      tradingPanel
    );
  const body = desk.help ? (
    <HelpOverlay width={columns} height={bodyHeight} />
  ) : stacked ? (
    <Box flexDirection="column" height={bodyHeight} overflow="hidden">
      {desk.picker ? (
        right
      ) : (
        <>
          <Box flexShrink={0}>{bookPanel}</Box>
          <Box flexShrink={0}>{stackedLower}</Box>
        </>
      )}
    </Box>
  ) : (
    <Box flexDirection="row" height={bodyHeight} overflow="hidden">
      {bookPanel}
      <Box width={2} flexShrink={0} />
      {right}
    </Box>
  );

  // docs/tui.md "Mouse": where each level row and panel is on the screen, for the mouse listener
  const bookTop = 1 + (banner ? 1 : 0);
  layoutRef.current = {
    bookTop,
    bookWidth,
    rowsPerSide: drawnRowsPerSide,
    stacked,
    rightTop: bookTop,
    tradeLines: TRADING_PANEL_LINES,
    ordersEnd: bookTop + TRADING_PANEL_LINES + 1 + OPEN_ORDERS_CHROME_LINES + orderRows,
    live: !bookError,
  };

  if (columns < MIN_COLUMNS || rows < MIN_ROWS)
    return (
      <Box flexDirection="column" width={columns}>
        <Text color={theme.warning} wrap="wrap">
          {`terminal too small (need ${MIN_COLUMNS}x${MIN_ROWS}, have ${columns}x${rows}); q quits`}
        </Text>
      </Box>
    );

  return (
    <Box flexDirection="column" width={columns} height={height}>
      <Text wrap="truncate-end">
        <Text bold>{title}</Text>
        {"  "}
        <Sparkline mids={mids} width={sparkWidth} stale={staleness !== undefined} />
        <Text bold>{midText}</Text>
        <Text color={theme.muted}>{hint}</Text>
      </Text>
      {banner ? (
        <Text color={theme.error} bold wrap="truncate-end">
          {banner}
        </Text>
      ) : null}
      {body}
      {statusLines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one message, in order
        <Text key={i} color={line.color} bold={line.bold} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
