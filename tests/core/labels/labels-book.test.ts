/**
 * Topic labels on a whole novel: Pride and Prejudice (151k tokens) as the app builds it without an LLM —
 * `buildTree` with the paper's defaults, the offline GloVe model and extractive summaries. The tree's shape
 * (each summary's children) comes from tests/fixtures/books/pride-and-prejudice.tree-shape.json, written by
 * scripts/fixtures/make-book-tree.ts (the build takes ~35 s here, so it runs once, not in every test run); the
 * leaves are the book's chunks, cut again here exactly as the build cuts them. The labels of the top two
 * layers must name the book's main people, with their capitals, and its estates and towns; and every label
 * must say what sets its node apart: no word of its parent's label, no word a sibling's label has.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkText, NAME_TITLES, STOP_WORDS } from '../../../src/core/text';
import {
  computeLabels,
  MAX_LABEL_TERMS,
  MIN_LABEL_TERMS,
  type LabelNode,
} from '../../../src/core/labels/labels';
import { DEFAULT_BUILD_PARAMS } from '../../../src/core/types';

interface BookTreeShape {
  leaves: number;
  summaries: { layer: number; children: number[] }[];
}

const book = readFileSync(new URL('../../fixtures/books/pride-and-prejudice.txt', import.meta.url), 'utf8');
const shape = JSON.parse(
  readFileSync(new URL('../../fixtures/books/pride-and-prejudice.tree-shape.json', import.meta.url), 'utf8'),
) as BookTreeShape;

/** The novel's main people; a label term names one when it contains the name ("Mr. Collins"). */
const PEOPLE = [
  'Elizabeth',
  'Darcy',
  'Bennet',
  'Jane',
  'Bingley',
  'Wickham',
  'Lydia',
  'Collins',
  'Lady Catherine',
  'Gardiner',
  'Kitty',
  'Charlotte',
  'Lizzy',
];
/** Its places, from the estates to the towns the story moves through. */
const PLACES = [
  'Longbourn',
  'Netherfield',
  'Pemberley',
  'Rosings',
  'Meryton',
  'Hunsford',
  'Lambton',
  'London',
  'Brighton',
  'Derbyshire',
  'Hertfordshire',
  'Kent',
  'Clapham',
];
/** At least this many of PEOPLE appear in the top two layers' labels. */
const MIN_PEOPLE = 9;
/** Share of child labels that may repeat a word of their parent's (the small-cluster fallback). */
const MAX_PARENT_REPEAT_SHARE = 0.02;
/** The places the story turns on: the Bennets', Bingley's, Darcy's and Lady Catherine's houses, the town. */
const MAIN_PLACES = ['Longbourn', 'Netherfield', 'Pemberley', 'Rosings', 'Meryton'];

/** A name's title ("Mr.", "Lady"): not a word of its own. */
function titled(word: string): boolean {
  return NAME_TITLES.has(word.toLowerCase());
}

function nodesOfBook(): LabelNode[] {
  const chunks = chunkText(book, { maxTokens: DEFAULT_BUILD_PARAMS.chunkTokens });
  const nodes: LabelNode[] = chunks.map((c, id) => ({ id, layer: 0, text: c.text, children: [] }));
  for (const s of shape.summaries)
    nodes.push({ id: nodes.length, layer: s.layer, text: '', children: s.children });
  return nodes;
}

describe('topic labels of Pride and Prejudice (GloVe, extractive, paper defaults)', () => {
  const nodes = nodesOfBook();
  const labels = computeLabels(nodes);
  const top = Math.max(...nodes.map((n) => n.layer));
  const topTwo = nodes.filter((n) => n.layer >= top - 1).flatMap((n) => labels[n.id]!);

  it('recuts the same leaves the build made', () => {
    expect(nodes.filter((n) => n.layer === 0)).toHaveLength(shape.leaves);
    expect(top).toBeGreaterThanOrEqual(2);
  });

  it('labels every summary with 2–4 terms, no word of them a stop-word (but a name’s title)', () => {
    for (const node of nodes.filter((n) => n.layer > 0)) {
      const label = labels[node.id]!;
      expect(label.length).toBeGreaterThanOrEqual(MIN_LABEL_TERMS);
      expect(label.length).toBeLessThanOrEqual(MAX_LABEL_TERMS);
      for (const term of label)
        for (const word of term.split(/[ .]+/)) {
          const lower = word.toLowerCase();
          expect(STOP_WORDS.has(lower) && !NAME_TITLES.has(lower), term).toBe(false);
        }
    }
  });

  it(`the top two layers name at least ${MIN_PEOPLE} of the main people, in capitals, and the main places`, () => {
    const named = PEOPLE.filter((person) => topTwo.some((term) => term.includes(person)));
    expect(named.length, `named: ${named.join(', ')}`).toBeGreaterThanOrEqual(MIN_PEOPLE);
    for (const person of ['Elizabeth', 'Darcy', 'Bennet', 'Jane', 'Bingley', 'Wickham'])
      expect(named).toContain(person);
    expect(PLACES.filter((place) => topTwo.some((term) => term.includes(place)))).toEqual(
      expect.arrayContaining(MAIN_PLACES),
    );
    // Names keep their capitals: no label anywhere spells a person in lower case.
    const all = labels.flatMap((l) => l ?? []);
    for (const person of PEOPLE) expect(all).not.toContain(person.toLowerCase());
  });

  it('the root layer names the heroine and the hero, and each root label opens with its own term', () => {
    const roots = nodes.filter((n) => n.layer === top).map((n) => labels[n.id]!);
    expect(roots.flat()).toEqual(expect.arrayContaining(['Elizabeth', 'Darcy']));
    expect(new Set(roots.map((label) => label[0])).size).toBe(roots.length);
  });

  it('labels seldom repeat a word of their parent’s, and siblings’ labels share no word', () => {
    const words = (id: number) => labels[id]!.flatMap((t) => t.split(/[ .]+/)).filter((w) => !titled(w));
    const groups = [nodes.filter((n) => n.layer === top).map((n) => n.id)];
    const repeats: number[] = [];
    let children = 0;
    for (const parent of nodes.filter((n) => n.layer > 1)) {
      groups.push(parent.children);
      for (const child of parent.children) {
        children++;
        if (words(child).some((word) => words(parent.id).includes(word))) repeats.push(child);
      }
    }
    // A small cluster left with fewer than MIN_LABEL_TERMS new terms takes its best terms regardless of its
    // parent (labels.ts): a few such labels, never many.
    expect(repeats.length, `repeating: ${repeats.join(', ')}`).toBeLessThanOrEqual(
      Math.floor(children * MAX_PARENT_REPEAT_SHARE),
    );
    for (const group of groups) {
      const all = group.flatMap(words);
      expect(new Set(all).size, `siblings ${group.join(', ')}`).toBe(all.length);
    }
  });
});
