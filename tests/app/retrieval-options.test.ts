import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultRetrievalSettings, retrieveOptionsFor } from '../../src/app/state/retrieval-options';
import type { RetrievalSettings } from '../../src/app/state/types';
import { DEFAULT_SEARCH, retrieve } from '../../src/core/search';
import { parseTree } from '../../src/core/tree-format';

/** Every field a different number, so a field read for the wrong mode or option shows. */
const DISTINCT: RetrievalSettings = {
  mode: 'traversal',
  collapsedMaxTokens: 1111,
  traversalTopK: 3,
  traversalStartLayer: 2,
  traversalLayers: 2,
  traversalMaxTokens: 999,
  leavesMaxTokens: 777,
  search: 'keywords',
  rerank: true,
  distinct: false,
};

describe('retrieveOptionsFor (Ask panel settings → retrieve options)', () => {
  it('gives each mode its own fields and nothing else', () => {
    expect(retrieveOptionsFor('collapsed', DISTINCT)).toEqual({ mode: 'collapsed', maxTokens: 1111 });
    expect(retrieveOptionsFor('leaves', DISTINCT)).toEqual({ mode: 'leaves', maxTokens: 777 });
    expect(retrieveOptionsFor('traversal', DISTINCT)).toEqual({
      mode: 'traversal',
      topK: 3,
      startLayer: 2,
      numLayers: 2,
      maxTokens: 999,
    });
  });

  it('with the question’s text, adds its search setting and distinct; without it, meaning alone', () => {
    expect(retrieveOptionsFor('collapsed', DISTINCT, 'Who?')).toEqual({
      mode: 'collapsed',
      maxTokens: 1111,
      text: 'Who?',
      search: 'keywords',
      distinct: false,
    });
    expect(retrieveOptionsFor('traversal', DISTINCT, 'Who?')).toMatchObject({ topK: 3, search: 'keywords' });
  });

  it('ignores the panel mode: the mode asked for decides (Compare runs all three)', () => {
    const asCollapsed = { ...DISTINCT, mode: 'collapsed' as const };
    expect(retrieveOptionsFor('leaves', asCollapsed)).toEqual(retrieveOptionsFor('leaves', DISTINCT));
  });
});

describe('defaultRetrievalSettings', () => {
  it('are the paper’s: collapsed tree with 2,000 tokens, top-5 traversal from the top layer to the leaves', () => {
    expect(defaultRetrievalSettings(3)).toEqual({
      mode: 'collapsed',
      collapsedMaxTokens: 2000,
      traversalTopK: 5,
      traversalStartLayer: 3,
      traversalLayers: 4,
      traversalMaxTokens: 2000,
      leavesMaxTokens: 2000,
      search: DEFAULT_SEARCH,
      rerank: false,
      distinct: true,
    });
    expect(defaultRetrievalSettings(0)).toMatchObject({ traversalStartLayer: 0, traversalLayers: 1 });
  });

  // The official TreeRetriever's selections (tests/fixtures/official-retrieval-cases.json, written by
  // scripts/reference/official_retrieval.py): "collapsed-2000" is retrieve(top_k=all, max_tokens=2000) and
  // "traversal-default" its traversal defaults (top_k=5 from the top layer down to the leaves).
  it('select what the official TreeRetriever selects with the paper’s settings', () => {
    const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
    const tree = parseTree(fixture('official-cinderella-tree.json'));
    const cases = JSON.parse(fixture('official-retrieval-cases.json')) as {
      queries: { kind: string; vector?: number[]; results: Record<string, { ids: number[] }> }[];
    };
    const maxLayer = Math.max(...tree.nodes.map((n) => n.layer));
    const settings = defaultRetrievalSettings(maxLayer);
    const queries = cases.queries.filter((q) => q.vector);
    expect(queries.length).toBeGreaterThanOrEqual(5);
    for (const query of queries) {
      const vector = Float32Array.from(query.vector!);
      const ids = (mode: 'collapsed' | 'traversal', text?: string) =>
        retrieve(tree, vector, retrieveOptionsFor(mode, settings, text)).nodes.map((n) => n.id);
      expect(ids('collapsed')).toEqual(query.results['collapsed-2000'].ids);
      expect(ids('traversal')).toEqual(query.results['traversal-default'].ids);
      // A question searched by meaning (the panel's "Meaning") selects the same.
      const byMeaning = { ...settings, search: 'meaning' as const };
      const asked = (mode: 'collapsed' | 'traversal') =>
        retrieve(tree, vector, retrieveOptionsFor(mode, byMeaning, 'Who helped Cinderella?')).nodes.map(
          (n) => n.id,
        );
      expect(asked('collapsed')).toEqual(query.results['collapsed-2000'].ids);
      expect(asked('traversal')).toEqual(query.results['traversal-default'].ids);
    }
  });
});
