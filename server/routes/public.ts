/** Public calls: GET /health and the order-book relay GET /book/{exchange}/{pair} (PRODUCT D14). */
import { isExchangeError } from "../../lib/errors.js";
import { API_ERROR } from "../../lib/api.js";
import type { App } from "../app.js";
import { ApiError } from "../errors.js";
import type { Route } from "../http.js";
import { BookRelay } from "../live.js";

export function publicRoutes(app: App, relay: BookRelay): Route[] {
  return [
    {
      method: "GET",
      path: "/health",
      auth: "public",
      async handler() {
        await app.storage.countUsers(); // the database answers
        return { status: "ok", storage: app.storage.kind, time: app.now() };
      },
    },
    {
      method: "GET",
      path: "/book/:exchange/:pair",
      auth: "public",
      async handler(ctx) {
        const { exchange, pair } = BookRelay.parse(ctx.params.exchange!, ctx.params.pair!);
        const depth = Math.min(Math.max(Number(ctx.query.get("depth") ?? 20) || 20, 1), 50);
        try {
          return await relay.snapshot(exchange, pair, depth);
        } catch (error) {
          if (isExchangeError(error)) throw new ApiError(API_ERROR.EXCHANGE_FAILED, { msg: error.message, kind: error.kind });
          throw error;
        }
      },
    },
  ];
}
