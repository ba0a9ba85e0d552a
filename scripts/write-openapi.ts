/**
 * `npm run openapi`: writes docs/openapi.json from lib/api.ts ROUTES and lib/schemas.ts
 * (server/openapi.ts). test/server/openapi.test.ts fails while the committed file is stale.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiText } from "../server/openapi.js";

const file = fileURLToPath(new URL("../docs/openapi.json", import.meta.url));
writeFileSync(file, openApiText());
process.stdout.write(`wrote ${file}\n`);
