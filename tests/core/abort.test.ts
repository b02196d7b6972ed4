import { describe, expect, it } from 'vitest';
import { AbortError, abortErrorOf, isAbortError, onAbort, throwIfAborted } from '../../src/core/abort';

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

  it('onAbort calls the listener once when the signal fires, and not after unsubscribing', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('kept'));
    const stop = onAbort(controller.signal, () => calls.push('dropped'));
    stop();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['kept']);
  });

  it('onAbort calls the listener at once when the signal has already fired', () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const stop = onAbort(controller.signal, () => calls++);
    expect(calls).toBe(1);
    stop();
    expect(calls).toBe(1);
  });

  it('onAbort without a signal, or on a signal-like object without events, never calls', () => {
    let calls = 0;
    onAbort(undefined, () => calls++)();
    const plain = { aborted: false };
    onAbort(plain, () => calls++)();
    expect(calls).toBe(0);
    // Already fired: the state is enough, events or not.
    onAbort({ aborted: true }, () => calls++);
    expect(calls).toBe(1);
  });

  it('abortErrorOf gives the signal’s own AbortError, else a new one', () => {
    const reason = new DOMException('user pressed Stop', 'AbortError');
    expect(abortErrorOf({ aborted: true, reason })).toBe(reason);
    expect(abortErrorOf({ aborted: true, reason: 'why' })).toBeInstanceOf(AbortError);
    expect(abortErrorOf(undefined)).toBeInstanceOf(AbortError);
  });
});
