/** Topic labels quoted outside the tree (src/app/tree/topics.ts). */
import { describe, expect, it } from 'vitest';
import { layerTopics, rootTerms } from '../../src/app/tree/topics';

const nodes = [
  { layer: 0 },
  { layer: 1, label: ['Jane', 'letter'] },
  { layer: 1, label: ['Darcy', 'Jane'] },
  { layer: 1, label: ['ball', 'Darcy', 'Jane'] },
  { layer: 2, label: ['Elizabeth', 'Darcy', 'Bennet'] },
  { layer: 2, label: ['Elizabeth', 'Jane', 'sister'] },
];

describe('rootTerms and layerTopics', () => {
  it('takes the root layer’s terms in turns, each once', () => {
    expect(rootTerms(nodes)).toEqual(['Elizabeth', 'Darcy', 'Jane', 'Bennet', 'sister']);
    expect(rootTerms([{ layer: 0 }])).toEqual([]);
  });

  it('lists per layer the terms most of its labels share', () => {
    expect(layerTopics(nodes, 2)).toEqual([[], ['Jane', 'Darcy'], ['Elizabeth', 'Darcy']]);
  });
});
