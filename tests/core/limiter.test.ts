import { describe, expect, it } from 'vitest';
import { Limiter } from '../../src/core/limiter';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Limiter', () => {
  it('never runs more than max tasks and serves waiters in arrival order', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const gates: (() => void)[] = [];
    const tasks = Array.from({ length: 6 }, (_, i) =>
      limiter.run(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
        return i * 10;
      }),
    );
    for (let i = 0; i < 6; i++) {
      await tick();
      expect(limiter.active).toBeLessThanOrEqual(2);
      gates.shift()?.();
    }
    while (gates.length) gates.shift()!();
    expect(await Promise.all(tasks)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limiter.active).toBe(0);
  });

  it('releases the slot when a task throws', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });

  it('drops an aborted waiter from the queue with an AbortError', async () => {
    const limiter = new Limiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const after = limiter.acquire();
    expect(limiter.pending).toBe(2);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(limiter.pending).toBe(1);
    release();
    const releaseAfter = await after;
    expect(limiter.active).toBe(1);
    releaseAfter();
    releaseAfter(); // a second call must not free a slot twice
    expect(limiter.active).toBe(0);
  });

  it('serves a waiter marked first before every other waiter, in arrival order among such waiters', async () => {
    const limiter = new Limiter(1);
    const order: string[] = [];
    const release = await limiter.acquire();
    const wait = (name: string, first = false) =>
      limiter.run(async () => void order.push(name), undefined, { first });
    const all = [wait('s1'), wait('s2'), wait('q1', true), wait('s3'), wait('q2', true)];
    release();
    await Promise.all(all);
    expect(order).toEqual(['q1', 'q2', 's1', 's2', 's3']);
  });

  it('admits waiters at once when max is raised', async () => {
    const limiter = new Limiter(1);
    await limiter.acquire();
    const second = limiter.acquire();
    limiter.max = 2;
    await second;
    expect(limiter.active).toBe(2);
  });
});
