/**
 * The tree `npm run eval` evaluates and the embedder its questions need: a `.raptor.json` tree loaded as it is,
 * or a document read (any format the app reads) and built in Node on the same core as the app's build — the
 * offline GloVe model and extractive summaries unless endpoints are given. Nothing but the given endpoints is
 * contacted: local models only, never the model hub.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { buildTree, type BuildProgress } from '../../src/core/build';
import { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER } from '../../src/core/extractive';
import { createSentenceMemory } from '../../src/core/sentence-vectors';
import { parseTree } from '../../src/core/tree-format';
import type { EmbedFn, RaptorTree, SummarizeFn, SummarizerInfo } from '../../src/core/types';
import { ingestFile } from '../../src/ingest';
import { createLlmSummarizer, createOpenAiEmbedder, type LlmEndpoint } from '../../src/llm';
import { configureRuntime, TransformersEmbedder } from '../../src/models/embed';
import { splitRows, splitSentenceRows } from '../../src/models/embed/rows';
import { locateModel, OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import type { EvalArgs } from './args';

/** The app's own models (the offline GloVe model among them). */
export const DEFAULT_MODELS_DIR = join(import.meta.dirname, '..', '..', 'public', 'models');

/** The tree to evaluate and how to embed its questions. */
export interface TreeSource {
  tree: RaptorTree;
  embedQuery: (texts: string[]) => Promise<Float32Array[]>;
  /** Whether the tree was built from a document here, and how long that took (ms). */
  built: boolean;
  buildMs?: number;
  /** Frees the loaded model. */
  dispose(): Promise<void>;
}

/** Something the command cannot do, said so a user can fix it. */
export class EvalInputError extends Error {
  override readonly name = 'EvalInputError';
}

/** Whether the command's input is a tree file (`.raptor.json`, any `.json`) rather than a document. */
export const isTreeFile = (path: string) => /\.json$/i.test(path);

/** An endpoint from the command line; its key from the environment variable named. */
function endpointOf(
  url: string,
  model: string,
  protocol: 'openai' | 'anthropic',
  keyVariable: string,
): LlmEndpoint {
  const endpoint: LlmEndpoint = { protocol, baseUrl: url, model };
  const key = process.env[keyVariable];
  if (key) endpoint.apiKey = key;
  return endpoint;
}

/** The embeddings endpoint of the command line, for `model`. */
function embeddingsEndpoint(args: EvalArgs, model: string): LlmEndpoint {
  return endpointOf(args.embeddings!.url, model, 'openai', 'AERIE_EMBEDDINGS_API_KEY');
}

/** The LLM endpoint of the command line. */
export function llmEndpoint(args: EvalArgs): LlmEndpoint | undefined {
  return args.llm
    ? endpointOf(args.llm.url, args.llm.model, args.llm.protocol, 'AERIE_LLM_API_KEY')
    : undefined;
}

/**
 * A local model under `modelsDir`: `local:<folder>` as it is, a hub id only when its folder is there (the hub is
 * never contacted). @throws EvalInputError when the model is not on this machine.
 */
async function loadLocal(model: string, modelsDir: string): Promise<TransformersEmbedder> {
  const location = locateModel(model);
  const folder = location.kind === 'local' ? location.folder : location.kind === 'hub' ? location.repo : '';
  if (!folder || !existsSync(join(modelsDir, folder))) {
    throw new EvalInputError(
      `The tree's questions must be embedded with ${model}, which is not in ${modelsDir}. ` +
        (location.kind === 'endpoint'
          ? 'Pass --embeddings <url> of an OpenAI-compatible endpoint serving it.'
          : `Put the model's folder (${folder}/) there, or pass --models-dir <folder holding it>.`),
    );
  }
  configureRuntime({ localModelPath: modelsDir.endsWith('/') ? modelsDir : `${modelsDir}/` });
  return TransformersEmbedder.load(`local:${folder}`, { dtype: 'q8', device: 'cpu' });
}

/** The question embedder of a loaded tree: its endpoint model or its local model. */
async function questionEmbedder(
  tree: RaptorTree,
  args: EvalArgs,
): Promise<{ embed: EmbedFn; dispose: () => Promise<void> }> {
  const location = locateModel(tree.embedding.model);
  const remote =
    location.kind === 'endpoint'
      ? location.model
      : tree.embedding.model.startsWith('openai/')
        ? tree.embedding.model.slice(7)
        : undefined;
  if (remote !== undefined) {
    if (!args.embeddings) {
      throw new EvalInputError(
        `This tree was built with ${tree.embedding.model} embeddings: pass --embeddings <url> of an ` +
          'OpenAI-compatible endpoint serving that model to embed the questions.',
      );
    }
    return { embed: createOpenAiEmbedder(embeddingsEndpoint(args, remote)), dispose: async () => {} };
  }
  const embedder = await loadLocal(tree.embedding.model, args.modelsDir ?? DEFAULT_MODELS_DIR);
  return {
    embed: async (texts) => splitRows(await embedder.embed(texts)),
    dispose: () => embedder.dispose(),
  };
}

/** Reports a build's progress on stderr: at most one line per stage, layer and tenth of the work. */
function buildReporter(log: (line: string) => void): (p: BuildProgress) => void {
  let last = '';
  return (p) => {
    if (p.stage === 'done') {
      log(`  build: done, ${p.nodes} nodes, ${p.layers} layers (stopped: ${p.stopReason})`);
      return;
    }
    const layer = 'layer' in p ? ` (layer ${p.layer})` : '';
    const key = `${p.stage}${layer} ${p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0}`;
    if (key === last) return;
    last = key;
    log(`  build: ${p.stage}${layer} ${p.done}/${p.total}`);
  };
}

/** Builds a document the way the app does, with the command line's models. */
async function buildDocument(path: string, args: EvalArgs, log: (line: string) => void): Promise<TreeSource> {
  const name = basename(path);
  const bytes = await readFile(path);
  const document = await ingestFile(new File([bytes], name));
  for (const warning of document.warnings) log(`  ${warning}`);
  let embed: EmbedFn;
  let plain: EmbedFn;
  let embeddingModel: string;
  let sentences: Parameters<typeof createExtractiveSummarizer>[1];
  let lengths: ((texts: string[]) => Promise<number[]>) | undefined;
  let dispose = async () => {};
  if (args.embeddings) {
    embed = plain = createOpenAiEmbedder(embeddingsEndpoint(args, args.embeddings.model));
    embeddingModel = `openai:${args.embeddings.model}`;
  } else {
    const embedder = await loadLocal(OFFLINE_MODEL_ID, args.modelsDir ?? DEFAULT_MODELS_DIR);
    plain = async (texts) => splitRows(await embedder.embed(texts));
    const memory = createSentenceMemory(async (texts) => {
      const batch = await embedder.embed(texts, { sentences: !args.llm });
      return {
        vectors: splitRows(batch),
        sentences: batch.sentences ? splitSentenceRows(batch.sentences) : texts.map(() => undefined),
      };
    });
    embed = memory.embed;
    sentences = memory.source;
    lengths = async (texts) => embedder.tokenCounts(texts);
    embeddingModel = OFFLINE_MODEL_ID;
    dispose = () => embedder.dispose();
  }
  let summarize: SummarizeFn;
  let summarizer: SummarizerInfo;
  const llm = llmEndpoint(args);
  if (llm) {
    const fn = createLlmSummarizer(llm);
    summarize = fn;
    summarizer = fn.info;
  } else {
    summarize = createExtractiveSummarizer(plain, sentences);
    summarizer = { ...EXTRACTIVE_SUMMARIZER };
  }
  log(
    `Building ${name} (${embeddingModel}, ${summarizer.kind === 'llm' ? `summaries by ${summarizer.model}` : 'extractive summaries'})…`,
  );
  const started = performance.now();
  const tree = await buildTree(
    [
      {
        id: 'd1',
        name,
        text: document.text,
        ...(document.pageStarts ? { pageStarts: document.pageStarts } : {}),
      },
    ],
    { embed, summarize, ...(lengths ? { embedLengths: lengths } : {}) },
    { title: name, embeddingModel, summarizer },
    buildReporter(log),
  );
  const buildMs = performance.now() - started;
  return { tree, embedQuery: (texts) => plain(texts), built: true, buildMs, dispose };
}

/**
 * The tree of the command line and its question embedder.
 * @throws EvalInputError for a tree whose model is not here; what reading, parsing or building throws.
 */
export async function openTreeSource(args: EvalArgs, log: (line: string) => void): Promise<TreeSource> {
  if (!isTreeFile(args.input)) return buildDocument(args.input, args, log);
  const tree = parseTree(await readFile(args.input, 'utf8'));
  const { embed, dispose } = await questionEmbedder(tree, args);
  return { tree, embedQuery: (texts) => embed(texts), built: false, dispose };
}
