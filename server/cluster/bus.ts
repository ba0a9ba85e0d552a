/**
 * What one server process tells the others through Redis pub/sub (docs/scale-out.md "Live
 * channel"): a live-channel delta for the browsers connected elsewhere, a session or user that
 * ended (their sockets close on every process), a bot record that changed (its owner reacts:
 * removed credentials stop it), and the request to remove a bot that another process runs.
 *
 * Every process publishes on one channel and ignores its own messages (it has delivered them
 * already). Redis delivers the messages of one publishing connection in order, so a browser sees
 * one bot's deltas in the order they were made. Pub/sub keeps nothing: a process that is
 * disconnected misses what was said meanwhile, and its browsers get a fresh snapshot when they
 * reconnect (docs/dashboard-rules.md#states). An ended session must not be missed: a process
 * tells its listeners when its subscription is back, and they check what they hold against the
 * database (docs/scale-out.md "When Redis goes away").
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { LiveMessage } from "../../lib/api.js";
import type { Logger } from "../../lib/log.js";

export const CLUSTER_CHANNEL = "spotdesk:cluster";

export type ClusterMessage =
  | { kind: "delta"; clients: readonly string[]; message: LiveMessage }
  | { kind: "session-ended"; sessionId: string }
  | { kind: "user-removed"; userId: string }
  | { kind: "bot-changed"; botId: string }
  /** asks the process that holds the bot's lease to remove it (cancel its orders first, docs/decisions.md#d25) */
  | { kind: "bot-remove"; botId: string; requestId: string; to: string }
  | { kind: "bot-remove-done"; requestId: string; to: string; error?: string };

/** a message as received: `origin` is the sending process's instanceId */
export type ClusterEnvelope = ClusterMessage & { origin: string };

export class ClusterBus {
  /** this process's name on the bus (and in the bots' leases) */
  readonly instanceId = randomUUID();
  private readonly handlers: ((message: ClusterEnvelope) => void)[] = [];
  private readonly reconnected: (() => void)[] = [];
  private closed = false;
  /** the subscription was lost: what the others send meanwhile is missed */
  private down = false;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.subscriber.on("message", (channel: string, text: string) => {
      if (channel !== CLUSTER_CHANNEL) return;
      let envelope: ClusterEnvelope;
      try {
        envelope = JSON.parse(text) as ClusterEnvelope;
      } catch {
        return; // not ours: a message on our channel must not crash the process
      }
      if (envelope.origin === this.instanceId) return;
      for (const handler of this.handlers) {
        try {
          handler(envelope);
        } catch (error) {
          this.logger.error("cluster message failed", { kind: envelope.kind, error: String(error) });
        }
      }
    });
    await this.subscriber.subscribe(CLUSTER_CHANNEL);
    this.subscriber.on("close", () => {
      this.down = true;
    });
    this.subscriber.on("ready", () => {
      if (!this.down || this.closed) return;
      // ioredis subscribes again by itself; subscribing here too (harmless) says when it is done:
      // from then on nothing is missed, so the listeners can check what was
      this.subscriber.subscribe(CLUSTER_CHANNEL).then(
        () => {
          this.down = false;
          for (const handler of this.reconnected) {
            try {
              handler();
            } catch (error) {
              this.logger.error("cluster reconnection failed", { error: String(error) });
            }
          }
        },
        () => {}, // lost again: the next "ready" tries again
      );
    });
  }

  /** false from the loss of the subscription until it is back */
  get connected(): boolean {
    return !this.down;
  }

  /** `handler` runs when the subscription is back after a loss (messages may have been missed). */
  onReconnect(handler: () => void): void {
    this.reconnected.push(handler);
  }

  private readonly pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  private requests = 0;

  /**
   * Asks process `to` (the holder of the bot's lease) to remove the bot; resolves when it has
   * (its orders cancelled), rejects with its error, or after `timeoutMs` without an answer.
   */
  askToRemove(botId: string, to: string, timeoutMs: number): Promise<void> {
    const requestId = `${this.instanceId}:${++this.requests}`;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`the process running this bot did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      const settle = (error?: Error) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        if (error) reject(error);
        else resolve();
      };
      this.pending.set(requestId, { resolve: () => settle(), reject: settle });
      this.send({ kind: "bot-remove", botId, requestId, to });
    });
  }

  /** Answers the remove requests addressed to this process with `remove`'s outcome. */
  onRemoveRequest(remove: (botId: string) => Promise<void>): void {
    this.on((event) => {
      if (event.kind === "bot-remove" && event.to === this.instanceId) {
        const answer = (error?: string) =>
          this.send({
            kind: "bot-remove-done",
            requestId: event.requestId,
            to: event.origin,
            ...(error !== undefined ? { error } : {}),
          });
        remove(event.botId).then(
          () => answer(),
          (error: unknown) => answer(error instanceof Error ? error.message : String(error)),
        );
      } else if (event.kind === "bot-remove-done" && event.to === this.instanceId) {
        const waiting = this.pending.get(event.requestId);
        if (event.error === undefined) waiting?.resolve();
        else waiting?.reject(new Error(event.error));
      }
    });
  }

  on(handler: (message: ClusterEnvelope) => void): void {
    this.handlers.push(handler);
  }

  send(message: ClusterMessage): void {
    if (this.closed) return;
    this.publisher
      .publish(CLUSTER_CHANNEL, JSON.stringify({ ...message, origin: this.instanceId }))
      .catch((error: unknown) =>
        this.logger.warn("cluster message not sent", { kind: message.kind, error: String(error) }),
      );
  }

  close(): void {
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(new Error("the server is stopping"));
  }
}
