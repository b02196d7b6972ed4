/**
 * The ready trees: tree files of the sample and of a whole novel, built once by
 * scripts/fixtures/make-ready-trees.ts and committed, which browser tests import (e2e/support/ready-tree.ts)
 * instead of building when the build is not what they test.
 */

/** A ready tree's name. */
export type ReadyTreeName = 'sample' | 'novel';

/** What a ready tree is and what it was made from. */
export interface ReadyTree {
  /** The tree file, relative to the repository. */
  file: string;
  /** Its title in the Library (the document's name without extension, as a build names it). */
  title: string;
  /** The document it was built from, relative to the repository, and the name it was added under. */
  source: string;
  documentName: string;
  /** Who wrote the summaries: the FAKE LLM server (tests/support/llm-server.ts), or the extractive summariser. */
  summaries: 'fake-llm' | 'extractive';
}

/** The folder of the offline GloVe model both are embedded with (its files are inputs of each tree). */
export const READY_MODEL_DIR = 'public/models/aerie-glove-100d';

/** Every ready tree. */
export const READY_TREES: Record<ReadyTreeName, ReadyTree> = {
  sample: {
    file: 'tests/fixtures/ready/cinderella.raptor.json',
    title: 'cinderella',
    source: 'public/samples/cinderella.txt',
    documentName: 'cinderella.txt',
    summaries: 'fake-llm',
  },
  novel: {
    file: 'tests/fixtures/ready/pride-and-prejudice.raptor.json',
    title: 'pride-and-prejudice',
    source: 'tests/fixtures/books/pride-and-prejudice.txt',
    documentName: 'pride-and-prejudice.txt',
    summaries: 'extractive',
  },
};

/** The files a ready tree was made from, relative to the repository: its text and the model's files. */
export function readyTreeInputs(name: ReadyTreeName): string[] {
  return [
    READY_TREES[name].source,
    `${READY_MODEL_DIR}/config.json`,
    `${READY_MODEL_DIR}/tokenizer.json`,
    `${READY_MODEL_DIR}/tokenizer_config.json`,
    `${READY_MODEL_DIR}/onnx/model_quantized.onnx`,
  ];
}
