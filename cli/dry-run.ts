/**
 * `--dry-run` (docs/cli.md "Dry run"): the order commands build and sign their request as usual,
 * the RestClient hands it back instead of sending it (exchanges/core/rest.ts DryRun), and this
 * prints it with every secret masked: the key, the signature, the passphrase, any token.
 */
import type { DryRun, HttpRequest } from "../exchanges/core/rest.js";
import type { Context } from "./context.js";

const MASK = "***";
/** Header, query and body fields that carry a key, a signature, a passphrase or a token. */
const SECRET_NAME = /sign|key|pass|secret|token|auth/i;

/** Credentials of the running command, masked wherever they appear (an exchange may echo one in a field of any name). */
const secrets = new Set<string>();
export function rememberSecrets(values: readonly (string | undefined)[]): void {
  for (const value of values) if (value && value.length >= 4) secrets.add(value);
}

function maskText(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return out;
}

function maskForm(text: string): string {
  if (text === "") return text;
  return text
    .split("&")
    .map((pair) => {
      const at = pair.indexOf("=");
      if (at < 0) return pair;
      const name = decodeURIComponent(pair.slice(0, at));
      return SECRET_NAME.test(name) ? `${pair.slice(0, at)}=${MASK}` : pair;
    })
    .join("&");
}

function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, v]) => [name, SECRET_NAME.test(name) ? MASK : maskJson(v)]),
    );
  }
  return value;
}

function maskBody(body: string): string {
  if (body === "") return body;
  try {
    return JSON.stringify(maskJson(JSON.parse(body)));
  } catch {
    return maskForm(body);
  }
}

export interface MaskedRequest {
  method: string;
  url: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

/** The request as it would have gone out, with every secret replaced by ***. */
export function maskRequest(request: HttpRequest, url: string): MaskedRequest {
  const query = maskText(maskForm(request.query));
  const at = url.indexOf("?");
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, SECRET_NAME.test(name) ? MASK : maskText(value)]),
  );
  return {
    method: request.method,
    url: maskText(at < 0 ? url : `${url.slice(0, at)}${query ? `?${query}` : ""}`),
    path: request.path,
    query,
    headers,
    body: maskText(maskBody(request.body)),
  };
}

export function isDryRun(error: unknown): error is DryRun {
  return error instanceof Error && error.name === "DryRun" && "request" in error;
}

/** Prints the captured request on stdout: one JSON document with --json, else a short listing. */
export function printDryRun(ctx: Context, exchange: string, dryRun: DryRun): void {
  const masked = maskRequest(dryRun.request, dryRun.url);
  if (ctx.out.json) {
    ctx.out.document({ dryRun: true, exchange, ...masked });
    return;
  }
  const lines = [`Dry run on ${exchange}, nothing sent: ${masked.method} ${masked.url}`];
  for (const [name, value] of Object.entries(masked.headers)) lines.push(`  ${name}: ${value}`);
  if (masked.body !== "") lines.push(`  body: ${masked.body}`);
  ctx.out.text(lines.join("\n"));
}
