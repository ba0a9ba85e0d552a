/**
 * The operator's calls (docs/operations.md): GET /health/ready, the readiness answer beside the
 * liveness one (/health): whether the storage, and Redis in cluster mode, answer now.
 */
import type { App } from "../app.js";
import { PassThroughJson, type RouteHandlers } from "../http.js";

/** A dependency that does not answer within this long is not ready (a probe must not hang). */
export const READY_TIMEOUT_MS = 2000;

export interface OpsDependencies {
  /** Redis in cluster mode (docs/scale-out.md): resolves when it answers PING */
  pingRedis?: () => Promise<unknown>;
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
  return {
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
  } satisfies RouteHandlers;
}
