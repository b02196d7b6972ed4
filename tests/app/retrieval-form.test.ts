import { describe, expect, it } from 'vitest';
import {
  countByLayer,
  fieldError,
  layerCountsText,
  layerLabel,
  MODE_FIELDS,
  settingsErrors,
  withField,
} from '../../src/app/ask/retrieval-form';
import type { RetrievalSettings } from '../../src/app/state/types';

const SETTINGS: RetrievalSettings = {
  mode: 'collapsed',
  collapsedMaxTokens: 2000,
  traversalTopK: 5,
  traversalStartLayer: 3,
  traversalLayers: 4,
  traversalMaxTokens: 2000,
  leavesMaxTokens: 2000,
  search: 'both',
  rerank: false,
  distinct: true,
};
const MAX_LAYER = 3;

describe('retrieval option fields', () => {
  it('scopes the three "Max tokens" fields by mode and keeps the short visible label', () => {
    const names = Object.values(MODE_FIELDS).flatMap((specs) => specs.map((s) => s.name));
    expect(new Set(names).size).toBe(names.length);
    expect(MODE_FIELDS.collapsed[0]).toMatchObject({
      label: 'Max tokens',
      name: 'Collapsed tree max tokens',
    });
    expect(MODE_FIELDS.leaves[0]).toMatchObject({ label: 'Max tokens', name: 'Leaves only max tokens' });
    expect(MODE_FIELDS.traversal.map((s) => s.label)).toEqual([
      'Top-k',
      'Start layer',
      'Layers',
      'Max tokens',
    ]);
    expect(MODE_FIELDS.traversal[3]).toMatchObject({ name: 'Tree traversal max tokens' });
  });

  it('accepts whole numbers in range and explains everything else', () => {
    expect(fieldError('collapsedMaxTokens', '1', SETTINGS, MAX_LAYER)).toBeUndefined();
    expect(fieldError('collapsedMaxTokens', ' 3000 ', SETTINGS, MAX_LAYER)).toBeUndefined();
    expect(fieldError('collapsedMaxTokens', '', SETTINGS, MAX_LAYER)).toBe('Enter a number.');
    expect(fieldError('leavesMaxTokens', '1.5', SETTINGS, MAX_LAYER)).toBe('Enter a whole number.');
    expect(fieldError('leavesMaxTokens', '0', SETTINGS, MAX_LAYER)).toBe('At least 1 token.');
    expect(fieldError('traversalTopK', '-2', SETTINGS, MAX_LAYER)).toBe('At least 1 node per layer.');
  });

  it('bounds the start layer by the open tree', () => {
    expect(fieldError('traversalStartLayer', '0', SETTINGS, MAX_LAYER)).toBeUndefined();
    expect(fieldError('traversalStartLayer', '3', SETTINGS, MAX_LAYER)).toBeUndefined();
    expect(fieldError('traversalStartLayer', '4', SETTINGS, MAX_LAYER)).toBe(
      'Between 0 (the leaves) and 3 (the top layer).',
    );
    expect(fieldError('traversalStartLayer', '1', SETTINGS, 0)).toBe(
      'This tree has only leaves: the start layer is 0.',
    );
  });

  it('bounds the layers visited by the start layer', () => {
    const fromTwo = { ...SETTINGS, traversalStartLayer: 2, traversalLayers: 3 };
    expect(fieldError('traversalLayers', '3', fromTwo, MAX_LAYER)).toBeUndefined();
    expect(fieldError('traversalLayers', '4', fromTwo, MAX_LAYER)).toBe(
      'Between 1 and 3 (from layer 2 down to the leaves).',
    );
    expect(fieldError('traversalLayers', '0', fromTwo, MAX_LAYER)).toBeDefined();
    const fromLeaves = { ...SETTINGS, traversalStartLayer: 0, traversalLayers: 1 };
    expect(fieldError('traversalLayers', '2', fromLeaves, MAX_LAYER)).toBe(
      'Starting at the leaves, only 1 layer can be visited.',
    );
  });

  it('lists the stored settings that do not fit the open tree, per mode', () => {
    expect(settingsErrors(SETTINGS, MAX_LAYER)).toEqual([]);
    const errors = settingsErrors(SETTINGS, 1);
    expect(errors.map((e) => [e.mode, e.spec.field])).toEqual([['traversal', 'traversalStartLayer']]);
  });

  it('keeps a traversal that reached the leaves reaching them when the start layer moves', () => {
    expect(withField(SETTINGS, 'traversalStartLayer', 1)).toMatchObject({
      traversalStartLayer: 1,
      traversalLayers: 2,
    });
    const fromOne = { ...SETTINGS, traversalStartLayer: 1, traversalLayers: 2 };
    expect(withField(fromOne, 'traversalStartLayer', 3).traversalLayers).toBe(4);
  });

  it('keeps a shallower traversal shallow, cut only where the new start layer requires', () => {
    const shallow = { ...SETTINGS, traversalStartLayer: 3, traversalLayers: 2 };
    expect(withField(shallow, 'traversalStartLayer', 2).traversalLayers).toBe(2);
    expect(withField(shallow, 'traversalStartLayer', 0).traversalLayers).toBe(1);
  });

  it('changes only the field given otherwise', () => {
    expect(withField(SETTINGS, 'leavesMaxTokens', 500)).toEqual({ ...SETTINGS, leavesMaxTokens: 500 });
  });
});

describe('layer words', () => {
  it('names leaves and summaries', () => {
    expect(layerLabel(0)).toBe('Leaf');
    expect(layerLabel(2)).toBe('Layer 2 summary');
  });

  it('counts passages per layer, lowest first', () => {
    const passages = [{ layer: 2 }, { layer: 0 }, { layer: 1 }, { layer: 0 }, { layer: 1 }, { layer: 0 }];
    expect(countByLayer(passages)).toEqual([
      { layer: 0, count: 3 },
      { layer: 1, count: 2 },
      { layer: 2, count: 1 },
    ]);
    expect(layerCountsText(passages)).toBe('3 leaves · 2 layer-1 summaries · 1 layer-2 summary');
    expect(layerCountsText([{ layer: 0 }])).toBe('1 leaf');
    expect(layerCountsText([])).toBe('No passages');
  });
});
