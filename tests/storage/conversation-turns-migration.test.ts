/**
 * Schema version 6 (issue 34): a conversation's turns move out of its record into the `turns` store. A version 4
 * database, written in the version 4 shapes, opens with the current code with every conversation intact:
 * same titles, times and turns in the same order, field for field; a failing step leaves version 4 as it was.
 */
import type { IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import {
  DB_VERSION,
  getConversation,
  getTurns,
  listConversations,
  openAerieDb,
  saveTurn,
  StorageError,
  type ConversationTurn,
} from '../../src/storage';
import { failNthPut, openFixture } from '../support/storage-fixture';

const turn = (id: string, question: string, answer?: string): ConversationTurn => ({
  id,
  question,
  search: question,
  rewrite: 'none',
  askedAt: 1_700_000_000_000,
  settings: { mode: 'collapsed', search: 'keywords', rerank: false, distinct: true, maxTokens: 2000 },
  retrieved: { collapsed: [4, 2], leaves: [1] },
  passages: [
    { id: 4, layer: 1, text: 'A summary with <b>HTML</b>.' },
    { id: 2, layer: 0, text: 'A leaf.' },
  ],
  ...(answer ? { answer: { text: answer, citations: [{ n: 1, nodeId: 4 }], writer: 'fake-model' } } : {}),
  treeStamp: '2026-11-01T00:00:00.000Z#16',
});

/** Conversations as version 4 wrote them: every turn inside the record. */
const V4_CONVERSATIONS = [
  {
    id: 'c-long',
    treeId: 'tree-1',
    kind: 'conversation',
    title: 'Who helped Cinderella?',
    createdAt: 10,
    updatedAt: 30,
    turns: Array.from({ length: 12 }, (_, i) => turn(`t${i}`, `Question ${i}?`, `Answer ${i} [1].`)),
  },
  {
    id: 'c-empty',
    treeId: 'tree-1',
    kind: 'conversation',
    title: 'Nothing yet',
    createdAt: 5,
    updatedAt: 5,
    turns: [],
  },
  {
    id: 'c-other',
    treeId: 'tree-2',
    kind: 'conversation',
    title: 'Elsewhere',
    createdAt: 7,
    updatedAt: 8,
    turns: [turn('x', 'Elsewhere?')],
  },
];

async function v4Database(name: string) {
  const { factory } = await openFixture({ empty: true });
  const v4 = (await openAerieDb({ factory, name, version: 4 })) as unknown as IDBPDatabase;
  expect(v4.version).toBe(4);
  expect([...v4.objectStoreNames]).not.toContain('turns');
  for (const record of V4_CONVERSATIONS) await v4.put('conversations', record);
  return { factory, v4 };
}

describe('migration from version 4 (fake IndexedDB)', () => {
  it('moves every turn into the turns store and keeps every conversation intact', async () => {
    const { factory, v4 } = await v4Database('written-by-v4');
    v4.close();

    const db = await openAerieDb({ factory, name: 'written-by-v4' });
    expect(db.version).toBe(DB_VERSION);
    for (const old of V4_CONVERSATIONS) {
      const { turns, ...header } = old;
      expect(await getConversation(db, old.id)).toEqual({ ...header, turnCount: turns.length });
      expect(await getTurns(db, old.id)).toEqual(turns);
    }
    expect((await listConversations(db, 'tree-1')).map((c) => c.id)).toEqual(['c-long', 'c-empty']);
    expect(await db.count('turns')).toBe(13);
    // The migrated conversation goes on: a new turn comes after the old ones.
    const saved = await saveTurn(db, 'tree-1', 'c-long', turn('t12', 'One more?'), 40);
    expect(saved.seq).toBe(12);
    expect((await getTurns(db, 'c-long', 11)).map((t) => t.id)).toEqual(['t11', 't12']);
    db.close();
  });

  it('a full disk during the step aborts it with MIGRATION_FAILED and leaves version 4 as it was', async () => {
    const { factory, v4 } = await v4Database('full-disk-v4');
    v4.close();
    const quota = failNthPut(3);
    let error: unknown;
    try {
      error = await openAerieDb({ factory, name: 'full-disk-v4' }).catch((e: unknown) => e);
    } finally {
      quota.restore();
    }
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'MIGRATION_FAILED', details: { from: 4, failedAt: 6 } });
    expect((error as Error).message).toContain('keep each conversation turn on its own');
    const still = (await openAerieDb({
      factory,
      name: 'full-disk-v4',
      version: 4,
    })) as unknown as IDBPDatabase;
    expect(still.version).toBe(4);
    expect([...still.objectStoreNames]).not.toContain('turns');
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect((await still.getAll('conversations')).sort(byId)).toEqual([...V4_CONVERSATIONS].sort(byId));
    still.close();
    // With room again, the upgrade completes.
    const db = await openAerieDb({ factory, name: 'full-disk-v4' });
    expect((await getConversation(db, 'c-long'))?.turnCount).toBe(12);
    db.close();
  });
});
