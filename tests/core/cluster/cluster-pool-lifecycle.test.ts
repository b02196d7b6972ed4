/**
 * The worker pool itself (no clustering): how many workers it starts, how many tasks run at once, what closing
 * does. Its clustering behaviour is in cluster-pool.test.ts (slow: left out of the mutation run) and
 * cluster-small.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { LocalClusterTask } from '../../../src/core/cluster/cluster';
import { createClusterPool } from '../../../src/core/cluster/cluster-pool';

describe('createClusterPool', () => {
  it('runs at most `size` tasks at once, starts workers lazily and closes them', async () => {
    const terminated: number[] = [];
    let started = 0;
    let running = 0;
    let most = 0;
    const pool = createClusterPool(2, () => {
      const id = started++;
      return {
        async run() {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          return { labels: [[id]], k: 1 };
        },
        terminate: () => terminated.push(id),
      };
    });
    expect(started).toBe(0);
    const task = { n: 1 } as LocalClusterTask;
    await Promise.all(Array.from({ length: 5 }, () => pool.run(task)));
    expect(started).toBe(2);
    expect(most).toBe(2);
    pool.close();
    expect(terminated.sort()).toEqual([0, 1]);
    await pool.run(task);
    expect(started).toBe(3);
  });

  it('clamps its size to a whole number ≥ 1', () => {
    const start = () => ({ run: async () => ({ labels: [], k: 1 }), terminate() {} });
    expect(createClusterPool(3, start).size).toBe(3);
    expect(createClusterPool(2.9, start).size).toBe(2);
    expect(createClusterPool(0, start).size).toBe(1);
    expect(createClusterPool(-4, start).size).toBe(1);
    expect(createClusterPool(NaN, start).size).toBe(1);
  });

  it('hands a freed worker to the task waiting longest, and passes on results and errors', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pool = createClusterPool(1, () => ({
      async run(task: LocalClusterTask) {
        order.push(`start ${task.n}`);
        if (task.n === 1) await gate;
        if (task.n === 3) throw new Error('worker failed');
        return { labels: [[task.n]], k: task.n };
      },
      terminate() {},
    }));
    const results = [1, 2, 3, 4].map((n) => pool.run({ n } as LocalClusterTask));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['start 1']);
    release();
    expect(await results[0]).toEqual({ labels: [[1]], k: 1 });
    expect(await results[1]).toEqual({ labels: [[2]], k: 2 });
    await expect(results[2]).rejects.toThrow('worker failed');
    expect(await results[3]).toEqual({ labels: [[4]], k: 4 });
    expect(order).toEqual(['start 1', 'start 2', 'start 3', 'start 4']);
  });

  it('does not reuse a worker closed while it ran', async () => {
    const terminated: number[] = [];
    let started = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pool = createClusterPool(1, () => {
      const id = started++;
      return {
        async run() {
          if (id === 0) await gate;
          return { labels: [[id]], k: 1 };
        },
        terminate: () => terminated.push(id),
      };
    });
    const first = pool.run({ n: 1 } as LocalClusterTask);
    await new Promise((r) => setTimeout(r, 1));
    pool.close();
    expect(terminated).toEqual([0]);
    release();
    expect(await first).toEqual({ labels: [[0]], k: 1 });
    // The closed worker is not handed out again: a new one starts.
    expect(await pool.run({ n: 1 } as LocalClusterTask)).toEqual({ labels: [[1]], k: 1 });
    expect(started).toBe(2);
  });
});
