/**
 * The server's metrics (docs/operations.md#metrics), in Prometheus' text format through
 * prom-client. One Registry per server: tests start several servers in one process.
 *
 * Labels name routes (the table's path, "/book/:exchange/:pair", never the request's), venues,
 * pairs, operations, error kinds, bot types and statuses: never a user, an e-mail, a client name,
 * an account or anything secret.
 */
import type { IncomingMessage } from "node:http";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type ExchangeCall, watchExchangeCalls, watchedFeeds, watchFeeds } from "../exchanges/observe.js";
import type { FeedState } from "../exchanges/types.js";
import { API_ERROR } from "../lib/api.js";
import { isExchangeError } from "../lib/errors.js";
import type { Answered } from "./http.js";

/** What the metrics read at each scrape. */
export interface MetricSources {
  /** open websocket connections by channel ("live": bot state, "book": the book streams) */
  connections(): Record<"live" | "book", number>;
  /** every stored bot's type and status */
  bots(): Promise<{ type: string; status: string }[]>;
}

const FEED_STATES: readonly FeedState[] = ["connecting", "live", "resyncing", "stale", "closed"];
/** the better of two states of one venue and pair (two feeds may serve it: the relay's and a bot's) */
const FEED_RANK: Record<FeedState, number> = { live: 4, resyncing: 3, connecting: 2, stale: 1, closed: 0 };

const ORDER_WRITES: Record<string, "placed" | "cancelled"> = {
  createOrder: "placed",
  createBatch: "placed",
  cancelOrder: "cancelled",
  cancelBatch: "cancelled",
  cancelAll: "cancelled",
};

const METHODS = new Set(["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"]);

interface HttpSeries {
  count: { inc(): void };
  latency: { observe(value: number): void };
}

/** Which limit refused a request with 604: the call limits of docs/decisions.md#d8, or a sign-in limit. */
export type LimitKind = "calls" | "sign-in";

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"route" | "method" | "status">;
  private readonly latency: Histogram<"route" | "method">;
  private readonly limitHits: Counter<"limit" | "route">;
  private readonly orders: Counter<"venue" | "outcome">;
  private readonly exchangeLatency: Histogram<"venue" | "operation">;
  private readonly exchangeErrors: Counter<"venue" | "operation" | "kind">;
  /** requests a call limit refused (limitPublic or the per-user limit), told from sign-in limits */
  private readonly callLimited = new WeakSet<IncomingMessage>();
  private readonly stops: (() => void)[] = [];
  private readonly series = new Map<string, HttpSeries>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: "spotdesk_http_requests_total",
      help: "HTTP requests answered, by route of the table (or none), method and status",
      labelNames: ["route", "method", "status"],
      registers,
    });
    this.latency = new Histogram({
      name: "spotdesk_http_request_duration_seconds",
      help: "Time from a request reaching the router to its answer, by route and method",
      labelNames: ["route", "method"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.limitHits = new Counter({
      name: "spotdesk_limit_hits_total",
      help: "Requests refused with 604 by a limit: calls (per address or user) or sign-in, by route",
      labelNames: ["limit", "route"],
      registers,
    });
    new Gauge({
      name: "spotdesk_websocket_connections",
      help: "Open websocket connections by channel: live (bot state) and book (order-book streams)",
      labelNames: ["channel"],
      registers,
      collect() {
        this.reset();
        for (const [channel, n] of Object.entries(sources.connections())) this.set({ channel }, n);
      },
    });
    this.feedGauges(registers);
    new Gauge({
      name: "spotdesk_bots",
      help: "Stored bots by type and status",
      labelNames: ["type", "status"],
      registers,
      async collect() {
        this.reset();
        const counts = new Map<string, { type: string; status: string; n: number }>();
        for (const { type, status } of await sources.bots()) {
          const key = `${type}\n${status}`;
          const entry = counts.get(key) ?? { type, status, n: 0 };
          entry.n++;
          counts.set(key, entry);
        }
        for (const { type, status, n } of counts.values()) this.set({ type, status }, n);
      },
    });
    this.orders = new Counter({
      name: "spotdesk_orders_total",
      help: "Orders by venue and outcome: placed, cancelled, refused (the exchange said no) or unclear (no readable answer)",
      labelNames: ["venue", "outcome"],
      registers,
    });
    this.exchangeLatency = new Histogram({
      name: "spotdesk_exchange_call_duration_seconds",
      help: "Exchange calls by venue and operation, answered or failed",
      labelNames: ["venue", "operation"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.exchangeErrors = new Counter({
      name: "spotdesk_exchange_errors_total",
      help: "Failed exchange calls by venue, operation and error kind (docs/exchange-rules.md#errors)",
      labelNames: ["venue", "operation", "kind"],
      registers,
    });
    this.stops.push(
      watchExchangeCalls((call) => this.exchangeCall(call)),
      watchFeeds(),
    );
  }

  /** per venue and pair: the feed's state (1 for the current one) and the seconds since its book last changed */
  private feedGauges(registers: Registry[]): void {
    const best = () => {
      const byPair = new Map<string, { exchange: string; pair: string; state: FeedState; updatedAt: number }>();
      for (const feed of watchedFeeds()) {
        const key = `${feed.exchange}\n${feed.pair}`;
        const known = byPair.get(key);
        if (!known) byPair.set(key, { ...feed });
        else {
          if (FEED_RANK[feed.state] > FEED_RANK[known.state]) known.state = feed.state;
          known.updatedAt = Math.max(known.updatedAt, feed.updatedAt);
        }
      }
      return [...byPair.values()];
    };
    new Gauge({
      name: "spotdesk_feed_state",
      help: "Order-book feeds by venue and pair: 1 for the feed's current state, 0 for the others",
      labelNames: ["venue", "pair", "state"],
      registers,
      collect() {
        this.reset();
        for (const feed of best())
          for (const state of FEED_STATES)
            this.set({ venue: feed.exchange, pair: feed.pair, state }, feed.state === state ? 1 : 0);
      },
    });
    new Gauge({
      name: "spotdesk_feed_update_age_seconds",
      help: "Seconds since the book of a venue and pair last changed (or since its feed opened)",
      labelNames: ["venue", "pair"],
      registers,
      collect() {
        this.reset();
        const now = Date.now();
        for (const feed of best())
          this.set({ venue: feed.exchange, pair: feed.pair }, Math.max(0, (now - feed.updatedAt) / 1000));
      },
    });
  }

  /** the router's hook: one answered request */
  observe(answered: Answered): void {
    const route = answered.route ?? "(none)";
    // any text can be a request's method: the label takes the HTTP ones, so the series stay bounded
    const method = METHODS.has(answered.method) ? answered.method : "other";
    const series = this.seriesOf(route, method, answered.status);
    series.count.inc();
    series.latency.observe(answered.seconds);
    if (answered.code === API_ERROR.RATE_LIMIT) {
      const limit: LimitKind = this.callLimited.has(answered.req) ? "calls" : "sign-in";
      this.limitHits.inc({ limit, route });
    }
  }

  /**
   * The children of one route, method and status, kept: prom-client's labelled call hashes and
   * checks its labels on every call (docs/server-speed.md: the request path stays cheap).
   */
  private seriesOf(route: string, method: string, status: number): HttpSeries {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        count: this.requests.labels({ route, method, status: String(status) }),
        latency: this.latency.labels({ route, method }),
      };
      // bounded: routes of the table × methods × statuses, plus "(none)"
      this.series.set(key, series);
    }
    return series;
  }

  /** a call limit (docs/decisions.md#d8) refused this request: its 604 is not a sign-in limit's */
  callLimitHit(req: IncomingMessage): void {
    this.callLimited.add(req);
  }

  private exchangeCall(call: ExchangeCall): void {
    const venue = call.exchange;
    this.exchangeLatency.observe({ venue, operation: call.operation }, call.seconds);
    const write = ORDER_WRITES[call.operation];
    if (call.error === undefined) {
      if (write) this.orders.inc({ venue, outcome: write }, orderCount(call.result));
      return;
    }
    const kind = isExchangeError(call.error) ? call.error.kind : "unexpected";
    this.exchangeErrors.inc({ venue, operation: call.operation, kind });
    if (write) {
      const unclear = isExchangeError(call.error) && call.error.unclear === true;
      this.orders.inc({ venue, outcome: unclear ? "unclear" : "refused" });
    }
  }

  /** Prometheus' text format of every metric */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.registry.clear();
  }
}

/** orders in an answer: one order or id, or the length of a list (a batch, the ids of a cancel-all) */
function orderCount(result: unknown): number {
  return Array.isArray(result) ? result.length : 1;
}
