/**
 * `npm run bench labels`: how well the topic labels tell a book's summaries apart (bench/labels/measure.ts
 * defines the figures), beside BERTopic's plain c-TF-IDF against the layer (the labels of issue 23, every
 * pass off: `PLAIN_C_TF_IDF`) on the same tree in the same run, and each pass switched off in turn.
 *
 * Trees are the app's without an LLM (the offline GloVe model, extractive summaries, the paper's defaults):
 * Pride and Prejudice from its stored shape (tests/fixtures/books/pride-and-prejudice.tree-shape.json, leaves
 * cut again from the text), and the whole KJV when tests/fixtures/books/kjv.txt exists (`npx tsx
 * scripts/fixtures/make-books.ts kjv`), built once (~90 s on 2 cores) into .bench-cache/books/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildTree } from '../src/core/build';
import { chunkText } from '../src/core/text';
import { createExtractiveSummarizer } from '../src/core/extractive';
import { computeLabels, PLAIN_C_TF_IDF, type LabelNode, type LabelPasses } from '../src/core/labels';
import { parseTree, serializeTree } from '../src/core/tree-format';
import { DEFAULT_BUILD_PARAMS } from '../src/core/types';
import { labelFigures, type LabelFigures } from './labels/measure';
import { notMeasured, type BenchLine } from './lines';
import { GLOVE_MODEL, loadEmbed } from './shape/inputs';
import { ROOT } from './support';

const BOOKS = join(ROOT, 'tests', 'fixtures', 'books');
const CACHE = join(ROOT, '.bench-cache', 'books');
/** Timed runs of each labelling (the median is printed). */
const RUNS = 3;

/** Pride and Prejudice's leaves cut from its text, its summaries from the stored shape. */
function prideAndPrejudice(): LabelNode[] {
  const text = readFileSync(join(BOOKS, 'pride-and-prejudice.txt'), 'utf8');
  const shape = JSON.parse(readFileSync(join(BOOKS, 'pride-and-prejudice.tree-shape.json'), 'utf8')) as {
    summaries: { layer: number; children: number[] }[];
  };
  const chunks = chunkText(text, { maxTokens: DEFAULT_BUILD_PARAMS.chunkTokens });
  const nodes: LabelNode[] = chunks.map((c, id) => ({ id, layer: 0, text: c.text, children: [] }));
  for (const s of shape.summaries) {
    nodes.push({ id: nodes.length, layer: s.layer, text: '', children: s.children });
  }
  return nodes;
}

/** The whole KJV's tree, built once and kept in .bench-cache (rebuilt when the text's length changes). */
async function kingJames(): Promise<LabelNode[] | string> {
  const source = join(BOOKS, 'kjv.txt');
  if (!existsSync(source))
    return 'no tests/fixtures/books/kjv.txt (npx tsx scripts/fixtures/make-books.ts kjv)';
  const text = readFileSync(source, 'utf8');
  const cached = join(CACHE, 'kjv.raptor.json');
  if (existsSync(cached)) {
    const tree = parseTree(readFileSync(cached, 'utf8'));
    if (tree.documents[0]?.chars === text.length) return tree.nodes;
  }
  const glove = GLOVE_MODEL;
  console.log('Building the KJV tree (GloVe, extractive; once, into .bench-cache/books)…');
  const { embed, dispose } = await loadEmbed(glove);
  try {
    const started = performance.now();
    const tree = await buildTree(
      text,
      { embed, summarize: createExtractiveSummarizer(embed) },
      { title: 'kjv', embeddingModel: glove.id, summarizer: { kind: 'extractive' } },
    );
    console.log(`  ${tree.nodes.length} nodes in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    mkdirSync(dirname(cached), { recursive: true });
    writeFileSync(cached, serializeTree(tree));
    return tree.nodes;
  } finally {
    await dispose();
  }
}

/** Labels the tree RUNS times; the labels and the median time. */
function timedLabels(nodes: readonly LabelNode[], passes: Partial<LabelPasses>) {
  const times: number[] = [];
  let labels: (string[] | undefined)[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    labels = computeLabels(nodes, { passes });
    times.push(performance.now() - started);
  }
  return { labels, ms: times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The figures as one line of the passes table. */
function line(name: string, f: LabelFigures): string {
  return [
    name.padEnd(30),
    pct(f.rootLeadShare).padStart(6),
    pct(f.leadShare).padStart(6),
    pct(f.wordShare).padStart(6),
    pct(f.siblingLeadClash).padStart(6),
    pct(f.parentRepeats).padStart(6),
    pct(f.siblingDistinct).padStart(7),
    `${pct(f.siblingAccuracy)} (${pct(f.siblingChance)})`.padStart(15),
    pct(f.leafCoverage).padStart(7),
  ].join(' ');
}

/** Each pass switched off alone. */
const ABLATIONS: [string, Partial<LabelPasses>][] = [
  ['no sibling scoring', { siblings: false }],
  ['parent words allowed', { parentWords: false }],
  ['a word for many siblings', { oneSibling: false }],
  ['no diversity (MMR)', { diversity: false }],
  ['names not weighted', { names: false }],
];

type Figure = keyof Omit<LabelFigures, 'summaries' | 'leadByLayer' | 'wordByLayer' | 'siblingChance'>;
/** The figures printed as rows, and whether more is better. */
const FIGURES: [Figure, string, boolean][] = [
  ['rootLeadShare', 'root labels opening with the commonest first term', false],
  ['leadShare', 'labels opening with their layer’s commonest first term (mean over layers)', false],
  ['wordShare', 'labels holding their layer’s commonest word (mean over layers)', false],
  ['siblingLeadClash', 'labels whose first term opens a sibling’s too', false],
  ['parentRepeats', 'labels repeating a word of their parent’s', false],
  ['siblingDistinct', 'distinct words among siblings’ labels', true],
  ['siblingAccuracy', 'leaves matched best by their own branch’s label among siblings', true],
  ['leafCoverage', 'leaves holding a word of their summary’s label', true],
];

/** Runs the bench: the figures of each book, the passes table, and the time. */
export async function benchLabels(): Promise<BenchLine[]> {
  const books: [string, LabelNode[] | string][] = [
    ['Pride and Prejudice', prideAndPrejudice()],
    ['KJV', await kingJames()],
  ];
  const rows: BenchLine[] = [];
  for (const [book, nodes] of books) {
    if (typeof nodes === 'string') {
      rows.push(notMeasured(`${book}: topic label figures`, nodes));
      continue;
    }
    const summaries = nodes.filter((n) => n.layer > 0).length;
    console.log(`\n${book}: ${nodes.length - summaries} leaves, ${summaries} summaries`);
    const ours = timedLabels(nodes, {});
    const plain = timedLabels(nodes, PLAIN_C_TF_IDF);
    const f = labelFigures(nodes, ours.labels);
    const ref = labelFigures(nodes, plain.labels);
    console.log(
      `${'labels'.padEnd(30)}   root  lead   word   clash parent  distinct  sibling acc (chance) coverage`,
    );
    console.log(line('plain c-TF-IDF (reference)', ref));
    console.log(line('all passes (default)', f));
    for (const [name, passes] of ABLATIONS)
      console.log(line(name, labelFigures(nodes, computeLabels(nodes, { passes }))));
    const top = Math.max(...nodes.map((n) => n.layer));
    const rootLabels = nodes.filter((n) => n.layer === top).map((n) => ours.labels[n.id]!.join(' · '));
    console.log(`root labels: ${rootLabels.join(' | ')}`);
    for (const [key, name, higherIsBetter] of FIGURES) {
      rows.push({
        name: `${book}: ${name}`,
        value: 100 * f[key],
        unit: '%',
        reference: 100 * ref[key],
        referenceLabel: 'plain c-TF-IDF',
        higherIsBetter,
      });
    }
    rows.push({
      name: `${book}: labelling ${nodes.length} nodes (median of ${RUNS})`,
      value: ours.ms,
      unit: 'ms',
      reference: plain.ms,
      referenceLabel: 'plain c-TF-IDF',
      higherIsBetter: false,
    });
  }
  return rows;
}
