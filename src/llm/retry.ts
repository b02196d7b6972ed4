/** Backoff arithmetic: exponential ceilings with full jitter, and the server's Retry-After. */
import type { RandomFn } from '../core/random';

/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 5;
/** Default first backoff ceiling (ms); the reference implementation waits at least 1 s. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 1_000;
/** Default largest backoff ceiling (ms); the reference implementation's tenacity `max=20` seconds. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 20_000;
/** Default longest Retry-After (ms) we are willing to sleep through. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 120_000;

const MS_PER_SECOND = 1_000;

/**
 * The "full jitter" backoff (AWS Architecture Blog, 2015): a uniform wait in [0, min(maxMs, baseMs·2^retry)],
 * which spreads clients that failed together better than equal or decorrelated jitter.
 * @param retry 0 for the first retry.
 */
export function backoffDelayMs(retry: number, baseMs: number, maxMs: number, random: RandomFn): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(retry, 30));
  return Math.floor(random() * ceiling);
}

/** The read-only part of `Headers` we need. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * How long the server asks us to wait, in ms, or undefined. Reads OpenAI's `retry-after-ms`, then the
 * standard `Retry-After` as delta-seconds (RFC 9110 §10.2.3) or as an HTTP date (compared with `nowMs`).
 */
export function retryAfterMs(headers: HeaderSource, nowMs: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * MS_PER_SECOND);
  // HTTP dates name the day and month ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone would accept "-5".
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
