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
 * reconnect (seed 000 §4).
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { LiveMessage } from "../../lib/api.js";
import type { Logger } from "../../lib/log.js";

export const CLUSTER_CHANNEL = "spotdesk:cluster";

export type ClusterMessage =
  | { kind: "delta"; client: string; message: LiveMessage }
  | { kind: "session-ended"; sessionId: string }
  | { kind: "user-removed"; userId: string }
  | { kind: "bot-changed"; botId: string }
  /** asks the process that holds the bot's lease to remove it (cancel its orders first, D25) */
  | { kind: "bot-remove"; botId: string; requestId: string; to: string }
  | { kind: "bot-remove-done"; requestId: string; to: string; error?: string };

/** a message as received: `origin` is the sending process's instanceId */
export type ClusterEnvelope = ClusterMessage & { origin: string };

export class ClusterBus {
  /** this process's name on the bus (and in the bots' leases) */
  readonly instanceId = randomUUID();
  private readonly handlers: ((message: ClusterEnvelope) => void)[] = [];
  private closed = false;

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
  }
}
