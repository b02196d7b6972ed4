import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from '../../src/core/pool';

/** A task whose calls can be released one by one; records starts and the most running at once. */
function gatedTask() {
  const started: number[] = [];
  const release = new Map<number, (value: string) => void>();
  const fail = new Map<number, (error: Error) => void>();
  let running = 0;
  let peak = 0;
  const task = (i: number) =>
    new Promise<string>((resolve, reject) => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      release.set(i, (v) => {
        running--;
        resolve(v);
      });
      fail.set(i, (e) => {
        running--;
        reject(e);
      });
    });
  return { task, started, release, fail, peak: () => peak };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('mapWithConcurrency', () => {
  it('keeps at most `concurrency` tasks in flight and results in index order', async () => {
    const g = gatedTask();
    const all = mapWithConcurrency(5, 2, g.task);
    await tick();
    expect(g.started).toEqual([0, 1]);
    g.release.get(1)!('b');
    await tick();
    expect(g.started).toEqual([0, 1, 2]);
    g.release.get(0)!('a');
    g.release.get(2)!('c');
    await tick();
    g.release.get(3)!('d');
    g.release.get(4)!('e');
    expect(await all).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(g.peak()).toBe(2);
  });

  it('runs one at a time for concurrency 1, 0, NaN or a fraction below 1', async () => {
    for (const concurrency of [1, 0, NaN, 0.5]) {
      let running = 0;
      let peak = 0;
      const out = await mapWithConcurrency(4, concurrency, async (i) => {
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        return i * 10;
      });
      expect(out).toEqual([0, 10, 20, 30]);
      expect(peak).toBe(1);
    }
  });

  it('never starts more lanes than tasks, and resolves at once with no tasks', async () => {
    const g = gatedTask();
    const all = mapWithConcurrency(2, 8, g.task);
    await tick();
    expect(g.started).toEqual([0, 1]);
    g.release.get(0)!('x');
    g.release.get(1)!('y');
    expect(await all).toEqual(['x', 'y']);
    expect(await mapWithConcurrency(0, 3, g.task)).toEqual([]);
  });

  it('rejects with the first failure and starts no new task after it', async () => {
    const g = gatedTask();
    const all = mapWithConcurrency(6, 2, g.task);
    await tick();
    g.fail.get(0)!(new Error('endpoint down'));
    await expect(all).rejects.toThrow('endpoint down');
    g.release.get(1)!('late');
    await tick();
    expect(g.started).toEqual([0, 1]);
  });

  it('stops with an AbortError before the next task once the signal fires', async () => {
    const signal = { aborted: false };
    const started: number[] = [];
    const all = mapWithConcurrency(
      4,
      1,
      async (i) => {
        started.push(i);
        if (i === 1) signal.aborted = true;
        return i;
      },
      signal,
    );
    await expect(all).rejects.toMatchObject({ name: 'AbortError' });
    expect(started).toEqual([0, 1]);
    await expect(mapWithConcurrency(0, 1, async () => 1, { aborted: true })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
