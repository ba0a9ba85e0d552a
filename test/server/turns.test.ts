/**
 * docs/server-limits.md "Bounded work": a long computation (a candle history) runs one at a time,
 * and past the queue's bound a caller is refused with 604 instead of waiting behind everyone.
 */
import { describe, expect, it } from "vitest";
import { API_ERROR } from "../../lib/api.js";
import { ApiError } from "../../server/errors.js";
import { TurnQueue } from "../../server/turns.js";

/** A job that starts when the queue runs it and ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const log = { started: false };
  const job = async () => {
    log.started = true;
    await opened;
    return "done";
  };
  return { job, open, log };
}

describe("TurnQueue (server/turns.ts)", () => {
  it("runs one job at a time, in the order they came", async () => {
    const queue = new TurnQueue(4);
    const [a, b, c] = [gate(), gate(), gate()];
    const answers = [queue.run(a.job), queue.run(b.job), queue.run(c.job)];
    await new Promise((resolve) => setImmediate(resolve));
    expect([a.log.started, b.log.started, c.log.started]).toEqual([true, false, false]);
    a.open();
    await answers[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect([b.log.started, c.log.started]).toEqual([true, false]);
    b.open();
    c.open();
    expect(await Promise.all(answers)).toEqual(["done", "done", "done"]);
    expect(queue.size).toBe(0);
  });

  it("refuses with 604 once `waiting` jobs are queued, and takes jobs again when one has ended", async () => {
    const queue = new TurnQueue(2);
    const [a, b] = [gate(), gate()];
    const first = queue.run(a.job);
    const second = queue.run(b.job);
    const refused = await queue.run(async () => "never").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(API_ERROR.RATE_LIMIT);
    a.open();
    await first;
    const third = gate();
    const later = queue.run(third.job);
    b.open();
    third.open();
    expect(await Promise.all([second, later])).toEqual(["done", "done"]);
  });

  it("goes on after a job that failed", async () => {
    const queue = new TurnQueue(2);
    await expect(queue.run(async () => Promise.reject(new Error("bad history")))).rejects.toThrow("bad history");
    expect(await queue.run(async () => "next")).toBe("next");
  });
});
