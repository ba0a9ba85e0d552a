/**
 * Work that takes many turns of the event loop, run one job at a time: between two turns of the
 * running job every other request gets its turn, instead of one turn per waiting job (with 60 jobs
 * interleaved, a cheap request would wait behind 60 of their turns). At most `waiting` jobs
 * queue, the running one included; one more is refused with 604, as a call past the limit
 * (docs/server-limits.md "Bounded work").
 */
import { API_ERROR } from "../lib/api.js";
import { ApiError } from "./errors.js";

export class TurnQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #queued = 0;

  constructor(private readonly waiting: number) {}

  /** jobs queued or running */
  get size(): number {
    return this.#queued;
  }

  /** Runs `job` once every job queued before it has settled; 604 when `waiting` jobs are already queued. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#queued >= this.waiting) throw new ApiError(API_ERROR.RATE_LIMIT);
    this.#queued++;
    const mine = this.#tail.then(job, job);
    this.#tail = mine.catch(() => {});
    try {
      return await mine;
    } finally {
      this.#queued--;
    }
  }
}
