/** Awaiting a promise that must reject, for tests across the house. */
import { expect } from "vitest";
import { ExchangeError } from "../lib/errors.js";

/** What a promise that must reject rejected with; throws when it resolves. */
export async function anyRejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** Awaits a promise that must reject with an ExchangeError and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<ExchangeError> {
  const error = await anyRejection(promise);
  expect(error).toBeInstanceOf(ExchangeError);
  return error as ExchangeError;
}
