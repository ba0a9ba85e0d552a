/**
 * `spotdesk book BTC/USDT --exchange <venue> --watch --json` on every venue (issue 19): the built CLI
 * against each venue's websocket mock, which sends the bytes the venue's documentation shows
 * (docs/feeds.md), ends equal to the venue's true book — clean, with a message dropped, and with a
 * sequence gap where the venue has sequence numbers; and after frames nobody can read, which must
 * not stop the process.
 *
 * "A message dropped" is what the venue's protocol makes of a lost message: a gap on sequenced
 * feeds (healed by a fresh snapshot), nothing lasting on feeds that push the whole top of the book
 * (the next push carries it), a dropped connection on ProBit (no sequence numbers: a change lost
 * in flight comes back with the reset of the new socket), a failed poll on BIT.TEAM.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BingxMock } from "../../exchanges/bingx/ws-mock.js";
import { BitgetMock } from "../../exchanges/bitget/ws-mock.js";
import { BitmartMock } from "../../exchanges/bitmart/ws-mock.js";
import { BitrueMock } from "../../exchanges/bitrue/ws-mock.js";
import { BybitMock } from "../../exchanges/bybit/ws-mock.js";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { CoinstoreMock } from "../../exchanges/coinstore/ws-mock.js";
import { priceKey } from "../../exchanges/core/levels.js";
import { startMockServer } from "../../exchanges/core/testing/http-mock.js";
import { ladder, type MockWsServer, TruthBook } from "../../exchanges/core/testing/ws-mock.js";
import { GateMock } from "../../exchanges/gate/ws-mock.js";
import { HtxMock } from "../../exchanges/htx/ws-mock.js";
import { KucoinMock } from "../../exchanges/kucoin/ws-mock.js";
import { LbankMock } from "../../exchanges/lbank/ws-mock.js";
import { MexcWsMock } from "../../exchanges/mexc/ws-mock.js";
import { OkxMock } from "../../exchanges/okx/ws-mock.js";
import { ProbitMock } from "../../exchanges/probit/ws-mock.js";
import { XtMock } from "../../exchanges/xt/ws-mock.js";
import { Decimal } from "../../lib/decimal.js";
import type { BookLevel, ExchangeId } from "../../lib/types.js";
import { buildCli, type Sandbox, sandbox } from "./helpers.js";

type Levels = BookLevel[];

/** One venue's mock seen through the three things the scenarios do to it. */
interface Venue {
  truth: TruthBook;
  /** --ws-url / --base-url pointing at the mock */
  args: string[];
  /** the venue changes its book and says so */
  change(bids: Levels, asks: Levels): void;
  /** the venue changes its book and the message saying so is lost */
  lose(bids: Levels, asks: Levels): void;
  /** true when the venue numbers its messages, so a run of lost ones is a sequence gap */
  sequenced: boolean;
  /** sends what nobody can read: a binary frame that does not inflate and text that is not JSON */
  garbage(): void;
  close(): Promise<void>;
}

/** What no feed can read: a binary frame that does not inflate (a cut raw-DEFLATE stream) and broken JSON text. */
function unreadable(server: MockWsServer): void {
  server.broadcast(Buffer.from([0xab, 0x56, 0x2a]));
  server.broadcast("{oops");
}

/** A venue that pushes its whole top of the book each time: a lost push leaves the truth changed, the next push carries it. */
function wholeBook(truth: TruthBook, push: () => void): Pick<Venue, "change" | "lose"> {
  const set = (bids: Levels, asks: Levels) => {
    for (const [p, a] of bids) truth.set("bid", p, a);
    for (const [p, a] of asks) truth.set("ask", p, a);
  };
  return {
    change: (bids, asks) => {
      set(bids, asks);
      push();
    },
    lose: set,
  };
}

const VENUES: Record<Exclude<ExchangeId, "paper">, () => Promise<Venue>> = {
  async bingx() {
    const mock = await BingxMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.url],
      ...wholeBook(mock.truth, () => mock.push("BTC-USDT@depth20")),
      sequenced: false,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async bitget() {
    const mock = await BitgetMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.url],
      change: (b, a) => mock.update("BTCUSDT", b, a),
      lose: (b, a) => mock.update("BTCUSDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async bitmart() {
    const mock = await BitmartMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.server.url],
      change: (b, a) => mock.update("BTC_USDT", b, a),
      lose: (b, a) => mock.update("BTC_USDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async bitrue() {
    const mock = await BitrueMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.server.url],
      ...wholeBook(mock.truth, () => mock.push("market_btcusdt_simple_depth_step0")),
      sequenced: false,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async bitteam() {
    const http = await startMockServer();
    const truth = new TruthBook();
    let failNext = false;
    let garbageNext = false;
    http.on("GET /trade/api/orderbooks/btc_usdt", () => {
      if (failNext) {
        failNext = false;
        return { status: 502, body: "bad gateway" };
      }
      if (garbageNext) {
        garbageNext = false;
        return { body: "<html>maintenance</html>" };
      }
      return { body: { ok: true, result: { pair: "btc_usdt", bids: truth.levels("bid"), asks: truth.levels("ask") } } };
    });
    const set = (bids: Levels, asks: Levels) => {
      for (const [p, a] of bids) truth.set("bid", p, a);
      for (const [p, a] of asks) truth.set("ask", p, a);
    };
    return {
      truth,
      args: ["--base-url", http.url],
      change: set,
      lose: (b, a) => {
        set(b, a);
        failNext = true;
      },
      sequenced: false,
      garbage: () => {
        garbageNext = true;
      },
      close: () => http.close(),
    };
  },
  async bybit() {
    const mock = await BybitMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.url],
      change: (b, a) => mock.delta("orderbook.50.BTCUSDT", b, a),
      lose: (b, a) => mock.delta("orderbook.50.BTCUSDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async coinstore() {
    const mock = await CoinstoreMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.ws.url, "--base-url", mock.http.url],
      ...wholeBook(mock.truth, () => mock.push("4@depth@20")),
      sequenced: false,
      garbage: () => unreadable(mock.ws),
      close: () => mock.close(),
    };
  },
  async gate() {
    const mock = await GateMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.ws.url, "--base-url", mock.http.url],
      change: (b, a) => mock.update("BTC_USDT", b, a),
      lose: (b, a) => mock.update("BTC_USDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.ws),
      close: () => mock.close(),
    };
  },
  async htx() {
    const mock = await HtxMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.url],
      change: (b, a) => mock.update("market.btcusdt.mbp.20", b, a),
      lose: (b, a) => mock.update("market.btcusdt.mbp.20", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async kucoin() {
    const mock = await KucoinMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.ws.url, "--base-url", mock.http.url],
      change: (b, a) => mock.delta("BTC-USDT", b, a),
      lose: (b, a) => mock.delta("BTC-USDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.ws),
      close: () => mock.close(),
    };
  },
  async lbank() {
    const mock = await LbankMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.server.url],
      ...wholeBook(mock.truth, () => mock.push("btc_usdt")),
      sequenced: false,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async mexc() {
    const mock = await MexcWsMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.ws.url, "--base-url", mock.http.url],
      change: (b, a) => mock.update("BTCUSDT", b, a),
      lose: (b, a) => mock.update("BTCUSDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.ws),
      close: () => mock.close(),
    };
  },
  async okx() {
    const mock = await OkxMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.url],
      change: (b, a) => mock.update("BTC-USDT", b, a),
      lose: (b, a) => mock.update("BTC-USDT", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async probit() {
    const mock = await ProbitMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.server.url],
      change: (b, a) => mock.update("BTC-USDT", b, a),
      // no sequence numbers: the change is lost with the connection, the new socket's reset carries it
      lose: (b, a) => {
        mock.update("BTC-USDT", b, a, { send: false });
        mock.server.drop();
      },
      sequenced: false,
      garbage: () => unreadable(mock.server),
      close: () => mock.close(),
    };
  },
  async xt() {
    const mock = await XtMock.start();
    return {
      truth: mock.truth,
      args: ["--ws-url", mock.ws.url, "--base-url", mock.http.url],
      change: (b, a) => mock.update("btc_usdt", b, a),
      lose: (b, a) => mock.update("btc_usdt", b, a, { send: false }),
      sequenced: true,
      garbage: () => unreadable(mock.ws),
      close: () => mock.close(),
    };
  },
};

interface WatchLine {
  state: string;
  bids: Levels;
  asks: Levels;
}

const canon = (levels: readonly BookLevel[]) => levels.map(([p, a]) => [priceKey(p), new Decimal(a).toFixed()]);

/** The `book --watch --json` child: its lines as they come, and a wait for one that shows the truth. */
class Watch {
  readonly lines: WatchLine[] = [];
  stderr = "";
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private buffer = "";

  constructor(bin: string, cli: Sandbox, id: string, args: string[]) {
    this.child = spawn(process.execPath, [bin, "--exchange", id, ...args, "book", "BTC/USDT", "--watch", "--json"], {
      env: cli.env,
    });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString();
      let at = this.buffer.indexOf("\n");
      while (at >= 0) {
        this.lines.push(JSON.parse(this.buffer.slice(0, at)) as WatchLine);
        this.buffer = this.buffer.slice(at + 1);
        at = this.buffer.indexOf("\n");
      }
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on("close", resolve));
  }

  /** Waits for a live line equal to the truth's top `depth` levels, level by level. */
  async showsTruth(truth: TruthBook, depth: number, what: string, timeoutMs = 10_000): Promise<void> {
    const want = JSON.stringify([canon(truth.levels("bid", depth)), canon(truth.levels("ask", depth))]);
    const started = Date.now();
    for (;;) {
      const last = this.lines.at(-1);
      if (last?.state === "live" && JSON.stringify([canon(last.bids), canon(last.asks)]) === want) return;
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `${what}: no live line equal to the true book; last ${JSON.stringify(last)?.slice(0, 400)}; stderr ${this.stderr.slice(-600)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Ctrl-C; resolves with the exit code (at once when the child has already ended). */
  interrupt(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGINT");
    return this.exited;
  }
}

let cli: Sandbox;
let bin: string;
beforeAll(() => {
  cli = sandbox();
  bin = buildCli();
});
afterAll(() => cli.cleanup());

describe("book --watch --json ends equal to the venue's true book (issue 19)", () => {
  for (const [id, start] of Object.entries(VENUES)) {
    const depth = CATALOGUE[id as ExchangeId].depth;
    it(`${id}: clean, with a message dropped, with a sequence gap where the venue numbers its messages, and after unreadable frames`, async () => {
      const venue = await start();
      venue.truth.reset(ladder("bid", 30), ladder("ask", 30));
      const watch = new Watch(bin, cli, id, venue.args);
      try {
        await watch.showsTruth(venue.truth, depth, "first book");

        venue.change([["99.75", "1.5"]], [["100.00", "0"]]);
        venue.change([["99.50", "0"]], [["100.25", "2.25"]]);
        await watch.showsTruth(venue.truth, depth, "clean");

        venue.lose([["99.60", "4"]], [["100.50", "0"]]);
        venue.change([["99.70", "1"]], [["100.75", "3"]]);
        await watch.showsTruth(venue.truth, depth, "a message dropped");

        if (venue.sequenced) {
          venue.lose([["99.65", "2"]], []);
          venue.lose([["99.00", "0"]], []);
          venue.lose([], [["101.00", "0.5"]]);
          venue.change([["99.80", "0.1"]], [["100.25", "0"]]);
          await watch.showsTruth(venue.truth, depth, "a sequence gap");
        }

        // frames nobody can read: logged once per connection, the book taken again, the process goes on
        venue.garbage();
        venue.change([["99.85", "0.7"]], [["100.50", "1.25"]]);
        await watch.showsTruth(venue.truth, depth, "after frames nobody can read");
        // Ctrl-C: a final line with state "closed", then the shell's code for SIGINT (docs/cli.md "Exit codes")
        expect(await watch.interrupt()).toBe(130);
        expect(watch.lines.at(-1)?.state).toBe("closed");
      } finally {
        await watch.interrupt();
        await venue.close();
      }
    }, 60_000);
  }
});
