/**
 * Builds one text file into a tree in Node, as the app builds it in the page without an LLM (the offline GloVe
 * model the app ships, q8, through transformers.js on native ONNX Runtime; extractive summaries), and writes it in
 * the tree format. e2e/same-tree.spec.ts compares it with the tree Chromium builds from the same file.
 *
 *     npx tsx scripts/stability/node-tree.ts <text file> <out.json> [params JSON, e.g. the browser tree's]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTree } from '../../src/core/build';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { serializeTree } from '../../src/core/tree-format';
import type { BuildParams } from '../../src/core/types';
import { configureRuntime, TransformersEmbedder } from '../../src/models/embed';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { splitRows } from '../../src/models/embed/rows';

const [file, out, paramsJson] = process.argv.slice(2);
if (!file || !out) {
  console.error('usage: npx tsx scripts/stability/node-tree.ts <text file> <out.json> [params JSON]');
  process.exit(2);
}
const params = (paramsJson ? JSON.parse(paramsJson) : {}) as Partial<BuildParams> & {
  documents?: { id: string; name: string }[];
};
configureRuntime({ localModelPath: fileURLToPath(new URL('../../public/models/', import.meta.url)) });
const embedder = await TransformersEmbedder.load(OFFLINE_MODEL_ID, { dtype: 'q8' });
const embed = async (texts: string[]) => splitRows(await embedder.embed(texts));
const text = readFileSync(file, 'utf8');
const { documents, ...build } = params;
const tree = await buildTree(
  documents ? documents.map((d) => ({ ...d, text })) : text,
  { embed, summarize: createExtractiveSummarizer(embed) },
  { ...build, embeddingModel: OFFLINE_MODEL_ID, summarizer: { kind: 'extractive' } },
);
await embedder.dispose();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, serializeTree(tree));
