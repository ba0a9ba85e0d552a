/**
 * zod compiles object parsers with `new Function` (and probes for it) unless told not to; the
 * page's Content-Security-Policy has no 'unsafe-eval' (issue 23, docs/security-headers.md).
 * Imported first by main.tsx, before any module builds a schema.
 */
import { z } from "zod";

z.config({ jitless: true });
