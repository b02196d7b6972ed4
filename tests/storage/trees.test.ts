import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/core/abort';
import { AerieError } from '../../src/core/errors';
import { serializeTree } from '../../src/core/tree-format';
import type { PipelineProgress } from '../../src/protocol/build';
import {
  completeTree,
  countRecords,
  createTree,
  deleteSetting,
  deleteTree,
  documentIdOf,
  duplicateTreeSettings,
  getCheckpoint,
  getDocument,
  getDocuments,
  getNode,
  getSetting,
  getTree,
  importTree,
  listTrees,
  loadTree,
  markBuildStopped,
  recordProgress,
  renameTree,
  resumeRequest,
  saveDocument,
  saveTreeNodes,
  setSetting,
  StorageError,
  updateTree,
  type EvalRunRecord,
  type EvalSetRecord,
} from '../../src/storage';
import { cachedSummarizer } from '../../src/pipeline/cached-results';
import {
  FIXTURE_ENDPOINT,
  FIXTURE_TEXT,
  makeRequest,
  makeTree,
  openFixture,
  SECRET_HEADER,
  SECRET_KEY,
  SECRET_QUERY,
} from '../support/storage-fixture';

const progress = (event: PipelineProgress['event'], at: number): PipelineProgress => ({
  event,
  usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, requests: 1, unreported: 0 },
  at,
});

describe('documents (fake IndexedDB)', () => {
  it('stores a text once under its SHA-256, keeping the first name', async () => {
    const { db } = await openFixture({ empty: true });
    const first = await saveDocument(db, { name: 'a.txt', text: 'héllo wörld' }, 1);
    const again = await saveDocument(db, { name: 'b.txt', text: 'héllo wörld', type: 'text/markdown' }, 2);
    expect(first.id).toMatch(/^[0-9a-f]{64}$/);
    expect(first.id).toBe(await documentIdOf('héllo wörld'));
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      name: 'a.txt',
      type: 'text/plain',
      size: 13,
      sha256: first.id,
      addedAt: 1,
    });
    const other = await saveDocument(db, { name: 'c.txt', text: 'other' });
    expect(await getDocuments(db, [other.id, 'missing', first.id])).toEqual([other, undefined, first]);
    expect((await countRecords(db)).documents).toBe(2);
  });
});

describe('tree records (fake IndexedDB)', () => {
  it('records a new build without API keys, secret headers, URL secrets or document texts', async () => {
    const { db } = await openFixture({ empty: true });
    const record = await createTree(db, makeRequest('t1'), { now: 1000 });
    expect(record).toMatchObject({ id: 't1', status: 'building', origin: 'built', updatedAt: 1000 });
    expect(record.embedding).toEqual({ model: 'fake/embedder', dtype: 'q8' });
    expect(record.summarizer).toEqual({ kind: 'llm', model: 'fake-llm' });
    expect(record.params).toMatchObject({ seed: 7, chunkTokens: 100 });
    expect(record.params).not.toHaveProperty('concurrency');
    const stored = JSON.stringify(await getTree(db, 't1'));
    for (const secret of [SECRET_KEY, SECRET_HEADER, SECRET_QUERY, 'slippers'])
      expect(stored).not.toContain(secret);
    expect(stored).toContain('api-version=2024-06-01');
    expect(stored).toContain('X-Title');
    const doc = await getDocument(db, record.documentIds[0]);
    expect(doc?.text).toBe(FIXTURE_TEXT);
    await expect(createTree(db, makeRequest('t1'))).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
  });

  it('updates, renames and lists trees, newest first, with their checkpoints', async () => {
    const { db, treeId } = await openFixture();
    await createTree(db, makeRequest('later'), { now: Date.now() + 10_000 });
    await recordProgress(
      db,
      'later',
      progress({ stage: 'summarize', layer: 2, done: 3, total: 9 }, Date.now() + 20_000),
    );
    const renamed = await renameTree(db, treeId, '  Cinderella notes  ');
    expect(renamed.title).toBe('Cinderella notes');
    await expect(renameTree(db, treeId, '   ')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(renameTree(db, 'nope', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const rows = await listTrees(db);
    expect(rows.map((r) => r.id)).toEqual(['later', treeId]);
    const [building, ready] = rows;
    expect(building.checkpoint).toMatchObject({ stage: 'summarize', layer: 2, done: 3, total: 9 });
    expect(building.status).toBe('building');
    expect(ready).toMatchObject({
      title: 'Cinderella notes',
      status: 'ready',
      layers: 2,
      nodesPerLayer: [12, 3, 1],
      nodeCount: 16,
      embeddingModel: 'fake/embedder',
      summarizer: { kind: 'llm', model: 'fake-llm' },
      documents: [{ name: 'notes.html', chars: FIXTURE_TEXT.length, textStored: true }],
    });
    // Size on disk: at least the embeddings and the document text, which are most of it.
    expect(ready.bytes).toBeGreaterThan(16 * 8 * 4 + FIXTURE_TEXT.length);
    expect(ready.checkpoint).toBeUndefined();

    const patched = await updateTree(db, 'later', (t) => ({
      status: 'failed',
      error: { code: 'X', message: t.title },
    }));
    expect(patched.error).toEqual({ code: 'X', message: 'Fixture tree' });
    const cleared = await updateTree(db, 'later', { error: undefined, status: 'paused' });
    expect(cleared).not.toHaveProperty('error');
    expect(cleared.status).toBe('paused');
  });

  it('records progress as the tree’s snapshot and a checkpoint', async () => {
    const { db } = await openFixture({ empty: true });
    await createTree(db, makeRequest('p'));
    await recordProgress(db, 'p', progress({ stage: 'embed-leaves', done: 64, total: 200 }, 5));
    expect(await getCheckpoint(db, 'p')).toEqual({
      treeId: 'p',
      stage: 'embed-leaves',
      layer: 0,
      done: 64,
      total: 200,
      updatedAt: 5,
    });
    await recordProgress(
      db,
      'p',
      progress({ stage: 'model-load', file: 'm.onnx', loaded: 10, total: 20, status: 'progress' }, 6),
    );
    expect(await getCheckpoint(db, 'p')).toMatchObject({ stage: 'model-load', done: 10, total: 20 });
    expect((await getTree(db, 'p'))?.progress?.at).toBe(6);
    await expect(
      recordProgress(db, 'none', progress({ stage: 'chunk', done: 0, total: 1 }, 1)),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('marks a cancelled build paused and a failed one failed, scrubbing saved API keys from the message', async () => {
    const { db } = await openFixture();
    await createTree(db, makeRequest('s'));
    expect((await markBuildStopped(db, 's', new AbortError())).status).toBe('paused');
    const failed = await markBuildStopped(db, 's', new AerieError('AUTH', `Key ${SECRET_KEY} was refused.`));
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('AUTH');
    expect(failed.error?.message).not.toContain(SECRET_KEY);
    expect(failed.error?.message).toContain('[redacted]');
    expect((await markBuildStopped(db, 's', 'plain failure')).error).toEqual({
      code: 'UNKNOWN',
      message: 'plain failure',
    });
  });
});

describe('nodes (fake IndexedDB)', () => {
  it('loads a stored tree with the same nodes and bit-identical embeddings', async () => {
    const { db, treeId, tree } = await openFixture();
    const loaded = await loadTree(db, treeId);
    expect(loaded).toEqual({ ...tree, title: 'Fixture tree' });
    loaded.nodes.forEach((n, i) => {
      expect(new Uint32Array(n.embedding.slice().buffer)).toEqual(
        new Uint32Array(tree.nodes[i].embedding.slice().buffer),
      );
      // One flat buffer for all nodes, as parseTree gives.
      expect(n.embedding.buffer).toBe(loaded.nodes[0].embedding.buffer);
    });
    expect((await getNode(db, treeId, 13))?.children).toEqual(tree.nodes[13].children);
    expect(await getNode(db, treeId, 99)).toBeUndefined();
    await expect(loadTree(db, 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('saves nodes in bulk, gives each embedding its own buffer, and refreshes the stats', async () => {
    const { db } = await openFixture({ empty: true });
    await createTree(db, makeRequest('n'));
    await expect(loadTree(db, 'n')).rejects.toMatchObject({ code: 'NOT_READY' });
    const tree = makeTree({ leaves: 8, dim: 16 });
    // Views into one large buffer, as parseTree makes: storing the whole buffer per node would be n² bytes.
    const flat = new Float32Array(tree.nodes.length * 16);
    tree.nodes.forEach((n, i) => {
      flat.set(n.embedding, i * 16);
      n.embedding = flat.subarray(i * 16, (i + 1) * 16);
    });
    await saveTreeNodes(db, 'n', tree.nodes.slice(0, 8));
    expect((await getTree(db, 'n'))?.stats).toMatchObject({ nodeCount: 8, nodesPerLayer: [8], layers: 0 });
    await saveTreeNodes(db, 'n', tree.nodes.slice(8));
    const record = await getTree(db, 'n');
    expect(record?.stats).toMatchObject({
      nodeCount: tree.nodes.length,
      nodesPerLayer: [8, 2, 1],
      layers: 2,
    });
    expect(record?.embedding.dim).toBe(16);
    const stored = await getNode(db, 'n', 5);
    expect(stored?.embedding.buffer.byteLength).toBe(16 * 4);
    expect(Array.from(stored?.embedding ?? [])).toEqual(Array.from(tree.nodes[5].embedding));

    const wrong = { ...tree.nodes[0], embedding: new Float32Array(3) };
    const error = await saveTreeNodes(db, 'n', [wrong]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toContain('3 values');
    expect((error as Error).message).toContain('16');
    await expect(saveTreeNodes(db, 'nope', tree.nodes)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('completing a build replaces earlier nodes and clears the checkpoint', async () => {
    const { db } = await openFixture({ empty: true });
    await createTree(db, makeRequest('c'));
    await saveTreeNodes(db, 'c', makeTree({ leaves: 20 }).nodes);
    await recordProgress(db, 'c', progress({ stage: 'summarize', layer: 1, done: 1, total: 5 }, 1));
    await markBuildStopped(db, 'c', new Error('boom'));
    const tree = makeTree({ leaves: 6 });
    const record = await completeTree(db, 'c', tree);
    expect(record.status).toBe('ready');
    expect(record).not.toHaveProperty('error');
    expect(record.stats.nodeCount).toBe(tree.nodes.length);
    expect((await loadTree(db, 'c')).nodes).toHaveLength(tree.nodes.length);
    expect(await getCheckpoint(db, 'c')).toBeUndefined();
  });
});

describe('deleting a tree (fake IndexedDB)', () => {
  it('removes every record of it, keeping documents and cache entries another tree uses', async () => {
    const { db, treeId } = await openFixture();
    await createTree(db, makeRequest('twin'));
    await completeTree(db, 'twin', makeTree());
    await createTree(db, { ...makeRequest('solo'), documents: [{ id: 'x', text: 'a text only solo uses' }] });
    await recordProgress(db, 'solo', progress({ stage: 'chunk', done: 0, total: 1 }, 1));
    const summarize = async (texts: string[]) => `summary of ${texts.length}`;
    const key = { kind: 'extractive', embeddingModel: 'fake/embedder' } as const;
    await cachedSummarizer(db, summarize, key, treeId)(['shared'], { maxTokens: 10 });
    await cachedSummarizer(db, summarize, key, 'twin')(['shared'], { maxTokens: 10 });
    await cachedSummarizer(db, summarize, key, 'solo')(['only solo'], { maxTokens: 10 });
    const before = await countRecords(db);
    expect(before).toMatchObject({ trees: 3, documents: 2, cache: 2, checkpoints: 1, settings: 1 });

    expect(await deleteTree(db, 'solo')).toBe(true);
    expect(await countRecords(db)).toMatchObject({
      trees: 2,
      documents: 1,
      cache: 1,
      checkpoints: 0,
      nodes: before.nodes,
    });

    expect(await deleteTree(db, treeId)).toBe(true);
    const docId = await documentIdOf(FIXTURE_TEXT);
    expect(await getDocument(db, docId)).toBeDefined(); // 'twin' still uses it
    expect((await countRecords(db)).cache).toBe(1); // 'twin' still uses the shared summary

    expect(await deleteTree(db, 'twin')).toBe(true);
    expect(await countRecords(db)).toEqual({
      documents: 0,
      trees: 0,
      nodes: 0,
      settings: 1,
      cache: 0,
      checkpoints: 0,
      conversations: 0,
      turns: 0,
      evalSets: 0,
      evalRuns: 0,
    });
    expect(await deleteTree(db, 'twin')).toBe(false);
  });

  it('removes the tree’s conversations and evaluations, and only its own', async () => {
    const { db, treeId } = await openFixture();
    await createTree(db, makeRequest('other'));
    const at = 1_700_000_000_000;
    const record = (id: string, tree: string) => ({ id, treeId: tree, createdAt: at, updatedAt: at });
    await db.put('conversations', {
      ...record('c1', treeId),
      kind: 'conversation',
      title: 'c1',
      turnCount: 0,
    });
    await db.put('conversations', {
      ...record('c2', 'other'),
      kind: 'conversation',
      title: 'c2',
      turnCount: 0,
    });
    const evalSet = (id: string, tree: string): EvalSetRecord => ({
      ...record(id, tree),
      kind: 'eval-set',
      name: id,
      source: 'typed',
      questions: [],
    });
    const evalRun = (id: string, tree: string): EvalRunRecord => ({
      ...record(id, tree),
      kind: 'eval-run',
      setId: 's1',
      setName: 's1',
      questions: [],
      options: { searches: ['meaning'], maxTokens: 2000, traversalTopK: 5, answers: false, judge: false },
      tree: { title: 't', embedding: 'e', summarizer: 'extractive', nodes: 1, createdAt: '' },
      status: 'done',
    });
    await db.put('evalSets', evalSet('s1', treeId));
    await db.put('evalRuns', evalRun('r1', treeId));
    await db.put('evalRuns', evalRun('r2', 'other'));

    expect(await deleteTree(db, treeId)).toBe(true);
    expect(await db.getAllKeys('conversations')).toEqual(['c2']);
    expect(await db.getAllKeys('evalSets')).toEqual([]);
    expect(await db.getAllKeys('evalRuns')).toEqual(['r2']);
  });
});

describe('build settings (fake IndexedDB)', () => {
  it('resumes a build with the stored texts and the API key from settings', async () => {
    const { db } = await openFixture();
    await createTree(db, makeRequest('r'));
    const request = await resumeRequest(db, 'r');
    expect(request).toEqual(makeRequest('r'));
    // Without a saved endpoint the request runs keyless (a local server needs none).
    await deleteSetting(db, 'llmEndpoints');
    const keyless = await resumeRequest(db, 'r');
    expect(JSON.stringify(keyless)).not.toContain(SECRET_KEY);
    expect(keyless.documents[0].text).toBe(FIXTURE_TEXT);
    // An explicit list of endpoints wins.
    const other = { ...FIXTURE_ENDPOINT, apiKey: 'sk-OTHER' };
    const explicit = await resumeRequest(db, 'r', { endpoints: [other] });
    expect(explicit.summarizer.kind === 'llm' && explicit.summarizer.endpoint.apiKey).toBe('sk-OTHER');
  });

  it('duplicates the settings of built and imported trees into a draft', async () => {
    const { db, treeId } = await openFixture();
    const draft = await duplicateTreeSettings(db, treeId);
    const request = makeRequest(treeId);
    expect(draft).toMatchObject({
      title: 'Fixture tree',
      documents: request.documents,
      missingDocuments: [],
      embeddingModel: 'fake/embedder',
      embedding: request.embedding,
      summarizer: request.summarizer,
    });
    expect(draft.params).toMatchObject({ seed: 7, concurrency: 2, chunkTokens: 100 });

    // An imported tree has no build and no texts: parameters and model names only.
    const imported = await importTree(db, serializeTree(makeTree({ dim: 4 })), { id: 'imp' });
    const fromImport = await duplicateTreeSettings(db, imported);
    expect(fromImport).toMatchObject({
      documents: [],
      missingDocuments: [{ id: 'doc-0', name: 'notes.html', chars: FIXTURE_TEXT.length }],
      embeddingModel: 'fake/embedder',
      summarizerInfo: { kind: 'llm', model: 'fake-llm' },
      params: { seed: 7 },
    });
    expect(fromImport.embedding).toBeUndefined();
    await expect(resumeRequest(db, imported)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(duplicateTreeSettings(db, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reads and writes typed settings', async () => {
    const { db } = await openFixture({ empty: true });
    expect(await getSetting(db, 'theme')).toBeUndefined();
    await setSetting(db, 'theme', 'dark');
    await setSetting(db, 'buildParams', { seed: 3 });
    expect(await getSetting(db, 'theme')).toBe('dark');
    expect(await getSetting(db, 'buildParams')).toEqual({ seed: 3 });
    await deleteSetting(db, 'theme');
    expect(await getSetting(db, 'theme')).toBeUndefined();
  });

  it('never quotes a setting’s value in an error, even when the browser’s own message does', async () => {
    const { db } = await openFixture({ empty: true });
    // A function cannot be stored; Node's DataCloneError message quotes its source, which holds the key.
    const leaky = new Function(`return "${SECRET_KEY}";`) as () => string;
    const endpoint = { ...FIXTURE_ENDPOINT, onRetry: leaky } as typeof FIXTURE_ENDPOINT;
    const error = await setSetting(db, 'llmEndpoints', [endpoint]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'IO_ERROR', details: { name: 'DataCloneError' } });
    expect((error as Error).message).not.toContain(SECRET_KEY);
    expect((error as Error).cause).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain(SECRET_KEY);
  });
});
