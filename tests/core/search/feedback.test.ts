/**
 * Feedback from the book (src/core/search/feedback.ts, and its use in passages.ts): the rarer words the best
 * sentences share join the question at a low weight, so a sentence that names the scene but not the question's
 * words is read before one that names neither. The whole-book figures are `npm run bench retrieval`'s
 * (docs/retrieval.md, fourth round).
 */
import { describe, expect, it } from 'vitest';
import {
  FEEDBACK_SENTENCES,
  FEEDBACK_TERMS,
  FEEDBACK_WEIGHT,
  withFeedback,
} from '../../../src/core/search/feedback';
import { retrieve } from '../../../src/core/search/retrieve';
import { countTokens } from '../../../src/core/text';
import type { TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

/** Inverse frequencies: "laban" and "rachel" rare, "said" common (held by more than 5% of the nodes). */
const IDF: Record<string, number> = { laban: 4, rachel: 3.5, said: 1, jacob: 4 };
const termWeight = (term: string) => IDF[term] ?? 0;

describe('feedback from the best sentences', () => {
  it('adds the rare words the best sentences hold, at a low weight, and never the asked or common ones', () => {
    const asked = new Map([['jacob', 4]]);
    const expanded = withFeedback(
      asked,
      [
        { terms: ['jacob', 'serv', 'laban', 'said'], score: 2 },
        { terms: ['rachel', 'laban'], score: 1 },
      ],
      termWeight,
    );
    expect(expanded.get('jacob')).toBe(4);
    expect(expanded.get('laban')).toBeCloseTo(FEEDBACK_WEIGHT * 4);
    expect(expanded.get('rachel')).toBeCloseTo(FEEDBACK_WEIGHT * 3.5);
    // "said" is too common, "serv" is held by no node of the index.
    expect(expanded.has('said')).toBe(false);
    expect(expanded.has('serv')).toBe(false);
    // The question's own map is left as it was.
    expect([...asked]).toEqual([['jacob', 4]]);
  });

  it('adds at most FEEDBACK_TERMS terms, from the first FEEDBACK_SENTENCES sentences that score', () => {
    const rare = (term: string) => (term.startsWith('w') ? 5 : 0);
    const words = Array.from({ length: FEEDBACK_TERMS + 3 }, (_, i) => `w${i}`);
    const expanded = withFeedback(new Map(), [{ terms: words, score: 1 }], rare);
    expect(expanded.size).toBe(FEEDBACK_TERMS);
    // Equal gains go by the term, so the same question always gets the same words.
    expect([...expanded.keys()]).toEqual(words.slice().sort().slice(0, FEEDBACK_TERMS));
    const late = Array.from({ length: FEEDBACK_SENTENCES }, () => ({ terms: ['w0'], score: 1 }));
    const ignored = withFeedback(new Map(), [...late, { terms: ['w9'], score: 1 }], rare);
    expect([...ignored.keys()]).toEqual(['w0']);
  });

  it('changes nothing when no sentence holds a word of the question', () => {
    const asked = new Map([['jacob', 4]]);
    expect(withFeedback(asked, [{ terms: ['laban'], score: 0 }], termWeight)).toBe(asked);
    expect(withFeedback(asked, [], termWeight)).toBe(asked);
  });

  it('reads the sentence that names the scene before one that only resembles the question', () => {
    // Sixty unrelated leaves make "laban" rare; the shepherd's leaf is nearer the question by meaning, so
    // without feedback its sentence (no word of the question either) would be read first.
    const texts = [
      'Jacob served Laban seven years for Rachel.',
      'Laban deceived him at the wedding feast.',
      'The shepherd deceived him at the market.',
      ...Array.from({ length: 60 }, (_, i) => `Rivers ran north through valley ${i + 1}.`),
    ];
    const degrees = [0, 60, 1, ...texts.slice(3).map(() => 90)];
    const nodes: TreeNode[] = texts.map((text, id) => ({
      id,
      layer: 0,
      text,
      tokens: countTokens(text),
      children: [],
      embedding: Float32Array.of(
        Math.cos((degrees[id] * Math.PI) / 180),
        Math.sin((degrees[id] * Math.PI) / 180),
      ),
    }));
    const budget = countTokens(texts[0]) + countTokens(texts[1]) + 1;
    const { context } = retrieve(treeOf(nodes), Float32Array.of(1, 0), {
      mode: 'leaves',
      text: 'Whom did Jacob serve?',
      maxTokens: budget,
    });
    expect(context).toContain('Jacob served Laban');
    expect(context).toContain('Laban deceived him');
    expect(context).not.toContain('shepherd');
  });
});
