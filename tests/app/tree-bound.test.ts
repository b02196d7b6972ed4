/**
 * View state that belongs to one tree (src/app/state/useTreeBound.ts): a value made for one tree is never read
 * for another, in the first render that shows the other, and a late write made for the previous tree (a timer,
 * a promise) stays with that tree.
 */
import { describe, expect, it } from 'vitest';
import { boundUpdate, boundValue, type Bound } from '../../src/app/state/useTreeBound';

const novel = { nodes: 1369 };
const sample = { nodes: 40 };
const NO_PATH: readonly number[] = [];

describe('tree-bound view state', () => {
  it('reads its own value for its tree, and the initial value for any other', () => {
    const state: Bound<readonly number[]> = { owner: novel, value: [1368, 1360, 1301] };
    expect(boundValue(state, novel, NO_PATH)).toEqual([1368, 1360, 1301]);
    expect(boundValue(state, sample, NO_PATH)).toBe(NO_PATH);
  });

  it('updates from the value of the tree it is made for', () => {
    const open: Bound<ReadonlySet<number>> = { owner: novel, value: new Set([1368, 1360]) };
    const add = (s: ReadonlySet<number>) => new Set([...s, 7]);
    // For the tree shown: from its branches. For another tree: from none (the novel's ids never carry over).
    expect([...boundUpdate(open, novel, new Set(), add).value]).toEqual([1368, 1360, 7]);
    const other = boundUpdate(open, sample, new Set<number>(), add);
    expect(other.owner).toBe(sample);
    expect([...other.value]).toEqual([7]);
  });

  it('keeps a late write made for the previous tree away from the one now shown', () => {
    // The novel's zoom settles after the sample opened: written for the novel, it is not read for the sample.
    const shown: Bound<readonly number[]> = { owner: sample, value: [] };
    const late = boundUpdate(shown, novel, NO_PATH, [1368, 1360]);
    expect(boundValue(late, sample, NO_PATH)).toBe(NO_PATH);
  });
});
