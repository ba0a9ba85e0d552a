/**
 * `spotdesk serve --database … --redis …` that cannot start (docs/scale-out.md, docs/cli.md "Exit
 * codes"): a URL of the wrong kind is a configuration error (exit 2), a database or Redis out of
 * reach is a network error (exit 8) naming the host; the password in a URL is never printed.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../server/services.js";
import { type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const lastJsonLine = (stderr: string) =>
  JSON.parse(stderr.trim().split("\n").at(-1)!) as { error: { kind: string; exitCode: number; message: string } };

describe("serve on PostgreSQL and Redis that cannot start", () => {
  it("refuses a --database that is not a PostgreSQL URL: config, exit 2, the password not repeated", async () => {
    const data = join(cli.home, "srv-a");
    const result = await cli.run([
      "serve",
      "--port",
      "0",
      "--data",
      data,
      "--database",
      "mysql://u:hunter2@db/x",
      "--json",
    ]);
    expect(result.code).toBe(2);
    expect(lastJsonLine(result.stderr).error).toMatchObject({ kind: "config", exitCode: 2 });
    expect(result.stderr).toContain("--database must be a PostgreSQL URL");
    expect(result.stderr).not.toContain("hunter2");
    const redis = await cli.run(["serve", "--port", "0", "--data", data, "--redis", "http://r:hunter2@x", "--json"]);
    expect(redis.code).toBe(2);
    expect(redis.stderr).toContain("--redis must be a Redis URL");
    expect(redis.stderr).not.toContain("hunter2");
  });

  it("a database out of reach is network, exit 8, naming the host without the password", async () => {
    const port = await freePort(); // nothing listens there
    const result = await cli.run([
      "serve",
      "--port",
      "0",
      "--data",
      join(cli.home, "srv-b"),
      "--database",
      `postgres://spotdesk:hunter2@127.0.0.1:${port}/desk`,
      "--json",
    ]);
    expect(result.code).toBe(8);
    const error = lastJsonLine(result.stderr).error;
    expect(error).toMatchObject({ kind: "network", exitCode: 8 });
    expect(error.message).toContain(`PostgreSQL at postgres://spotdesk:***@127.0.0.1:${port}/desk`);
    expect(result.stderr).not.toContain("hunter2");
  });

  it("a Redis out of reach is network, exit 8, naming the host without the password", async () => {
    const port = await freePort();
    const result = await cli.run([
      "serve",
      "--port",
      "0",
      "--data",
      join(cli.home, "srv-c"),
      "--redis",
      `redis://default:hunter2@127.0.0.1:${port}`,
      "--json",
    ]);
    expect(result.code).toBe(8);
    expect(lastJsonLine(result.stderr).error.message).toContain(`Redis at redis://default:***@127.0.0.1:${port}`);
    expect(result.stderr).not.toContain("hunter2");
  });
});
