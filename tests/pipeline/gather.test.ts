import { describe, expect, it } from 'vitest';
import { gather } from '../../src/pipeline/gather';

/** A batch function that records its batches and answers each item doubled after a macrotask. */
function recording() {
  const batches: number[][] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise((r) => setTimeout(r, 1));
    return items.map((n) => n * 2);
  };
  return { batches, run };
}

describe('gather', () => {
  it('runs the calls of one turn together, and the calls made while a batch runs as the next batch', async () => {
    const { batches, run } = recording();
    const one = gather(run);
    const first = [1, 2, 3].map(one);
    await Promise.resolve();
    await Promise.resolve();
    // The first batch has started: these wait for it and then go together.
    const second = [4, 5].map(one);
    expect(await Promise.all([...first, ...second])).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // Quiet again: a new call starts a batch of its own.
    expect(await one(6)).toBe(12);
    expect(batches).toHaveLength(3);
  });

  it('rejects the calls of a failed batch only, and calls a wrong number of results an error', async () => {
    let fail = true;
    const one = gather(async (items: string[]) => {
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      return items.length === 2 ? ['only one'] : items.map((s) => s.toUpperCase());
    });
    const failed = Promise.allSettled([one('a'), one('b')]);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(Promise.all([one('c'), one('d')])).rejects.toBeInstanceOf(RangeError);
    expect(await one('e')).toBe('E');
  });
});
