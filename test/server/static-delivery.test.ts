/**
 * How `spotdesk serve` delivers the dashboard's files (issue 17 "Delivery",
 * docs/dashboard-delivery.md#delivery): the precompressed form Accept-Encoding allows (br, then
 * gzip, else the file itself) with Vary, a favicon, and the address a browser should open.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptQuality, createStaticHandler, pickEncoding } from "../../server/static.js";
import { buildCli } from "../cli/helpers.js";
import { ensureWebBuilt, ROOT } from "../web/harness.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string>, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Accept-Encoding (RFC 9110, section 12.5.3)", () => {
  it("gives each coding its q-value, `*` for the unnamed, identity acceptable unless refused", () => {
    expect(acceptQuality("gzip, deflate, br, zstd", "br")).toBe(1);
    expect(acceptQuality("gzip;q=0.8, br;q=0.5", "gzip")).toBe(0.8);
    expect(acceptQuality("br;q=0", "br")).toBe(0);
    expect(acceptQuality("*;q=0.3", "br")).toBe(0.3);
    expect(acceptQuality("gzip", "br")).toBe(0);
    expect(acceptQuality(undefined, "gzip")).toBe(0);
    expect(acceptQuality(undefined, "identity")).toBe(1);
    expect(acceptQuality("GZIP ; Q=1", "gzip")).toBe(1);
    expect(acceptQuality("gzip;q=lots", "gzip")).toBe(0);
  });

  it("picks br before gzip on a tie, the higher q otherwise, only for text files that have the form", () => {
    const all = () => true;
    expect(pickEncoding("/d/a.js", "gzip, deflate, br", all)).toEqual({ path: "/d/a.js.br", encoding: "br" });
    expect(pickEncoding("/d/a.js", "br;q=0.5, gzip", all)).toEqual({ path: "/d/a.js.gz", encoding: "gzip" });
    expect(pickEncoding("/d/a.js", "br;q=0, gzip", all)).toEqual({ path: "/d/a.js.gz", encoding: "gzip" });
    expect(pickEncoding("/d/a.js", "identity", all)).toBeUndefined();
    expect(pickEncoding("/d/a.js", "", all)).toBeUndefined();
    expect(pickEncoding("/d/a.js", "br, gzip", (p) => p.endsWith(".gz"))).toEqual({
      path: "/d/a.js.gz",
      encoding: "gzip",
    });
    expect(pickEncoding("/d/a.png", "br, gzip", all)).toBeUndefined();
  });
});

describe("the static handler on a real socket", () => {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-static-"));
  const js = Buffer.from(`export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))};\n`);
  const css = Buffer.from(`.a { color: red; }\n`.repeat(100));
  let server: Server;
  let base: string;

  beforeAll(async () => {
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>t</title>");
    writeFileSync(join(dir, "assets/app.js"), js);
    writeFileSync(join(dir, "assets/app.js.br"), brotliCompressSync(js));
    writeFileSync(join(dir, "assets/app.js.gz"), gzipSync(js));
    // only gzip beside this one: a br-only client gets the file itself
    writeFileSync(join(dir, "assets/only-gz.css"), css);
    writeFileSync(join(dir, "assets/only-gz.css.gz"), gzipSync(css));
    const handle = createStaticHandler(dir);
    server = createServer((req, res) => {
      if (!handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends br to a browser that accepts it, with its length and Vary", async () => {
    const a = await get(base, "/assets/app.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(a.status).toBe(200);
    expect(a.headers["content-encoding"]).toBe("br");
    expect(a.headers.vary).toBe("Accept-Encoding");
    expect(a.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(Number(a.headers["content-length"])).toBe(a.body.length);
    expect(a.body.length).toBeLessThan(js.length);
    expect(brotliDecompressSync(a.body).equals(js)).toBe(true);
  });

  it("sends gzip when br is not accepted or refused", async () => {
    for (const ae of ["gzip, deflate", "br;q=0, gzip", "gzip;q=0.9, br;q=0.1"]) {
      const a = await get(base, "/assets/app.js", { "accept-encoding": ae });
      expect(a.headers["content-encoding"], ae).toBe("gzip");
      expect(gunzipSync(a.body).equals(js)).toBe(true);
    }
  });

  it("sends the file itself to a client that accepts neither, still with Vary", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { "accept-encoding": "identity" },
      { "accept-encoding": "br;q=0, gzip;q=0" },
    ]) {
      const a = await get(base, "/assets/app.js", headers);
      expect(a.headers["content-encoding"]).toBeUndefined();
      expect(a.headers.vary).toBe("Accept-Encoding");
      expect(a.body.equals(js)).toBe(true);
    }
    const css1 = await get(base, "/assets/only-gz.css", { "accept-encoding": "br" });
    expect(css1.headers["content-encoding"]).toBeUndefined();
    expect(css1.body.equals(css)).toBe(true);
  });

  it("answers a navigation to a path with a stray % with the app's page, and leaves other such requests to the API", async () => {
    const page = await get(base, "/c/[50%][paper][main]", { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain("<title>t</title>");
    expect((await get(base, "/c/[50%][paper][main]", {})).status).toBe(404);
  });

  it("answers HEAD with the chosen form's headers and no body", async () => {
    const a = await get(base, "/assets/app.js", { "accept-encoding": "br" }, "HEAD");
    expect(a.headers["content-encoding"]).toBe("br");
    expect(Number(a.headers["content-length"])).toBe(brotliCompressSync(js).length);
    expect(a.body.length).toBe(0);
  });
});

describe("spotdesk serve", () => {
  let child: ChildProcess;
  let dataDir: string;
  let stderr = "";
  let port = 0;

  beforeAll(async () => {
    ensureWebBuilt();
    const bin = buildCli();
    dataDir = mkdtempSync(join(tmpdir(), "spotdesk-delivery-"));
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--data", dataDir], {
      env: { ...process.env, SPOTDESK_LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
      child.stderr?.on("data", () => {
        const m = /^Open http:\/\/localhost:(\d+) in the browser/m.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints the localhost address a browser should open (the WebAuthn relying party), on the port it listens on", () => {
    expect(stderr).toContain(`spotdesk server on http://127.0.0.1:${port} `);
    expect(stderr).toContain(`Open http://localhost:${port} in the browser`);
  });

  it("serves a favicon the page links", async () => {
    const base = `http://127.0.0.1:${port}`;
    const page = await get(base, "/", { accept: "text/html" });
    expect(page.body.toString()).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"');
    const icon = await get(base, "/favicon.svg", {});
    expect(icon.status).toBe(200);
    expect(icon.headers["content-type"]).toBe("image/svg+xml");
    expect(icon.body.toString()).toContain("<svg");
  });

  it("sends the built entry script precompressed (the build wrote .br and .gz beside it)", async () => {
    const base = `http://127.0.0.1:${port}`;
    const html = (await get(base, "/", { accept: "text/html" })).body.toString();
    const entry = /<script type="module" crossorigin src="([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const raw = readFileSync(join(ROOT, "web/dist", entry as string));
    const br = await get(base, entry as string, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);
    const gz = await get(base, entry as string, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(raw)).toBe(true);
  });
});
