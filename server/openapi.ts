/**
 * The API's OpenAPI 3.1 description (docs/operations.md#api-description), generated from the one
 * route table (lib/api.ts ROUTES: method, path, who may call, headers) and the request bodies'
 * zod schemas (lib/schemas.ts), which zod turns into JSON Schema itself (`z.toJSONSchema`, draft
 * 2020-12, the dialect of OpenAPI 3.1). Served at GET /openapi.json; committed as
 * docs/openapi.json (`npm run openapi` writes it; a test fails when it is stale).
 */
import { z } from "zod";
import { API_ERROR_MESSAGES, HEADER, ROUTES, type RouteName, type RouteSpec } from "../lib/api.js";
import {
  apiKeysRecordSchema,
  cancelAllSchema,
  cancelOrderSchema,
  changeScopeSchema,
  createOrderSchema,
  removeApiKeysSchema,
  removeBotSchema,
  removeTokenPairSchema,
  setUserSchema,
  setupBotSchema,
  tokenPairSchema,
} from "../lib/schemas.js";

/** The JSON body each route reads (server/routes/*: `ctx.body(schema)`). */
const BODIES: Partial<Record<RouteName, z.ZodType>> = {
  setApiKeys: apiKeysRecordSchema,
  removeApiKeys: removeApiKeysSchema,
  setTokenPair: tokenPairSchema,
  removeTokenPair: removeTokenPairSchema,
  setUser: setUserSchema,
  changeScope: changeScopeSchema,
  createOrder: createOrderSchema,
  cancelOrder: cancelOrderSchema,
  cancelAll: cancelAllSchema,
  setupBot: setupBotSchema,
  removeBot: removeBotSchema,
};

/** Query parameters the routes read (server/routes/public.ts). */
const QUERIES: Partial<Record<RouteName, { name: string; description: string; schema: object }[]>> = {
  book: [
    {
      name: "depth",
      description: "levels per side, 1 to 50 (20)",
      schema: { type: "integer", minimum: 1, maximum: 50 },
    },
  ],
  candles: [
    {
      name: "interval",
      description: "seconds per candle, 1 to 86400 (300)",
      schema: { type: "integer", minimum: 1, maximum: 86400 },
    },
    { name: "limit", description: "candles, 1 to 500 (200)", schema: { type: "integer", minimum: 1, maximum: 500 } },
  ],
};

/** What a header carries (docs/decisions.md#d18). */
const HEADER_TEXT: Record<string, string> = {
  [HEADER.email]: "the user's e-mail",
  [HEADER.password]: "the user's password",
  [HEADER.code]: "the one-time e-mail code (8 characters)",
  [HEADER.timestamp]: "milliseconds since the epoch; more than 30 s from the server clock is 605",
  [HEADER.publicKey]: "base64url of the WebAuthn attestationObject",
  [HEADER.credentialsId]: "base64url credential id",
  [HEADER.userId]: "the user's uuid",
  [HEADER.clientData]: "base64url of the WebAuthn clientDataJSON",
  [HEADER.authenticatorData]: "base64url of the WebAuthn authenticatorData",
  [HEADER.signature]: "base64url of the WebAuthn assertion signature",
  [HEADER.path]: 'the account path as a JSON array ["client","exchange","account"]',
  [HEADER.key]: "the encryption key of the account's envelope",
};

/** A zod schema as JSON Schema of what a client sends (the input side of transforms). */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest;
}

function parametersOf(name: RouteName, route: RouteSpec): object[] {
  const params: object[] = [];
  for (const segment of route.path.split("/"))
    if (segment.startsWith(":"))
      params.push({ name: segment.slice(1), in: "path", required: true, schema: { type: "string" } });
  for (const header of route.headers)
    params.push({
      name: header,
      in: "header",
      required: true,
      ...(HEADER_TEXT[header] ? { description: HEADER_TEXT[header] } : {}),
      schema: { type: "string" },
    });
  for (const query of QUERIES[name] ?? []) params.push({ ...query, in: "query", required: false });
  return params;
}

const json = (schema: object) => ({ "application/json": { schema } });
const ERROR = { $ref: "#/components/schemas/ApiError" };

function responsesOf(name: RouteName): Record<string, object> {
  const failure = { description: "a failure: the 600–609 code in the body (docs/api.md#errors)", content: json(ERROR) };
  if (name === "metrics")
    return {
      "200": {
        description: "Prometheus' text format (docs/operations.md#metrics)",
        content: { "text/plain": { schema: { type: "string" } } },
      },
      default: failure,
    };
  if (name === "ready")
    return {
      "200": { description: "storage (and Redis in cluster mode) answer", content: json({ type: "object" }) },
      "503": {
        description: "a part does not answer (docs/operations.md#readiness)",
        content: json({ type: "object" }),
      },
      default: failure,
    };
  return { "200": { description: "the answer (docs/api.md#calls)", content: json({}) }, default: failure };
}

function operationOf(name: RouteName, route: RouteSpec): object {
  const body = BODIES[name];
  const parameters = parametersOf(name, route);
  return {
    operationId: name,
    tags: [route.auth],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: json(jsonSchema(body)) } } : {}),
    ...(route.auth === "public" ? {} : { security: [{ accessToken: [] }] }),
    responses: responsesOf(name),
  };
}

/** The OpenAPI 3.1 document of every route of lib/api.ts ROUTES, in the table's order. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  for (const name of Object.keys(ROUTES) as RouteName[]) {
    const route: RouteSpec = ROUTES[name];
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(name, route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "spotdesk server API",
      version: "1",
      description:
        "The backend of spotdesk (docs/api.md). Generated from lib/api.ts ROUTES and lib/schemas.ts; failures carry the 600–609 codes of docs/api.md#errors.",
    },
    tags: [
      { name: "public", description: "no token" },
      { name: "user", description: "an access token" },
      { name: "admin", description: "an admin's access token (docs/decisions.md#d5)" },
    ],
    paths,
    components: {
      securitySchemes: { accessToken: { type: "http", scheme: "bearer" } },
      schemas: {
        ApiError: {
          type: "object",
          required: ["code", "msg"],
          properties: {
            code: {
              type: "integer",
              enum: Object.keys(API_ERROR_MESSAGES)
                .map(Number)
                .concat(608)
                .sort((a, b) => a - b),
            },
            msg: { type: "string" },
            kind: { type: "string", description: "608: the exchange layer's error kind" },
            issues: {
              type: "array",
              items: { type: "string" },
              description: "600 from a schema: one line per problem",
            },
          },
        },
      },
    },
  };
}

/** The document as committed in docs/openapi.json and served at GET /openapi.json. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
