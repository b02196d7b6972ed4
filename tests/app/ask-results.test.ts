/**
 * The Ask panel shows results only on the tree they were made from (useAsk.ts `resultsFitTree`): a build that
 * finishes while a question's results are on screen opens its new tree, whose nodes those ids do not name
 * (found by the offline e2e journey: the page went blank on the new, smaller tree).
 */
import { describe, expect, it } from 'vitest';
import { resultsFitTree } from '../../src/app/state/useAsk';
import type { AskResults } from '../../src/app/state/types';
import { treeOf } from '../support/tree-of';

const node = (id: number, text: string) => ({
  id,
  layer: 0,
  text,
  tokens: 2,
  children: [],
  embedding: new Float32Array([1, 0]),
});

const big = treeOf([node(0, 'a b'), node(1, 'c d'), node(2, 'e f'), node(3, 'g h')]);
const small = treeOf([node(0, 'other text')]);

function resultsOn(ids: number[], tree: typeof big): AskResults {
  const passages = ids.map((id) => ({ id, layer: 0, score: 1, tokens: 2, text: tree.nodes[id].text }));
  return { question: 'q', results: { collapsed: { mode: 'collapsed', passages, tokens: 2 * ids.length } } };
}

describe('resultsFitTree', () => {
  it('shows results on the tree they came from', () => {
    expect(resultsFitTree(resultsOn([0, 3], big), big)).toBe(true);
    expect(resultsFitTree({ question: 'q', results: {} }, big)).toBe(true);
  });

  it('hides them on another tree: ids it does not have, or ids it has with other texts, and with no tree', () => {
    expect(resultsFitTree(resultsOn([0, 3], big), small)).toBe(false);
    expect(resultsFitTree(resultsOn([0], big), small)).toBe(false);
    expect(resultsFitTree(resultsOn([0], big), undefined)).toBe(false);
  });
});
