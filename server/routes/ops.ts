/**
 * The operator's calls (docs/operations.md): GET /health/ready, the readiness answer beside the
 * liveness one (/health): whether the storage, and Redis in cluster mode, answer now; GET /metrics,
 * Prometheus' text format, to loopback callers or with the metrics token; GET /openapi.json, the
 * API's OpenAPI 3.1 description (server/openapi.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { App } from "../app.js";
import { taskFailed } from "../errors.js";
import { PassThroughJson, type RequestContext, type RouteHandlers, TextAnswer } from "../http.js";
import type { ServerMetrics } from "../metrics.js";
import { openApiText } from "../openapi.js";

/** A dependency that does not answer within this long is not ready (a probe must not hang). */
export const READY_TIMEOUT_MS = 2000;

export interface OpsDependencies {
  /** Redis in cluster mode (docs/scale-out.md): resolves when it answers PING */
  pingRedis?: () => Promise<unknown>;
  /** absent when `metrics.enabled` is false: GET /metrics is 404 then */
  metrics?: ServerMetrics;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * docs/operations.md#metrics: a caller on loopback (the TCP peer; behind a TLS proxy the address
 * the proxy appended), or one with `Authorization: Bearer <metrics.token>`.
 */
function mayReadMetrics(app: App, ctx: RequestContext): boolean {
  const peer = app.config.behindTlsProxy ? ctx.ip : (ctx.req.socket.remoteAddress ?? "");
  if (LOOPBACK.test(peer)) return true;
  const token = app.config.metrics.token;
  const given = /^Bearer\s+(.+)$/i.exec(ctx.header("authorization") ?? "")?.[1];
  return token !== undefined && given !== undefined && timingSafeEqual(digest(given.trim()), digest(token));
}

type Check = "ok" | "failed" | "timed out";

/** How one dependency answers: "ok", "failed" (its error logged, not answered) or "timed out". */
async function check(app: App, what: string, probe: () => Promise<unknown>): Promise<Check> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve("timed out"), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then((): Check => "ok"), timeout]);
  } catch (error) {
    // the error may name a host or a user: it goes to the log, the answer says only "failed"
    app.logger.warn("readiness check failed", { what, error: String(error) });
    return "failed";
  } finally {
    clearTimeout(timer);
  }
}

export function opsRoutes(app: App, deps: OpsDependencies = {}) {
  /** built on the first call, then the same text (docs/operations.md#api-description) */
  let openapi: PassThroughJson | undefined;
  return {
    async openapi() {
      openapi ??= new PassThroughJson(200, openApiText());
      return openapi;
    },
    async ready() {
      const storage = await check(app, "storage", () => app.storage.countUsers());
      const redis = deps.pingRedis ? await check(app, "redis", deps.pingRedis) : undefined;
      const ready = storage === "ok" && (redis === undefined || redis === "ok");
      const body = {
        status: ready ? "ready" : "not ready",
        storage: { kind: app.storage.kind, state: storage },
        ...(redis ? { redis: { state: redis } } : {}),
        time: app.now(),
      };
      return new PassThroughJson(ready ? 200 : 503, JSON.stringify(body));
    },
    async metrics(ctx) {
      const { metrics } = deps;
      if (!metrics) throw taskFailed(`Not found: GET ${ctx.path} (metrics.enabled is false)`, 404);
      if (!mayReadMetrics(app, ctx))
        throw taskFailed(
          "Metrics are served to loopback callers, or with Authorization: Bearer and the metrics token (docs/operations.md#metrics)",
          403,
        );
      return new TextAnswer(metrics.contentType, await metrics.text());
    },
  } satisfies RouteHandlers;
}
