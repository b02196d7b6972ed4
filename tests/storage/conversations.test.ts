import { describe, expect, it } from 'vitest';
import {
  conversationTitle,
  deleteConversation,
  deleteConversations,
  deleteTree,
  getConversation,
  listConversations,
  moveTreeHistory,
  saveTurn,
  type ConversationTurn,
} from '../../src/storage';
import { failNthPut, openFixture } from '../support/storage-fixture';

const turn = (id: string, question: string, extra: Partial<ConversationTurn> = {}): ConversationTurn => ({
  id,
  question,
  search: question,
  rewrite: 'none',
  askedAt: 1,
  settings: { mode: 'collapsed', search: 'both', rerank: false, distinct: true, maxTokens: 2000 },
  retrieved: { collapsed: [3, 1] },
  passages: [
    { id: 3, layer: 1, text: 'A summary.' },
    { id: 1, layer: 0, text: 'A leaf.' },
  ],
  answer: { text: 'It is so [1].', citations: [{ n: 1, nodeId: 3 }] },
  treeStamp: 'stamp-1',
  ...extra,
});

describe('conversations (fake IndexedDB)', () => {
  it('creates a conversation with its first turn, appends later ones and survives a new connection', async () => {
    const { db, open, treeId } = await openFixture();
    const first = await saveTurn(db, treeId, 'c1', turn('t1', 'Who helped Cinderella?'), 100);
    expect(first).toMatchObject({ id: 'c1', treeId, kind: 'conversation', title: 'Who helped Cinderella?' });
    expect(first.createdAt).toBe(100);
    await saveTurn(
      db,
      treeId,
      'c1',
      turn('t2', 'And then?', { search: 'Who helped Cinderella? And then?', rewrite: 'joined' }),
      200,
    );
    db.close();
    const again = await open();
    const stored = await getConversation(again, 'c1');
    expect(stored?.turns.map((t) => [t.id, t.search, t.rewrite])).toEqual([
      ['t1', 'Who helped Cinderella?', 'none'],
      ['t2', 'Who helped Cinderella? And then?', 'joined'],
    ]);
    expect(stored).toMatchObject({ createdAt: 100, updatedAt: 200 });
    expect(stored?.turns[0].passages[0]).toEqual({ id: 3, layer: 1, text: 'A summary.' });
  });

  it('replaces a turn saved again under its id (an answer that finished after a first save)', async () => {
    const { db, treeId } = await openFixture();
    await saveTurn(
      db,
      treeId,
      'c1',
      turn('t1', 'Q', { answer: { text: 'Part', citations: [], error: 'Stopped.' } }),
    );
    await saveTurn(db, treeId, 'c1', turn('t1', 'Q'));
    const stored = await getConversation(db, 'c1');
    expect(stored?.turns).toHaveLength(1);
    expect(stored?.turns[0].answer?.text).toBe('It is so [1].');
  });

  it('lists a tree’s conversations, most recent first, and only that tree’s', async () => {
    const { db, treeId } = await openFixture();
    await saveTurn(db, treeId, 'old', turn('t', 'First'), 10);
    await saveTurn(db, treeId, 'new', turn('t', 'Second'), 20);
    await saveTurn(db, 'another-tree', 'other', turn('t', 'Elsewhere'), 30);
    expect((await listConversations(db, treeId)).map((c) => c.id)).toEqual(['new', 'old']);
    await saveTurn(db, treeId, 'old', turn('t2', 'Again'), 40);
    expect((await listConversations(db, treeId)).map((c) => c.id)).toEqual(['old', 'new']);
  });

  it('refuses to add a turn to another tree’s conversation, and turns without ids', async () => {
    const { db, treeId } = await openFixture();
    await saveTurn(db, 'another-tree', 'c1', turn('t', 'Q'));
    await expect(saveTurn(db, treeId, 'c1', turn('t2', 'Q'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(saveTurn(db, treeId, 'c2', turn('', 'Q'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('deletes one conversation, all of a tree’s, and all of them with the tree', async () => {
    const { db, treeId } = await openFixture();
    await saveTurn(db, treeId, 'a', turn('t', 'A'));
    await saveTurn(db, treeId, 'b', turn('t', 'B'));
    await saveTurn(db, treeId, 'c', turn('t', 'C'));
    await saveTurn(db, 'another-tree', 'x', turn('t', 'X'));
    await deleteConversation(db, 'a');
    expect((await listConversations(db, treeId)).map((c) => c.id).sort()).toEqual(['b', 'c']);
    expect(await deleteConversations(db, treeId)).toBe(2);
    expect(await listConversations(db, treeId)).toEqual([]);
    await saveTurn(db, treeId, 'd', turn('t', 'D'));
    await deleteTree(db, treeId);
    expect(await getConversation(db, 'd')).toBeUndefined();
    expect(await getConversation(db, 'x')).toBeDefined();
  });

  it('a full disk fails the save with QUOTA_EXCEEDED and keeps what was stored', async () => {
    const { db, treeId } = await openFixture();
    await saveTurn(db, treeId, 'c1', turn('t1', 'Q1'));
    const quota = failNthPut(1);
    try {
      await expect(saveTurn(db, treeId, 'c1', turn('t2', 'Q2'))).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
      });
    } finally {
      quota.restore();
    }
    expect((await getConversation(db, 'c1'))?.turns.map((t) => t.id)).toEqual(['t1']);
  });
});

describe('moveTreeHistory (adding documents builds a new tree and deletes the old one)', () => {
  it('moves the conversations to the new tree, so deleting the old one keeps them', async () => {
    const { db, treeId } = await openFixture();
    await saveTurn(db, treeId, 'a', turn('t', 'A'));
    await saveTurn(db, treeId, 'b', turn('t', 'B'));
    await saveTurn(db, 'bystander', 'x', turn('t', 'X'));
    expect(await moveTreeHistory(db, treeId, 'rebuilt')).toBe(2);
    await deleteTree(db, treeId);
    expect((await listConversations(db, 'rebuilt')).map((c) => c.id).sort()).toEqual(['a', 'b']);
    expect((await getConversation(db, 'a'))?.turns[0].treeStamp).toBe('stamp-1');
    expect((await listConversations(db, 'bystander')).map((c) => c.id)).toEqual(['x']);
  });
});

describe('conversationTitle', () => {
  it('is the first line of the first question, cut at a word after 80 characters', () => {
    expect(conversationTitle('  Who?\nMore lines')).toBe('Who?');
    const long = 'word '.repeat(40);
    const title = conversationTitle(long);
    expect(title.endsWith('…')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(81);
    expect(title).toBe(`${'word '.repeat(16).trim()}…`);
  });
});
