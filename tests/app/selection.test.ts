import { describe, expect, it } from 'vitest';
import {
  countByLayer,
  indexSelections,
  MIN_INTENSITY,
  scoreIntensity,
  selectedAttr,
} from '../../src/app/tree/selection';

const SELECTIONS = {
  traversal: [
    { id: 9, layer: 2, score: 0.5 },
    { id: 7, layer: 1, score: 0.6 },
    { id: 3, layer: 0, score: 0.9 },
  ],
  collapsed: [
    { id: 3, layer: 0, score: 0.9 },
    { id: 7, layer: 1, score: 0.6 },
    { id: 4, layer: 0, score: 0.4 },
  ],
  leaves: [],
};

describe('indexSelections', () => {
  it('gives each node its marks in mode order with 1-based ranks', () => {
    const index = indexSelections(SELECTIONS, 10);
    expect(index.byNode.get(3)).toEqual([
      { mode: 'collapsed', rank: 1, score: 0.9 },
      { mode: 'traversal', rank: 3, score: 0.9 },
    ]);
    expect(index.byNode.get(9)).toEqual([{ mode: 'traversal', rank: 1, score: 0.5 }]);
    expect(index.byNode.has(0)).toBe(false);
    // An empty list is no selection: the mode gets no ring segment.
    expect(index.modes).toEqual(['collapsed', 'traversal']);
    expect([index.minScore, index.maxScore]).toEqual([0.4, 0.9]);
  });

  it('ignores ids out of range and repeated ids within a mode (keeps the better rank)', () => {
    const index = indexSelections(
      {
        collapsed: [
          { id: 2, layer: 0, score: 0.3 },
          { id: 12, layer: 0, score: 0.99 },
          { id: 2, layer: 0, score: 0.3 },
        ],
      },
      5,
    );
    expect(index.byNode.get(2)).toEqual([{ mode: 'collapsed', rank: 1, score: 0.3 }]);
    expect(index.byNode.size).toBe(1);
    expect(index.maxScore).toBe(0.3);
  });

  it('is empty with no selections', () => {
    const index = indexSelections({}, 5);
    expect(index.modes).toEqual([]);
    expect(index.byNode.size).toBe(0);
    expect([index.minScore, index.maxScore]).toEqual([0, 0]);
  });
});

describe('selectedAttr', () => {
  it('lists the modes space-separated, or nothing', () => {
    const index = indexSelections(SELECTIONS, 10);
    expect(selectedAttr(index.byNode.get(3))).toBe('collapsed traversal');
    expect(selectedAttr(index.byNode.get(4))).toBe('collapsed');
    expect(selectedAttr(undefined)).toBe('');
  });
});

describe('scoreIntensity', () => {
  it('maps the lowest selected score to MIN_INTENSITY and the highest to 1, linearly', () => {
    const index = indexSelections(SELECTIONS, 10);
    expect(scoreIntensity(index, 0.4)).toBeCloseTo(MIN_INTENSITY, 12);
    expect(scoreIntensity(index, 0.9)).toBe(1);
    expect(scoreIntensity(index, 0.65)).toBeCloseTo((MIN_INTENSITY + 1) / 2, 12);
  });

  it('is full when all scores are equal or the score is not finite', () => {
    const index = indexSelections({ leaves: [{ id: 0, layer: 0, score: 0.2 }] }, 1);
    expect(scoreIntensity(index, 0.2)).toBe(1);
    expect(scoreIntensity(indexSelections(SELECTIONS, 10), Number.NaN)).toBe(1);
  });
});

describe('countByLayer', () => {
  it('counts per mode and layer using the tree’s layers, skipping unknown ids and repeats', () => {
    const layers = [0, 0, 0, 0, 0, 0, 1, 1, 1, 2];
    const counts = countByLayer(
      {
        ...SELECTIONS,
        leaves: [
          { id: 3, layer: 0, score: 1 },
          { id: 3, layer: 0, score: 1 },
          { id: 99, layer: 0, score: 1 },
        ],
      },
      (id) => layers[id],
      3,
    );
    expect(counts).toEqual([
      { mode: 'collapsed', counts: [2, 1, 0], total: 3 },
      { mode: 'traversal', counts: [1, 1, 1], total: 3 },
      { mode: 'leaves', counts: [1, 0, 0], total: 1 },
    ]);
  });

  it('leaves out modes without a list', () => {
    expect(countByLayer({ traversal: [] }, () => 0, 2)).toEqual([
      { mode: 'traversal', counts: [0, 0], total: 0 },
    ]);
  });
});
