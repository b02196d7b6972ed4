/**
 * What the tree-shape benchmark builds from: the three collections (the sample, the paper's text, the
 * 23-document public-domain collection) and the two models Aerie ships (the offline GloVe model, and MiniLM's
 * architecture with random weights, generated into .bench-cache by scripts/models/make_minilm_random.py).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildDocument } from '../../src/core/build';
import type { EmbedFn } from '../../src/core/types';
import { configureRuntime, TransformersEmbedder, type EmbeddingDtype } from '../../src/models/embed';
import { splitRows } from '../../src/models/embed/rows';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { incompleteModel, ROOT, runPython } from '../support';

const FIXTURES = join(ROOT, 'tests', 'fixtures');

/** A collection built as one tree. */
export interface Corpus {
  name: string;
  documents: BuildDocument[];
}

/** The sample, the paper and the multi-document collection, as the bench builds them. */
export function corpora(): Corpus[] {
  const read = (...path: string[]) => readFileSync(join(FIXTURES, ...path), 'utf8');
  const manifest = JSON.parse(read('collection', 'manifest.json')) as {
    documents: { id: string; name: string; file: string }[];
  };
  return [
    { name: 'sample', documents: [{ id: 'cinderella', name: 'Cinderella', text: read('cinderella.txt') }] },
    {
      name: 'paper',
      documents: [{ id: 'paper', name: 'RAPTOR (ICLR 2024)', text: read('raptor-paper.txt') }],
    },
    {
      name: 'collection',
      documents: manifest.documents.map((d) => ({
        id: d.id,
        name: d.name,
        text: read('collection', d.file),
      })),
    },
  ];
}

/** The whole novel of the stability figure: Persuasion (Jane Austen, 1817; tests/fixtures/books, ~104k tokens). */
export function novel(): Corpus {
  const text = readFileSync(join(FIXTURES, 'books', 'persuasion.txt'), 'utf8');
  return { name: 'Persuasion', documents: [{ id: 'persuasion', name: 'Persuasion', text }] };
}

/** An embedding model of the bench. */
export interface BenchModel {
  label: string;
  /** The model string (embedding-presets.ts), a folder under `folder`. */
  id: string;
  dtype: EmbeddingDtype;
  /** Folder that holds the model's folder. */
  folder: string;
}

const MINILM_FOLDER = join(ROOT, '.bench-cache', 'models');
const MINILM_NAME = 'minilm-random';
const MINILM_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
const MAKE_MINILM = join(ROOT, 'scripts', 'models', 'make_minilm_random.py');
/** Exporting the model takes well under a minute; allow for a loaded machine. */
const MAKE_TIMEOUT_MS = 10 * 60 * 1000;

/** The offline GloVe model the app ships, as the app loads it. */
export const GLOVE_MODEL: Readonly<BenchModel> = Object.freeze({
  label: 'GloVe (offline)',
  id: OFFLINE_MODEL_ID,
  dtype: 'q8',
  folder: join(ROOT, 'public', 'models'),
});

/** GloVe, and random MiniLM (generated when missing); a reason instead of a model that cannot be had. */
export function benchModels(): (BenchModel | { label: string; skipped: string })[] {
  const glove: BenchModel = { ...GLOVE_MODEL };
  const minilmLabel = 'MiniLM-L6 (random weights)';
  const target = join(MINILM_FOLDER, MINILM_NAME);
  const complete = () => MINILM_FILES.every((f) => existsSync(join(target, f)));
  if (!complete()) {
    console.log(`Generating ${target} (random MiniLM-L6, fp32)…`);
    const made = runPython([MAKE_MINILM, target], MAKE_TIMEOUT_MS);
    if ('reason' in made || !complete()) {
      const why = 'reason' in made ? made.reason : incompleteModel(target, MINILM_FILES);
      return [glove, { label: minilmLabel, skipped: `no MiniLM bench model: ${why}` }];
    }
  }
  return [glove, { label: minilmLabel, id: `local:${MINILM_NAME}`, dtype: 'fp32', folder: MINILM_FOLDER }];
}

/** A loaded model as an EmbedFn that remembers every text it embedded (designs share leaves and sentences). */
export async function loadEmbed(
  model: BenchModel,
): Promise<{ embed: EmbedFn; dispose: () => Promise<void> }> {
  configureRuntime({ localModelPath: model.folder + '/' });
  const embedder = await TransformersEmbedder.load(model.id, { dtype: model.dtype });
  const memo = new Map<string, Float32Array>();
  const embed: EmbedFn = async (texts) => {
    const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
    if (missing.length) {
      splitRows(await embedder.embed(missing)).forEach((v, i) => memo.set(missing[i], v));
    }
    return texts.map((t) => memo.get(t)!);
  };
  return { embed, dispose: () => embedder.dispose() };
}
