/**
 * Trading calls (docs/api.md#calls) through the exchange layer. docs/decisions.md#d1: create, orders and balances
 * act on the account record's pair; cancel and cancel-all use `customPair` when given (cancel falls
 * back to the order's `clientOID` when the exchange does not know the id); the token
 * pair's decimals truncate price and amount toward zero before the zero check.
 */
import { resolveOrderAmount } from "../../lib/decimal.js";
import { isExchangeError } from "../../lib/errors.js";
import { normalizePair } from "../../lib/pair.js";
import { cancelAllSchema, cancelOrderSchema, createOrderSchema } from "../../lib/schemas.js";
import { exchangeFailure, withAdapter } from "../accounts.js";
import type { App } from "../app.js";
import type { RouteHandlers } from "../http.js";

export function tradeRoutes(app: App) {
  return {
    async balances(ctx) {
      return withAdapter(app, ctx, (adapter) => adapter.fetchBalances(), "balances");
    },
    async orders(ctx) {
      return withAdapter(
        app,
        ctx,
        (adapter, { record }) => adapter.fetchOpenOrders(normalizePair(record.envelope.pair)),
        "orders",
      );
    },
    async order(ctx) {
      const id = ctx.params.id ?? "";
      return withAdapter(app, ctx, (adapter, { record }) =>
        adapter.fetchOrder(normalizePair(record.envelope.pair), id),
      );
    },
    async pairRules(ctx) {
      return withAdapter(app, ctx, async (adapter, { record }) => {
        const pair = normalizePair(record.envelope.pair);
        return (await adapter.fetchPairs()).find((p) => p.pair === pair) ?? null;
      });
    },
    async createOrder(ctx) {
      const body = await ctx.body(createOrderSchema);
      return withAdapter(app, ctx, async (adapter, { path, record }) => {
        const pair = normalizePair(record.envelope.pair);
        const decimals = await app.storage.getTokenPair(path[1], pair);
        let resolved: ReturnType<typeof resolveOrderAmount>;
        try {
          resolved = resolveOrderAmount({
            price: body.price,
            amount: body.amount,
            ...(decimals ? { priceDecimals: decimals.priceDecimals, amountDecimals: decimals.amountDecimals } : {}),
          });
        } catch (error) {
          throw exchangeFailure(error);
        }
        return adapter.createOrder({
          pair,
          side: body.side,
          price: resolved.price.toFixed(),
          amount: resolved.amount.toFixed(),
          ...(body.postOnly === true ? { postOnly: true } : {}),
        });
      });
    },
    async cancelOrder(ctx) {
      const body = await ctx.body(cancelOrderSchema);
      return withAdapter(app, ctx, async (adapter, { record }) => {
        const pair = body.customPair ?? normalizePair(record.envelope.pair);
        try {
          return { id: await adapter.cancelOrder(pair, body.id), pair };
        } catch (error) {
          // Issue 13: the order a person saw may carry an id the exchange does not know (placed
          // after a time-out, re-listed); its client order id names it for sure, so look it up
          // by that and cancel the order found. Nothing is cancelled that the client id did not name.
          if (!body.clientOID || !isExchangeError(error) || error.kind !== "order-not-found") throw error;
          const order = await adapter.findOrderByClientOrderId(pair, body.clientOID);
          if (order?.status !== "open" || order.id === body.id) throw error;
          return { id: await adapter.cancelOrder(pair, order.id), pair };
        }
      });
    },
    async cancelAll(ctx) {
      const body = await ctx.body(cancelAllSchema);
      return withAdapter(app, ctx, async (adapter, { record }) => {
        const pair = body.customPair ?? normalizePair(record.envelope.pair);
        return { ids: await adapter.cancelAll(pair), pair };
      });
    },
  } satisfies RouteHandlers;
}
