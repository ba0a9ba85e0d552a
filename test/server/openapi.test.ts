/**
 * docs/operations.md#api-description: "An OpenAPI 3.1 document generated from `lib/api.ts` and the
 * zod schemas (zod's own JSON Schema output), served at `/openapi.json` and committed under docs/,
 * with a test that fails when it is stale and one that validates it with a maintained OpenAPI
 * validator (@seriousme/openapi-schema-validator)."
 */
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../lib/api.js";
import { openApiDocument, openApiText } from "../../server/openapi.js";
import { call, startTestServer, type TestServer } from "./helpers.js";

const COMMITTED = new URL("../../docs/openapi.json", import.meta.url);

describe("the OpenAPI description", () => {
  it("is committed as generated: docs/openapi.json is not stale (npm run openapi writes it)", () => {
    const committed = readFileSync(COMMITTED, "utf8");
    expect(committed === openApiText(), "docs/openapi.json is stale: run `npm run openapi` and commit it").toBe(true);
  });

  it("is a valid OpenAPI 3.1 document for @seriousme/openapi-schema-validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(readFileSync(COMMITTED, "utf8"));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has every route of the table with its method, headers, token and body schema", () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[] }>>;
    };
    for (const [name, route] of Object.entries(ROUTES)) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()] as
        | { operationId: string; parameters?: { name: string; in: string }[]; security?: unknown }
        | undefined;
      expect(op?.operationId, `${route.method} ${route.path}`).toBe(name);
      for (const header of route.headers)
        expect(op?.parameters, `${name}: header ${header}`).toContainEqual(
          expect.objectContaining({ name: header, in: "header" }),
        );
      expect(op?.security !== undefined, `${name}: token`).toBe(route.auth !== "public");
    }
    const create = doc.paths["/token/trade/order/create"]!.post as unknown as {
      requestBody: { content: { "application/json": { schema: Record<string, unknown> } } };
    };
    // zod's JSON Schema of createOrderSchema: a closed object with price, amount and side
    const schema = create.requestBody.content["application/json"].schema;
    expect(schema).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(["price", "amount", "side"]));
    expect(schema.required).toEqual(expect.arrayContaining(["amount", "side"]));
  });
});

describe("GET /openapi.json", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.cleanup();
  });

  it("serves the committed document as JSON", async () => {
    const res = await call(server, "GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(readFileSync(COMMITTED, "utf8")));
  });
});
