/** The error a promise rejects with, checked to be of the expected class (the test fails if it resolves). */
import { expect } from 'vitest';

/** Awaits `promise`, expects it to reject with an instance of `type`, and returns that error. */
export async function rejection<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
