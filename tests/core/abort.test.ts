import { describe, expect, it } from 'vitest';
import { AbortError, isAbortError, throwIfAborted } from '../../src/core/abort';

describe('abort helpers', () => {
  it('throwIfAborted does nothing without a signal or before it fires', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted({ aborted: false, reason: new Error('x') })).not.toThrow();
  });

  it('throws an AbortError, or the signal’s own AbortError reason', () => {
    const plain = (() => {
      try {
        throwIfAborted({ aborted: true });
      } catch (e) {
        return e;
      }
    })();
    expect(plain).toBeInstanceOf(AbortError);
    expect(plain).toMatchObject({
      name: 'AbortError',
      code: 'ABORTED',
      message: 'The operation was cancelled.',
    });
    const reason = new DOMException('user pressed Stop', 'AbortError');
    expect(() => throwIfAborted({ aborted: true, reason })).toThrow(reason);
    // A reason that is not an abort (or not an Error) still surfaces as a plain cancellation.
    const other = new Error('timeout');
    expect(() => throwIfAborted({ aborted: true, reason: other })).toThrow(AbortError);
    expect(() => throwIfAborted({ aborted: true, reason: 'why' })).toThrow(AbortError);
  });

  it('isAbortError tells a cancellation from a failure', () => {
    expect(isAbortError(new AbortError())).toBe(true);
    expect(isAbortError(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('boom'))).toBe(false);
    expect(isAbortError({ name: 'AbortError' })).toBe(false);
    expect(isAbortError(undefined)).toBe(false);
  });
});
