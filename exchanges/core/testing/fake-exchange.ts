import { type MockReply, type MockServer, parseQuery, type ReceivedRequest, startMockServer } from "./http-mock.js";

/**
 * One configurable fake exchange on 127.0.0.1 for the adapters' tests (issue 14): the machinery every
 * `exchanges/<id>/mock.ts` used to copy (an order store, fault injection, required-parameter checks,
 * paging) lives here once, and an exchange's mock is a configuration of it: its signature check as
 * the exchange documents it, its envelope, its route table and the shapes its routes answer.
 *
 * How to write an exchange's mock on it (exchanges/bybit/mock.ts is the fullest example):
 *
 * ```ts
 * const fake = await startFakeExchange({
 *   name: "acme",
 *   verify: (req) => (req.headers["x-acme-sign"] === expectedSign(req) ? undefined : { code: 401, msg: "bad sign", status: 401 }),
 *   envelope: { ok: (data) => ({ body: { code: 0, data } }), error: (e) => ({ status: e.status ?? 200, body: { code: e.code, msg: e.msg } }) },
 *   rateLimited: () => ({ status: 429, body: { code: 429, msg: "Too many requests" } }),
 *   missing: (name) => ({ code: 400, msg: `${name} is required` }),
 *   routes: {
 *     "POST /v1/order": { required: ["symbol", "side", ["price", "quoteQty"]], create: true,
 *       handle: ({ params }) => fake.orders.add(newOrder(params)) },
 *     "GET /v1/openOrders": { required: ["symbol"], handle: ({ params }) => pageByNumber(openOf(params.symbol), params, acmePages) },
 *   },
 * });
 * ```
 *
 * - `verify` answers undefined for a request it accepts, else the exchange's refusal; `isPublic`
 *   names the requests it skips (market data). A request that passes is recorded in `accepted`.
 * - A route's path may hold `:name` segments (`"DELETE /api/v4/spot/orders/:id"`), read in `ctx.path`.
 * - A route lists its `required` parameters as the exchange documents them: a name, a list of
 *   alternatives (`["orderId", "clientOid"]`: one of them), or a path into a batch
 *   (`"request[].symbol"`, `"[].instId"` for a body that is a list). Every call to the route is
 *   checked and a missing one is answered with `missing(name)` in the exchange's error shape.
 *   `params` reads a request's parameters (default: the query, merged with a JSON body).
 * - A handler returns the data the `ok` envelope wraps; `throw refuse(error)` answers the error
 *   envelope; `return raw(reply)` answers exactly `reply` (a partly failed batch whose envelope
 *   differs, an HTTP status of its own).
 * - Faults, each consumed by the next request they apply to: `delayNextCreate(ms)` (routes marked
 *   `create`: the order is stored, the answer comes late), `rateLimitNext()`, `failNext(error)`,
 *   `replyNext(reply)` (after the signature check), and for batches `refuseNextBatchItem(i, error)`
 *   and `dropNextBatchItem(i)`, read by the batch handler with `takeBatchFault(i)`.
 * - Lists page through `pageByCursor`, `pageByNumber` and `pageAfterId` below, in the form the
 *   exchange documents (an account with more open orders than one page must be followed).
 * - Keep the mock's own interface small: expose `fake` (tests reach every fault through
 *   `mock.fake`), `orders` (the store), and an `addOrder` that rests an order without a request, so a
 *   test can hold more orders than a page. `fake.server` keeps its `intercept` for a test's own
 *   answers in front of the fake, and its `requests` log.
 * - Group A (bybit, okx, gate, kucoin, bitget, mexc, bingx) are written this way; their rest tests
 *   show the checks worth copying: required parameters sent on every call and refused without,
 *   more open orders than a page, a partly failed batch, answers off the happy path via `replyNext`.
 */

/** An exchange's refusal before its envelope shapes it: its code, text and HTTP status (default 200). */
export interface FakeError {
  code: string | number;
  msg: string;
  status?: number;
  headers?: Record<string, string>;
  /** any other field the exchange's error shape carries (a label, a debug text) */
  extra?: Record<string, unknown>;
}

/** Thrown by a handler (or a helper it calls) to answer the exchange's error envelope. */
export class FakeRefusal extends Error {
  constructor(readonly error: FakeError) {
    super(error.msg);
  }
}

export function refuse(code: string | number, msg: string, status?: number): FakeRefusal {
  return new FakeRefusal({ code, msg, ...(status === undefined ? {} : { status }) });
}

const RAW = Symbol("raw reply");
/** A handler's answer sent exactly as given, outside the `ok` envelope. */
export interface RawReply {
  [RAW]: MockReply;
}
export function raw(reply: MockReply): RawReply {
  return { [RAW]: reply };
}

export type FakeParams = Record<string, unknown>;

/** A required parameter: its name, a list of alternatives (one must be there), or a path into a batch (`list[].field`). */
export type Required = string | readonly string[];

export interface FakeContext {
  req: ReceivedRequest;
  params: FakeParams;
  /** the values of a route's `:name` path segments, decoded */
  path: Record<string, string>;
}

export interface FakeRoute {
  /** the exchange's documented required parameters of this call */
  required?: readonly Required[];
  /** an order-creating route: `delayNextCreate` holds its answer */
  create?: boolean;
  handle(ctx: FakeContext): unknown;
}

export interface FakeExchangeConfig {
  /** the exchange id, for the fake's own messages */
  name: string;
  /** the exchange's signature check: undefined when accepted, else its refusal */
  verify?(req: ReceivedRequest): MockReply | undefined;
  /** requests without signature and faults (public market data); default none */
  isPublic?(req: ReceivedRequest): boolean;
  /** runs before everything else, for faults in front of the signature check (an IP ban) */
  before?(req: ReceivedRequest): MockReply | undefined;
  envelope: {
    ok(data: unknown): MockReply;
    error(error: FakeError): MockReply;
  };
  /** the exchange's answer to too many requests */
  rateLimited(): MockReply;
  /** the exchange's answer to a missing required parameter */
  missing(name: string): FakeError;
  /** a request's parameters; default the query merged with a JSON object body */
  params?(req: ReceivedRequest): FakeParams;
  routes: Record<string, FakeRoute>;
}

/** What a batch handler does with item i: place it, refuse it with the exchange's error, or drop it. */
export type BatchFault = { refuse: FakeError } | { drop: true } | undefined;

/** Orders by id, with the exchange's id sequence; a Map so tests read it as one. */
export class OrderStore<O> extends Map<string, O> {
  private next: bigint;
  constructor(
    firstId: bigint,
    private readonly idOf: (order: O) => string,
  ) {
    super();
    this.next = firstId;
  }
  /** the next order id, as the exchange writes it (decimal digits) */
  nextId(): string {
    return String(this.next++);
  }
  add(order: O): O {
    this.set(this.idOf(order), order);
    return order;
  }
  find(match: (order: O) => boolean): O | undefined {
    for (const order of this.values()) if (match(order)) return order;
    return undefined;
  }
  filter(match: (order: O) => boolean): O[] {
    return [...this.values()].filter(match);
  }
}

export interface FakeExchange {
  server: MockServer;
  url: string;
  /** "METHOD /path" of each request that passed the signature check and the faults, in order */
  accepted: string[];
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(error: FakeError): void;
  replyNext(reply: MockReply | undefined): void;
  /** carries out the next create, then answers `reply` instead of the order (docs/exchange-rules.md#contract "unclear answers") */
  createThenReply(reply: MockReply): void;
  refuseNextBatchItem(index: number, error: FakeError): void;
  dropNextBatchItem(index: number): void;
  /** the fault set for item `index` of the batch being answered (call once per item; the set is cleared by `endBatch`) */
  takeBatchFault(index: number): BatchFault;
  /** forgets the batch faults once a batch has been answered */
  endBatch(): void;
  /** the pending faults, for mocks whose tests set them as fields */
  faults: Faults;
  close(): Promise<void>;
}

export interface Faults {
  delayCreateMs: number;
  rateLimit: boolean;
  failure: FakeError | undefined;
  reply: MockReply | undefined;
  /** the next create is carried out, then answered with this instead (a gateway's error page, a garbled body) */
  createdThenReply: MockReply | undefined;
  batch: Map<number, NonNullable<BatchFault>>;
}

/** Reads `name` (or `list[].field`) from params: the values found, one per batch item for a path. */
function lookup(params: unknown, name: string): unknown[] {
  const at = name.indexOf("[].");
  if (at === -1) return [(params as FakeParams | undefined)?.[name]];
  const list = at === 0 ? params : (params as FakeParams | undefined)?.[name.slice(0, at)];
  if (!Array.isArray(list) || list.length === 0) return [undefined];
  return list.flatMap((item) => lookup(item, name.slice(at + 3)));
}

const present = (value: unknown) => value !== undefined && value !== null && value !== "";

/** The first documented required parameter the request lacks, or undefined. */
export function missingParameter(params: unknown, required: readonly Required[]): string | undefined {
  for (const rule of required) {
    const names = typeof rule === "string" ? [rule] : rule;
    // alternatives on a batch path are checked per item: each item needs one of them
    const columns = names.map((n) => lookup(params, n));
    const count = Math.max(...columns.map((c) => c.length));
    for (let i = 0; i < count; i++) {
      if (!columns.some((c) => present(c[i]))) return names.join(" or ");
    }
  }
  return undefined;
}

/** A request's parameters as most exchanges send them: the query merged with a JSON body (a list body stays a list). */
export function parseParams(req: ReceivedRequest): FakeParams {
  const query: FakeParams = parseQuery(req.query);
  if (!req.body) return query;
  const body = JSON.parse(req.body) as unknown;
  if (Array.isArray(body)) return Object.assign(body, query) as unknown as FakeParams;
  return { ...query, ...(body as FakeParams) };
}

export async function startFakeExchange(config: FakeExchangeConfig): Promise<FakeExchange> {
  const server = await startMockServer();
  const accepted: string[] = [];
  const faults: Faults = {
    delayCreateMs: 0,
    rateLimit: false,
    failure: undefined,
    reply: undefined,
    createdThenReply: undefined,
    batch: new Map(),
  };
  const answerError = (error: FakeError) => {
    const reply = config.envelope.error(error);
    return error.headers ? { ...reply, headers: { ...reply.headers, ...error.headers } } : reply;
  };

  // A test may still put its own interceptor in front (a 503 for a while, then `intercept(undefined)`):
  // it runs first, and the fake answers whatever it lets through.
  let front: Parameters<MockServer["intercept"]>[0];
  const facade: MockServer = {
    ...server,
    requests: server.requests,
    intercept(handler) {
      front = handler;
    },
  };

  // routes with `:name` segments, tried in order after the exact ones
  const patterns = Object.entries(config.routes)
    .filter(([key]) => key.includes("/:"))
    .map(([key, route]) => {
      const names: string[] = [];
      const source = key.replace(/\/:([A-Za-z_]+)/g, (_, name: string) => {
        names.push(name);
        return "/([^/]+)";
      });
      return { regex: new RegExp(`^${source}$`), names, route };
    });
  function routeOf(req: ReceivedRequest): { route: FakeRoute; path: Record<string, string> } | undefined {
    const exact = config.routes[`${req.method} ${req.path}`];
    if (exact) return { route: exact, path: {} };
    for (const p of patterns) {
      const match = p.regex.exec(`${req.method} ${req.path}`);
      if (match)
        return {
          route: p.route,
          path: Object.fromEntries(p.names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)])),
        };
    }
    return undefined;
  }

  server.intercept(async (req) => {
    const first = front ? await front(req) : undefined;
    if (first) return first;
    const early = config.before?.(req);
    if (early) return early;
    const found = routeOf(req);
    if (!config.isPublic?.(req)) {
      const refused = config.verify?.(req);
      if (refused) return refused;
      if (faults.rateLimit) {
        faults.rateLimit = false;
        return config.rateLimited();
      }
      if (faults.failure) {
        const failure = faults.failure;
        faults.failure = undefined;
        return answerError(failure);
      }
      if (faults.reply) {
        const reply = faults.reply;
        faults.reply = undefined;
        return reply;
      }
      accepted.push(`${req.method} ${req.path}`);
    }
    // a route of the server's own (`server.on`), or its 404
    if (!found) return undefined;
    const { route } = found;
    try {
      const params = (config.params ?? parseParams)(req);
      const missing = missingParameter(params, route.required ?? []);
      if (missing !== undefined) return answerError(config.missing(missing));
      const delayMs = route.create ? faults.delayCreateMs : 0;
      if (route.create) faults.delayCreateMs = 0;
      const data = await route.handle({ req, params, path: found.path });
      const garbled = route.create ? faults.createdThenReply : undefined;
      if (garbled) {
        faults.createdThenReply = undefined;
        return garbled;
      }
      const reply =
        data !== null && typeof data === "object" && RAW in data ? (data as RawReply)[RAW] : config.envelope.ok(data);
      return delayMs > 0 ? { ...reply, delayMs } : reply;
    } catch (error) {
      if (error instanceof FakeRefusal) return answerError(error.error);
      throw error;
    }
  });

  return {
    server: facade,
    url: server.url,
    accepted,
    faults,
    delayNextCreate(ms) {
      faults.delayCreateMs = ms;
    },
    rateLimitNext() {
      faults.rateLimit = true;
    },
    failNext(error) {
      faults.failure = error;
    },
    createThenReply(reply) {
      faults.createdThenReply = reply;
    },
    replyNext(reply) {
      faults.reply = reply;
    },
    refuseNextBatchItem(index, error) {
      faults.batch.set(index, { refuse: error });
    },
    dropNextBatchItem(index) {
      faults.batch.set(index, { drop: true });
    },
    takeBatchFault: (index) => faults.batch.get(index),
    endBatch() {
      faults.batch.clear();
    },
    close: () => server.close(),
  };
}

// ---- Paging, in the three forms the exchanges document ----

/** A page size as the exchange documents it: its default when absent, refused outside 1..max. */
export interface PageSize {
  /** the parameter's name (`limit`, `pageSize`) */
  name: string;
  default: number;
  max: number;
  /** the refusal of a size outside 1..max */
  invalid: FakeError;
}

function readSize(params: FakeParams, size: PageSize): number {
  const value = params[size.name];
  if (value === undefined) return size.default;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > size.max) throw new FakeRefusal(size.invalid);
  return n;
}

/**
 * Cursor paging (bybit's `cursor`/`nextPageCursor`): the cursor is an opaque text the exchange
 * sends with a page and takes back for the next one; here it encodes the offset.
 */
export function pageByCursor<T>(
  list: readonly T[],
  params: FakeParams,
  form: {
    cursor: string;
    size: PageSize;
    encode(offset: number): string;
    /** the offset in a cursor, or undefined when it is not one this fake sent */
    decode(cursor: string): number | undefined;
    invalidCursor: FakeError;
  },
): { page: T[]; offset: number; limit: number; next: string | undefined } {
  const limit = readSize(params, form.size);
  const cursor = params[form.cursor];
  let offset = 0;
  if (cursor !== undefined && cursor !== "") {
    const decoded = form.decode(String(cursor));
    if (decoded === undefined) throw new FakeRefusal(form.invalidCursor);
    offset = decoded;
  }
  const page = list.slice(offset, offset + limit);
  return { page, offset, limit, next: offset + limit < list.length ? form.encode(offset + limit) : undefined };
}

/** Numbered pages (gate's `page`, kucoin's `currentPage`): page 1 first; the count of pages with it. */
export function pageByNumber<T>(
  list: readonly T[],
  params: FakeParams,
  form: { page: string; size: PageSize; invalidPage: FakeError },
): { page: T[]; number: number; size: number; totalPages: number } {
  const size = readSize(params, form.size);
  const raw = params[form.page];
  const number = raw === undefined ? 1 : Number(raw);
  if (!Number.isInteger(number) || number < 1) throw new FakeRefusal(form.invalidPage);
  return {
    page: list.slice((number - 1) * size, number * size),
    number,
    size,
    totalPages: Math.max(1, Math.ceil(list.length / size)),
  };
}

/**
 * Paging by the last id seen (okx's `after`, bitget's `idLessThan`): the list, newest first, from
 * the item after the one with that id. An id the list does not hold starts at the first item older
 * than it, compared as decimal integers.
 */
export function pageAfterId<T>(
  list: readonly T[],
  params: FakeParams,
  form: { after: string; size: PageSize; idOf(item: T): string },
): T[] {
  const size = readSize(params, form.size);
  const after = params[form.after];
  if (after === undefined || after === "") return list.slice(0, size);
  const bound = BigInt(String(after));
  return list.filter((item) => BigInt(form.idOf(item)) < bound).slice(0, size);
}
