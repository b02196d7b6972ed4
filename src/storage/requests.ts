/**
 * Build requests as a tree stores them, and back. A stored request holds everything needed to run the build
 * again except secrets and texts: API keys, secret-looking headers and URL credentials are removed, and
 * documents are references to the documents store. When a build is resumed or its settings duplicated, the
 * keys come from the endpoints saved in settings (this browser), matched by protocol and URL.
 */
import type { BuildDocument } from '../core/build';
import type { BuildParams, SummarizerInfo, TreeDocument } from '../core/types';
import type { LlmEndpoint } from '../llm';
import type { BuildRequest, EmbeddingChoice, SummarizerChoice } from '../protocol/build';
import { StorageError, treeNotFound } from './errors';
import type {
  AerieDb,
  DocumentRecord,
  OriginalInfo,
  StoredBuildRequest,
  StoredDocumentRef,
  StoredEmbeddingChoice,
  StoredEndpoint,
  StoredSummarizerChoice,
  TreeRecord,
} from './schema';
import { runTransaction } from './transaction';

/** Header and query-parameter names that may carry a secret; such entries are never stored with a tree. */
const SECRET_NAME = /auth|key|token|secret|password|passwd|cookie|signature|credential|session/i;

function withoutUrlSecrets(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  const secretParams = [...url.searchParams.keys()].filter((name) => SECRET_NAME.test(name));
  if (!url.username && !url.password && secretParams.length === 0) return baseUrl;
  url.username = '';
  url.password = '';
  for (const name of secretParams) url.searchParams.delete(name);
  return url.toString();
}

/** The endpoint without its API key, secret-looking headers or credentials in its URL. */
export function withoutSecrets(endpoint: LlmEndpoint | StoredEndpoint): StoredEndpoint {
  const { headers, baseUrl, ...rest } = endpoint;
  delete (rest as { apiKey?: string }).apiKey;
  const out: StoredEndpoint = { ...rest, baseUrl: withoutUrlSecrets(baseUrl) };
  if (headers) {
    const kept = Object.entries(headers).filter(([name]) => !SECRET_NAME.test(name));
    if (kept.length > 0) out.headers = Object.fromEntries(kept);
  }
  return out;
}

function storedEmbedding(choice: EmbeddingChoice): StoredEmbeddingChoice {
  return choice.kind === 'endpoint'
    ? { kind: 'endpoint', endpoint: withoutSecrets(choice.endpoint) }
    : { ...choice };
}

function storedSummarizer(choice: SummarizerChoice): StoredSummarizerChoice {
  if (choice.kind === 'extractive') return { kind: 'extractive' };
  if (choice.kind === 'builtin') return { ...choice, generator: { ...choice.generator } };
  const out: StoredSummarizerChoice = { kind: 'llm', endpoint: withoutSecrets(choice.endpoint) };
  if (choice.systemPrompt !== undefined) out.systemPrompt = choice.systemPrompt;
  if (choice.userTemplate !== undefined) out.userTemplate = choice.userTemplate;
  return out;
}

/** The request as a tree stores it: `documentIds[i]` is the stored text of `request.documents[i]`. */
export function toStoredRequest(request: BuildRequest, documentIds: readonly string[]): StoredBuildRequest {
  const documents = request.documents.map((doc, i): StoredDocumentRef => {
    const ref: StoredDocumentRef = { documentId: documentIds[i] };
    if (doc.id !== undefined) ref.id = doc.id;
    if (doc.name !== undefined) ref.name = doc.name;
    if (doc.pageStarts !== undefined) ref.pageStarts = doc.pageStarts.slice();
    return ref;
  });
  return {
    title: request.title,
    documents,
    params: { ...request.params },
    embedding: storedEmbedding(request.embedding),
    summarizer: storedSummarizer(request.summarizer),
  };
}

/**
 * The stored endpoint made usable again: the saved endpoint with the same protocol and URL (preferring the
 * same model) lends its key, secret headers and full URL; without one the endpoint runs keyless.
 */
function restoreEndpoint(stored: StoredEndpoint, saved: readonly LlmEndpoint[]): LlmEndpoint {
  const candidates = saved.filter(
    (s) => s.protocol === stored.protocol && withoutSecrets(s).baseUrl === stored.baseUrl,
  );
  const match = candidates.find((s) => s.model === stored.model) ?? candidates[0];
  if (!match) return { ...stored };
  const out: LlmEndpoint = { ...stored, baseUrl: match.baseUrl };
  if (match.apiKey !== undefined) out.apiKey = match.apiKey;
  if (match.headers || stored.headers) out.headers = { ...stored.headers, ...match.headers };
  return out;
}

function restoreEmbedding(choice: StoredEmbeddingChoice, saved: readonly LlmEndpoint[]): EmbeddingChoice {
  return choice.kind === 'endpoint'
    ? { kind: 'endpoint', endpoint: restoreEndpoint(choice.endpoint, saved) }
    : { ...choice };
}

function restoreSummarizer(choice: StoredSummarizerChoice, saved: readonly LlmEndpoint[]): SummarizerChoice {
  if (choice.kind === 'llm') return { ...choice, endpoint: restoreEndpoint(choice.endpoint, saved) };
  if (choice.kind === 'builtin') return { ...choice, generator: { ...choice.generator } };
  return { ...choice };
}

/** Options of `resumeRequest` and `duplicateTreeSettings`. */
export interface RestoreOptions {
  /** Endpoints to take API keys from. Default the `llmEndpoints` setting. */
  endpoints?: readonly LlmEndpoint[];
}

interface Loaded {
  record: TreeRecord;
  texts: Map<string, DocumentRecord>;
  saved: readonly LlmEndpoint[];
}

/** Reads a tree record, the texts it references and the saved endpoints in one transaction. */
async function loadForRestore(db: AerieDb, treeId: string, options: RestoreOptions): Promise<Loaded> {
  return runTransaction(
    db,
    ['trees', 'documents', 'settings'],
    'readonly',
    'read the build settings',
    async (tx) => {
      const record = await tx.objectStore('trees').get(treeId);
      if (!record) throw treeNotFound(treeId);
      const ids = record.request ? record.request.documents.map((d) => d.documentId) : record.documentIds;
      const docs = await Promise.all(ids.map((id) => tx.objectStore('documents').get(id)));
      const texts = new Map<string, DocumentRecord>();
      for (const doc of docs) if (doc) texts.set(doc.id, doc);
      const saved = options.endpoints ?? (await tx.objectStore('settings').get('llmEndpoints')) ?? [];
      return { record, texts, saved: Array.isArray(saved) ? (saved as LlmEndpoint[]) : [] };
    },
  );
}

function toBuildDocument(ref: StoredDocumentRef, doc: DocumentRecord): BuildDocument {
  const out: BuildDocument = { text: doc.text };
  if (ref.id !== undefined) out.id = ref.id;
  if (ref.name !== undefined) out.name = ref.name;
  if (ref.pageStarts !== undefined) out.pageStarts = ref.pageStarts.slice();
  return out;
}

/**
 * The request that resumes a stopped build (status building, paused or failed): the same settings, the
 * stored texts and the API keys from settings. Run it with the cached embedder and summariser and nothing
 * finished is paid for twice.
 * @throws StorageError NOT_FOUND (no tree, or an imported tree with no build), CORRUPT (a text is missing).
 */
export async function resumeRequest(
  db: AerieDb,
  treeId: string,
  options: RestoreOptions = {},
): Promise<BuildRequest> {
  const { record, texts, saved } = await loadForRestore(db, treeId, options);
  const request = record.request;
  if (!request) {
    throw new StorageError(
      'NOT_FOUND',
      `The tree "${record.title}" was imported from a file; it has no build to resume.`,
      {
        treeId,
      },
    );
  }
  const documents = request.documents.map((ref) => {
    const doc = texts.get(ref.documentId);
    if (!doc) {
      throw new StorageError(
        'CORRUPT',
        `The text of "${ref.name ?? ref.documentId}" is no longer stored, so the build cannot resume. Start a new ` +
          'build with the document.',
        { treeId, documentId: ref.documentId },
      );
    }
    return toBuildDocument(ref, doc);
  });
  return {
    buildId: record.id,
    title: request.title,
    documents,
    params: { ...request.params },
    embedding: restoreEmbedding(request.embedding, saved),
    summarizer: restoreSummarizer(request.summarizer, saved),
  };
}

/** The settings of a tree, ready to start a new build with ("duplicate settings into a new build"). */
export interface BuildDraft {
  title: string;
  params: Partial<BuildParams> & { concurrency?: number };
  /** Documents whose texts are stored. */
  documents: BuildDocument[];
  /** The original file each of `documents` keeps (a rebuild keeps them: `CreateTreeOptions.shareOriginals`). */
  originals: (OriginalInfo | undefined)[];
  /** Documents whose texts are not stored (imported trees): the user must add them again. */
  missingDocuments: TreeDocument[];
  /** The embedding model the tree was built with (imported trees too). */
  embeddingModel: string;
  /** What wrote the summaries. */
  summarizerInfo: SummarizerInfo;
  /** The embedding choice to run, with API keys from settings; absent for imported trees. */
  embedding?: EmbeddingChoice;
  /** The summariser to run, with API keys from settings; absent for imported trees. */
  summarizer?: SummarizerChoice;
}

/**
 * A tree's settings as a draft for a new build: parameters, models and the stored documents. Works for
 * imported trees too (parameters and model names only; their texts are listed as missing).
 * @throws StorageError NOT_FOUND.
 */
export async function duplicateTreeSettings(
  db: AerieDb,
  treeId: string,
  options: RestoreOptions = {},
): Promise<BuildDraft> {
  const { record, texts, saved } = await loadForRestore(db, treeId, options);
  const request = record.request;
  const documents: BuildDocument[] = [];
  const originals: (OriginalInfo | undefined)[] = [];
  const missingDocuments: TreeDocument[] = [];
  record.documents.forEach((entry, i) => {
    const doc = entry.documentId === undefined ? undefined : texts.get(entry.documentId);
    const ref = request?.documents[i];
    if (doc) {
      documents.push(toBuildDocument(ref ?? { id: entry.id, name: entry.name, documentId: doc.id }, doc));
      originals.push(entry.original);
    } else missingDocuments.push({ id: entry.id, name: entry.name, chars: entry.chars });
  });
  const { concurrency, ...known } = (request?.params ?? {}) as { concurrency?: number };
  const params: BuildDraft['params'] = { ...pickBuildParams(record.params), ...known };
  if (concurrency !== undefined) params.concurrency = concurrency;
  const draft: BuildDraft = {
    title: record.title,
    params,
    documents,
    originals,
    missingDocuments,
    embeddingModel: record.embedding.model,
    summarizerInfo: { ...record.summarizer },
  };
  if (request) {
    draft.embedding = restoreEmbedding(request.embedding, saved);
    draft.summarizer = restoreSummarizer(request.summarizer, saved);
  }
  return draft;
}

const BUILD_PARAM_KEYS: readonly (keyof BuildParams)[] = [
  'chunkTokens',
  'reductionDim',
  'clusterThreshold',
  'maxClusterTokens',
  'maxLayers',
  'summaryTokens',
  'seed',
];

function pickBuildParams(params: TreeRecord['params']): Partial<BuildParams> {
  const out: Partial<BuildParams> = {};
  for (const key of BUILD_PARAM_KEYS) if (typeof params[key] === 'number') out[key] = params[key];
  return out;
}
