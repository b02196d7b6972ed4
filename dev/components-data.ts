/**
 * Generated RAPTOR-shaped trees for the component harness: leaves cut from a made-up document whose topic
 * drifts, summaries over runs of 3–7 nodes with some soft (two-parent) memberships, embeddings that follow the
 * topics, and selections from the real `retrieve` for a few questions. Seeded: the same arguments give the same
 * tree, so screenshots are repeatable.
 */
import { fillMissingLabels } from '../src/core/labels';
import { retrieve } from '../src/core/search';
import { seededRandom, type RandomFn } from '../src/core/random';
import { countTokens } from '../src/core/text';
import { DEFAULT_BUILD_PARAMS, type RaptorTree, type TreeNode } from '../src/core/types';
import type { ModeSelections, RetrievalMode } from '../src/app/modes';
import type { ViewedDocument } from '../src/app/document/DocumentView';

const TOPICS: readonly (readonly string[])[] = [
  ['mill', 'river', 'wheel', 'miller', 'flour', 'stream', 'stones', 'sacks', 'bridge', 'water'],
  ['castle', 'king', 'ball', 'prince', 'guests', 'music', 'hall', 'crown', 'dancing', 'stairs'],
  ['forest', 'wolf', 'path', 'hunter', 'oak', 'cottage', 'night', 'lantern', 'owl', 'moss'],
  ['garden', 'tree', 'birds', 'grave', 'hazel', 'branch', 'doves', 'rain', 'roots', 'blossom'],
  ['kitchen', 'ashes', 'hearth', 'lentils', 'pots', 'bread', 'chores', 'broom', 'fire', 'cinders'],
  ['market', 'merchant', 'silk', 'coins', 'cart', 'horses', 'road', 'fair', 'bargain', 'journey'],
  ['slipper', 'gold', 'shoe', 'search', 'heel', 'toe', 'fit', 'bride', 'ring', 'wedding'],
  ['storm', 'ship', 'sailors', 'harbour', 'waves', 'mast', 'shore', 'wind', 'anchor', 'gulls'],
];
const VERBS = [
  'saw',
  'found',
  'carried',
  'remembered',
  'followed',
  'mended',
  'lost',
  'watched',
  'praised',
  'hid',
];
const GLUE = ['the', 'a', 'by the', 'near the', 'with the', 'beyond the', 'under the', 'after the'];
/** Shown as text, never markup: a check that nothing renders HTML from node text. */
const MARKUP_SENTENCE =
  'A note read <b>not bold</b> & <img src=x onerror="alert(1)"> <script>alert(2)</script>.';

const DIM = 16;
/** Chance that a leaf wanders off its section's topic. */
const TOPIC_NOISE = 0.12;
/** Chance that a node also joins the neighbouring cluster (soft clustering). */
const SOFT_MEMBERSHIP = 0.15;
const MIN_CLUSTER = 3;
const MAX_CLUSTER = 7;
const MAX_LAYERS = 4;
/** A layer this small is not summarised further. */
const TOP_LAYER_MAX = 4;
/** Spread of a leaf's embedding around its topic's centre (per coordinate; centres have unit length). */
const EMBEDDING_NOISE = 0.14;
/** Spread of a question's embedding around its topic's centre. */
const QUERY_NOISE = 0.3;
/** Chance that a new leaf starts a paragraph. */
const PARAGRAPH_BREAK = 0.25;
/** Characters per page of the made-up document. */
const PAGE_CHARS = 3000;
/** Length of a summary: base characters, plus this many per layer. */
const SUMMARY_CHARS = 160;
const SUMMARY_CHARS_PER_LAYER = 60;

/** A generated tree with its document and one selection per question. */
export interface HarnessData {
  tree: RaptorTree;
  documents: ViewedDocument[];
  questions: { label: string; selections: Required<ModeSelections> }[];
}

function pick<T>(random: RandomFn, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function gaussian(random: RandomFn): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

function sentence(random: RandomFn, words: readonly string[]): string {
  const subject = pick(random, words);
  const text = `The ${subject} ${pick(random, VERBS)} ${pick(random, GLUE)} ${pick(random, words)} ${pick(random, GLUE)} ${pick(random, words)}`;
  return `${text}.`;
}

function paragraph(random: RandomFn, words: readonly string[], chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const s = sentence(random, words);
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(' ');
}

/**
 * A tree over `leafCount` leaves of about `leafChars` characters each, with three questions' selections
 * (retrieve's defaults unless `budget` says otherwise). Its document is about leafCount × leafChars long.
 */
export function generateHarnessData(
  name: string,
  leafCount: number,
  leafChars: number,
  seed: number,
  budget: { maxTokens?: number; topK?: number } = {},
): HarnessData {
  const random = seededRandom(seed);
  const centres = TOPICS.map(() => normalise(Float32Array.from({ length: DIM }, () => gaussian(random))));
  const nodes: TreeNode[] = [];
  const topicOf: number[] = [];
  const docId = `${name}-doc`;
  let text = '';

  for (let i = 0; i < leafCount; i++) {
    const section = Math.floor((i * TOPICS.length) / leafCount);
    const topic = random() < TOPIC_NOISE ? Math.floor(random() * TOPICS.length) : section;
    let leafText = paragraph(random, TOPICS[topic], leafChars);
    if (i === 2) leafText = `${MARKUP_SENTENCE} ${leafText}`;
    if (i > 0) text += random() < PARAGRAPH_BREAK ? '\n\n' : ' ';
    const start = text.length;
    text += leafText;
    const embedding = normalise(
      Float32Array.from(centres[topic], (c) => c + EMBEDDING_NOISE * gaussian(random)),
    );
    nodes.push({
      id: i,
      layer: 0,
      text: leafText,
      tokens: countTokens(leafText),
      children: [],
      embedding,
      source: { doc: docId, start, end: text.length, page: 1 + Math.floor(start / PAGE_CHARS) },
    });
    topicOf.push(topic);
  }

  let previous = nodes.map((n) => n.id);
  for (let layer = 1; layer <= MAX_LAYERS && previous.length > TOP_LAYER_MAX; layer++) {
    const current: number[] = [];
    for (let from = 0; from < previous.length;) {
      const size = MIN_CLUSTER + Math.floor(random() * (MAX_CLUSTER - MIN_CLUSTER + 1));
      const members = previous.slice(from, from + size);
      from += size;
      // Soft clustering: the next node sometimes belongs here as well as to its own cluster.
      if (from < previous.length && random() < SOFT_MEMBERSHIP) members.push(previous[from]);
      const counts = new Array<number>(TOPICS.length).fill(0);
      for (const m of members) counts[topicOf[m]]++;
      const topic = counts.indexOf(Math.max(...counts));
      const summary = `Summary: ${paragraph(random, TOPICS[topic], SUMMARY_CHARS + SUMMARY_CHARS_PER_LAYER * layer)}`;
      const embedding = new Float32Array(DIM);
      for (const m of members) for (let d = 0; d < DIM; d++) embedding[d] += nodes[m].embedding[d];
      const id = nodes.length;
      nodes.push({
        id,
        layer,
        text: summary,
        tokens: countTokens(summary),
        children: members,
        embedding: normalise(embedding),
      });
      topicOf.push(topic);
      current.push(id);
    }
    previous = current;
  }

  const tree: RaptorTree = {
    format: 'raptor-tree',
    version: 1,
    title: `Generated ${name} tree`,
    createdAt: '2024-05-01T10:00:00Z',
    embedding: { model: 'synthetic', dim: DIM },
    summarizer: { kind: 'extractive' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [{ id: docId, name: `${name}-story.txt`, chars: text.length }],
    nodes,
  };
  fillMissingLabels(tree.nodes);

  const questions = [1, 4, 6].map((topic) => {
    const query = Float32Array.from(centres[topic], (c) => c + QUERY_NOISE * gaussian(random));
    const run = (mode: RetrievalMode) =>
      retrieve(
        tree,
        query,
        mode === 'traversal' ? { mode, topK: budget.topK } : { mode, maxTokens: budget.maxTokens },
      ).nodes.map(({ id, layer, score }) => ({ id, layer, score }));
    return {
      label: `About the ${TOPICS[topic][0]}`,
      selections: { collapsed: run('collapsed'), traversal: run('traversal'), leaves: run('leaves') },
    };
  });

  return { tree, documents: [{ id: docId, name: `${name}-story.txt`, text }], questions };
}
