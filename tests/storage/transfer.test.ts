import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTree, serializeTree } from '../../src/core/tree-format';
import { createImportService } from '../../src/storage/import-service';
import type { RaptorTree } from '../../src/core/types';
import {
  checkImportSize,
  countRecords,
  exportTree,
  getTree,
  importTree,
  listTrees,
  loadTree,
  StorageError,
  type AerieDb,
} from '../../src/storage';
import {
  failNthPut,
  makeTree,
  openFixture,
  SECRET_HEADER,
  SECRET_KEY,
  SECRET_QUERY,
} from '../support/storage-fixture';

const officialJson = readFileSync(
  new URL('../fixtures/official-cinderella-tree.json', import.meta.url),
  'utf8',
);

/** The float32 bit patterns of every embedding, for bit-exact comparison. */
const bits = (tree: RaptorTree) =>
  tree.nodes.map((n) => Array.from(new Uint32Array(n.embedding.slice().buffer)));

async function expectNothingWritten(db: AerieDb) {
  const counts = await countRecords(db);
  expect(counts.trees).toBe(0);
  expect(counts.nodes).toBe(0);
}

describe('export and import (fake IndexedDB)', () => {
  it('round-trips a tree bit-exactly, and the file holds no setting or key', async () => {
    const { db, treeId, tree } = await openFixture();
    const json = await exportTree(db, treeId);
    for (const secret of [SECRET_KEY, SECRET_HEADER, SECRET_QUERY, 'llm.example', 'llmEndpoints']) {
      expect(json).not.toContain(secret);
    }
    const parsed = parseTree(json);
    expect(parsed.nodes.map(({ embedding: _e, ...rest }) => rest)).toEqual(
      tree.nodes.map(({ embedding: _e, ...rest }) => rest),
    );
    expect(bits(parsed)).toEqual(bits(tree));

    const other = await openFixture({ empty: true });
    const id = await importTree(other.db, json, { now: 42 });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const loaded = await loadTree(other.db, id);
    expect(loaded).toEqual(parsed);
    expect(bits(loaded)).toEqual(bits(tree));
    expect(await exportTree(other.db, id)).toBe(json);
    const record = await getTree(other.db, id);
    expect(record).toMatchObject({ status: 'ready', origin: 'imported', documentIds: [], updatedAt: 42 });
    expect(record?.documents[0]).not.toHaveProperty('documentId');
  });

  it('stores text containing HTML and <script> verbatim', async () => {
    const { db } = await openFixture({ empty: true });
    const html = '<img src=x onerror="alert(1)"><script>fetch("//evil")</script> & &amp; done.';
    const tree = makeTree({ dim: 4, leaves: 2, text: html });
    const id = await importTree(db, serializeTree(tree));
    const loaded = await loadTree(db, id);
    expect(loaded.nodes.map((n) => n.text)).toEqual(tree.nodes.map((n) => n.text));
    const leaves = loaded.nodes.filter((n) => n.layer === 0);
    expect(leaves.map((n) => n.text).join('')).toBe(html);
  });

  it('imports the official RAPTOR Cinderella tree and records its embedding model', async () => {
    const { db } = await openFixture({ empty: true });
    const id = await importTree(db, officialJson);
    const record = await getTree(db, id);
    const reference = parseTree(officialJson);
    expect(record?.embedding).toEqual({ model: 'openai/text-embedding-ada-002', dim: 1536 });
    expect(record?.stats.nodeCount).toBe(reference.nodes.length);
    expect(record?.stats.bytes).toBeGreaterThan(reference.nodes.length * 1536 * 4);
    const [row] = await listTrees(db);
    expect(row.documents).toEqual([{ name: 'cinderella.txt', chars: 0, textStored: false }]);
    expect(row.origin).toBe('imported');
    const loaded = await loadTree(db, id);
    expect(bits(loaded)).toEqual(bits(reference));
    expect(loaded.nodes.map((n) => n.children)).toEqual(reference.nodes.map((n) => n.children));
  });

  it('writes nothing when a fake full quota fails the import part-way', async () => {
    for (const mode of ['abort', 'throw'] as const) {
      const { db } = await openFixture({ empty: true });
      const json = serializeTree(makeTree({ leaves: 30 }));
      const quota = failNthPut(10, mode);
      let error: unknown;
      try {
        error = await importTree(db, json).catch((e: unknown) => e);
      } finally {
        quota.restore();
      }
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect(quota.puts).toBeGreaterThanOrEqual(10);
      await expectNothingWritten(db);
      // The database is still usable once space is free.
      const id = await importTree(db, json);
      expect((await loadTree(db, id)).nodes).toHaveLength(makeTree({ leaves: 30 }).nodes.length);
    }
  });

  it('refuses files over the size limit before reading them', async () => {
    const { db } = await openFixture({ empty: true });
    expect(() => checkImportSize(600 * 1024 * 1024)).toThrow(/600\.0 MB.*up to 512\.0 MB/);
    expect(() => checkImportSize(1024)).not.toThrow();
    const json = serializeTree(makeTree({ dim: 4 }));
    await expect(importTree(db, json, { maxChars: 100 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expectNothingWritten(db);
  });

  it('the import service (what the import worker runs) reads a file and stores it, or refuses it by its size', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createImportService({ openDb: async () => db });
    const tree = makeTree({ dim: 4 });
    const { id, notes } = await service.importFile(new Blob([serializeTree(tree)]));
    expect(bits(await loadTree(db, id))).toEqual(bits(tree));
    expect(notes).toEqual([]);
    // A file over the limit is refused from its size: a Blob whose text() would throw is never read.
    const huge = {
      size: 600 * 1024 * 1024,
      text: () => Promise.reject(new Error('read')),
    } as unknown as Blob;
    await expect(service.importFile(huge)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect((await countRecords(db)).trees).toBe(1);
  });
});

type Mutation = (tree: Record<string, unknown> & { nodes: Record<string, unknown>[] }) => void;

const base = () => JSON.parse(serializeTree(makeTree({ dim: 4 }))) as Parameters<Mutation>[0];
const mutate = (change: Mutation) => {
  const tree = base();
  change(tree);
  return JSON.stringify(tree);
};

/** [case, file, code, text the message must contain (the JSON path first)] */
const HOSTILE: [string, () => string, string, string][] = [
  ['not JSON', () => '{"format": "raptor-tree", ', 'INVALID_IMPORT', 'not valid JSON'],
  ['another format', () => mutate((t) => (t.format = 'something-else')), 'INVALID_IMPORT', 'format:'],
  ['a newer version', () => mutate((t) => (t.version = 2)), 'INVALID_IMPORT', 'version:'],
  [
    'a title of the wrong type',
    () => mutate((t) => (t.title = 5)),
    'INVALID_IMPORT',
    'title: expected a string',
  ],
  [
    'a node text of the wrong type',
    () => mutate((t) => (t.nodes[2].text = { html: 1 })),
    'INVALID_IMPORT',
    'nodes[2].text',
  ],
  ['a huge node array', () => mutate((t) => (t.nodes = new Array(1_000_001).fill(0))), 'TOO_LARGE', 'nodes:'],
  [
    'a huge dimension',
    () => mutate((t) => (t.embedding = { model: 'm', dim: 1_000_000 })),
    'TOO_LARGE',
    'embedding.dim',
  ],
  [
    'a child id out of range',
    () => mutate((t) => ((t.nodes[12].children as number[])[0] = 57)),
    'INVALID_IMPORT',
    'nodes[12].children[0]',
  ],
  [
    'a node that is its own child',
    () => mutate((t) => ((t.nodes[13].children as number[])[0] = 13)),
    'INVALID_IMPORT',
    'nodes[13].children[0]',
  ],
  [
    'a cycle through a later node',
    () => mutate((t) => ((t.nodes[12].children as number[])[0] = 15)),
    'INVALID_IMPORT',
    'nodes[12].children[0]',
  ],
  [
    'an embedding of the wrong dimension',
    () => mutate((t) => (t.nodes[3].embedding = [1, 2, 3])),
    'INVALID_IMPORT',
    'nodes[3].embedding',
  ],
  [
    'base64 of the wrong length',
    () => mutate((t) => (t.nodes[3].embedding = 'AAAA')),
    'INVALID_IMPORT',
    'nodes[3].embedding',
  ],
  [
    'a float that overflows float32',
    () => mutate((t) => (t.nodes[1].embedding = [1e39, 0, 0, 0])),
    'INVALID_IMPORT',
    'nodes[1].embedding[0]',
  ],
  [
    'a source in an unlisted document',
    () => mutate((t) => ((t.nodes[0].source as { doc: string }).doc = 'ghost')),
    'INVALID_IMPORT',
    'nodes[0].source.doc',
  ],
  ['no nodes', () => mutate((t) => (t.nodes = [])), 'INVALID_IMPORT', 'nodes:'],
  [
    'a prototype-polluting key',
    () => serializeTree(makeTree({ dim: 4 })).replace('{"format"', '{"__proto__":{"polluted":1},"format"'),
    'INVALID_IMPORT',
    '__proto__',
  ],
];

describe('hostile or broken files (fake IndexedDB)', () => {
  it.each(HOSTILE)(
    'refuses %s with a message naming the problem, writing nothing',
    async (_name, file, code, text) => {
      const { db } = await openFixture({ empty: true });
      const error = await importTree(db, file()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code });
      expect((error as Error).message).toContain(text);
      await expectNothingWritten(db);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});
