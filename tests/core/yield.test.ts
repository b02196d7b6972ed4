import { describe, expect, it } from 'vitest';
import { Awaiting, runAsync, runSync, YIELD_INTERVAL_MS, yieldToEventLoop } from '../../src/core/yield';

function* counting(steps: number, log: number[]): Generator<number, string, void> {
  for (let i = 0; i < steps; i++) {
    log.push(i);
    yield i;
  }
  return `done after ${steps}`;
}

describe('runSync / runAsync', () => {
  it('runSync drives a generator to its return value', () => {
    const log: number[] = [];
    expect(runSync(counting(5, log))).toBe('done after 5');
    expect(log).toEqual([0, 1, 2, 3, 4]);
  });

  it('runAsync gives the same result and checks shouldStop before every step', async () => {
    const log: number[] = [];
    let checks = 0;
    expect(await runAsync(counting(4, log), () => void checks++)).toBe('done after 4');
    expect(log).toEqual([0, 1, 2, 3]);
    expect(checks).toBe(5);
  });

  it('runAsync stops with what shouldStop throws', async () => {
    const log: number[] = [];
    const stop = () => {
      if (log.length === 2) throw new Error('stopped');
    };
    await expect(runAsync(counting(10, log), stop)).rejects.toThrow('stopped');
    expect(log).toEqual([0, 1]);
  });

  it(`runAsync returns to the event loop once ${YIELD_INTERVAL_MS} ms have passed`, async () => {
    let steps = 0;
    let stepsWhenTimerRan = -1;
    setTimeout(() => (stepsWhenTimerRan = steps), 0);
    function* slow(): Generator<void, number, void> {
      for (let i = 0; i < 3; i++) {
        const until = Date.now() + YIELD_INTERVAL_MS + 10;
        while (Date.now() < until) {
          // Busy: synchronous work that a cancel message could not interrupt.
        }
        steps++;
        yield;
      }
      return 7;
    }
    expect(await runAsync(slow())).toBe(7);
    // The queued macrotask got its turn after the first long step, not only at the end.
    expect(stepsWhenTimerRan).toBe(1);
  });

  it('runAsync does not return to the event loop while steps are quick', async () => {
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const result = await runAsync(counting(100, []));
    expect(result).toBe('done after 100');
    expect(timerRan).toBe(false);
  });

  it('yieldToEventLoop resolves after already queued macrotasks', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    await yieldToEventLoop();
    order.push('after yield');
    expect(order).toEqual(['timer', 'after yield']);
  });
});

describe('Awaiting steps', () => {
  function* waits(log: string[]): Generator<Awaiting | void, number, unknown> {
    try {
      const a = (yield new Awaiting(Promise.resolve(20))) as number;
      yield;
      const b = (yield new Awaiting(new Promise((r) => setTimeout(() => r(22), 5)))) as number;
      return a + b;
    } finally {
      log.push('closed');
    }
  }

  it('runAsync hands each awaited value back to the generator', async () => {
    const log: string[] = [];
    expect(await runAsync(waits(log))).toBe(42);
    expect(log).toEqual(['closed']);
  });

  it('runAsync closes the generator (its finally runs) and rethrows when the wait rejects', async () => {
    const log: string[] = [];
    function* failing(): Generator<Awaiting, number, unknown> {
      try {
        yield new Awaiting(Promise.reject(new Error('worker failed')));
        return 1;
      } finally {
        log.push('closed');
      }
    }
    await expect(runAsync(failing())).rejects.toThrow('worker failed');
    expect(log).toEqual(['closed']);
  });

  it('runSync refuses a generator that waits', () => {
    expect(() => runSync(waits([]))).toThrow(/runAsync/);
  });
});
