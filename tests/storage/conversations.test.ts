import { describe, expect, it } from 'vitest';
import {
  conversationTitle,
  deleteConversation,
  deleteConversations,
  deleteTree,
  getConversation,
  getTurns,
  listConversations,
  MAX_CONVERSATION_TURNS,
  moveTreeHistory,
  saveTurn,
  startConversation,
  type ConversationTurn,
} from '../../src/storage';
import { countPuts, failNthPut, openFixture, recordTree } from '../support/storage-fixture';

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

/** Starts conversation `id` (as the page does when its first question is asked) and stores `turns` in it. */
async function conversationWith(
  db: Awaited<ReturnType<typeof openFixture>>['db'],
  treeId: string,
  id: string,
  turns: ConversationTurn[],
  now = 1,
) {
  await recordTree(db, treeId);
  await startConversation(db, treeId, id, turns[0]?.question ?? 'Q', now);
  for (const t of turns) await saveTurn(db, treeId, id, t, now);
}

describe('conversations (fake IndexedDB)', () => {
  it('starts a conversation, appends turns and survives a new connection', async () => {
    const { db, open, treeId } = await openFixture();
    const started = await startConversation(db, treeId, 'c1', 'Who helped Cinderella?', 100);
    expect(started).toMatchObject({
      id: 'c1',
      treeId,
      kind: 'conversation',
      title: 'Who helped Cinderella?',
      turnCount: 0,
    });
    const first = await saveTurn(db, treeId, 'c1', turn('t1', 'Who helped Cinderella?'), 150);
    expect(first).toMatchObject({ seq: 0, conversation: { turnCount: 1, createdAt: 100, updatedAt: 150 } });
    await saveTurn(
      db,
      treeId,
      'c1',
      turn('t2', 'And then?', { search: 'Who helped Cinderella? And then?', rewrite: 'joined' }),
      200,
    );
    db.close();
    const again = await open();
    expect(await getConversation(again, 'c1')).toMatchObject({
      createdAt: 100,
      updatedAt: 200,
      turnCount: 2,
    });
    const stored = await getTurns(again, 'c1');
    expect(stored.map((t) => [t.id, t.search, t.rewrite])).toEqual([
      ['t1', 'Who helped Cinderella?', 'none'],
      ['t2', 'Who helped Cinderella? And then?', 'joined'],
    ]);
    expect(stored[0].passages[0]).toEqual({ id: 3, layer: 1, text: 'A summary.' });
    expect(stored[0]).toEqual(turn('t1', 'Who helped Cinderella?'));
  });

  it('never re-creates a conversation that does not exist (deleted while a question was answered)', async () => {
    const { db, treeId } = await openFixture();
    await expect(saveTurn(db, treeId, 'never-started', turn('t1', 'Q'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await conversationWith(db, treeId, 'c1', [turn('t1', 'Q1')]);
    await deleteConversation(db, 'c1');
    await expect(saveTurn(db, treeId, 'c1', turn('t2', 'Q2'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await getConversation(db, 'c1')).toBeUndefined();
    expect(await getTurns(db, 'c1')).toEqual([]);
    expect(await listConversations(db, treeId)).toEqual([]);
  });

  it('writes only the new turn and the conversation record, however long the conversation', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(
      db,
      treeId,
      'long',
      Array.from({ length: 50 }, (_, i) => turn(`t${i}`, `Question ${i}?`)),
    );
    const puts = countPuts();
    try {
      await saveTurn(db, treeId, 'long', turn('t50', 'One more?'));
    } finally {
      puts.restore();
    }
    expect(puts.stores.sort()).toEqual(['conversations', 'turns']);
    expect((await getConversation(db, 'long'))?.turnCount).toBe(51);
  });

  it('reads a page of turns by their place', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(
      db,
      treeId,
      'c1',
      Array.from({ length: 30 }, (_, i) => turn(`t${i}`, `Question ${i}?`)),
    );
    expect((await getTurns(db, 'c1', 25)).map((t) => t.id)).toEqual(['t25', 't26', 't27', 't28', 't29']);
    expect((await getTurns(db, 'c1', 10, 13)).map((t) => t.id)).toEqual(['t10', 't11', 't12']);
    expect(await getTurns(db, 'c1', 40)).toEqual([]);
  });

  it('replaces a turn saved again under its id (an answer that finished after a first save)', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(db, treeId, 'c1', [
      turn('t1', 'Q', { answer: { text: 'Part', citations: [], error: 'Stopped.' } }),
      turn('t2', 'Q2'),
    ]);
    await saveTurn(db, treeId, 'c1', turn('t1', 'Q'));
    const stored = await getTurns(db, 'c1');
    expect(stored.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(stored[0].answer?.text).toBe('It is so [1].');
    expect((await getConversation(db, 'c1'))?.turnCount).toBe(2);
  });

  it('bounds a conversation at MAX_CONVERSATION_TURNS, with a sentence', async () => {
    const { db, treeId } = await openFixture();
    await startConversation(db, treeId, 'full', 'Q');
    const record = await getConversation(db, 'full');
    // As if it held the most turns one keeps (writing 5,000 turns here would only slow the test).
    await db.put('conversations', { ...record!, turnCount: MAX_CONVERSATION_TURNS });
    const error = await saveTurn(db, treeId, 'full', turn('t', 'Q')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TOO_LARGE' });
    expect(String((error as Error).message)).toMatch(/holds 5,000 questions, the most one keeps/);
  });

  it('lists a tree’s conversations, most recent first, and only that tree’s', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(db, treeId, 'old', [turn('t', 'First')], 10);
    await conversationWith(db, treeId, 'new', [turn('t', 'Second')], 20);
    await conversationWith(db, 'another-tree', 'other', [turn('t', 'Elsewhere')], 30);
    expect((await listConversations(db, treeId)).map((c) => c.id)).toEqual(['new', 'old']);
    await saveTurn(db, treeId, 'old', turn('t2', 'Again'), 40);
    expect((await listConversations(db, treeId)).map((c) => [c.id, c.turnCount])).toEqual([
      ['old', 2],
      ['new', 1],
    ]);
  });

  it('refuses to add a turn to another tree’s conversation, and turns without ids', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(db, 'another-tree', 'c1', [turn('t', 'Q')]);
    await expect(saveTurn(db, treeId, 'c1', turn('t2', 'Q'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(startConversation(db, treeId, 'c1', 'Q')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await startConversation(db, treeId, 'c2', 'Q');
    await expect(saveTurn(db, treeId, 'c2', turn('', 'Q'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('deletes one conversation, all of a tree’s, and all of them with the tree, turns included', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(db, treeId, 'a', [turn('t', 'A'), turn('t2', 'A2')]);
    await conversationWith(db, treeId, 'b', [turn('t', 'B')]);
    await conversationWith(db, treeId, 'c', [turn('t', 'C')]);
    await conversationWith(db, 'another-tree', 'x', [turn('t', 'X')]);
    await deleteConversation(db, 'a');
    expect((await listConversations(db, treeId)).map((c) => c.id).sort()).toEqual(['b', 'c']);
    expect(await getTurns(db, 'a')).toEqual([]);
    expect(await deleteConversations(db, treeId)).toBe(2);
    expect(await listConversations(db, treeId)).toEqual([]);
    await conversationWith(db, treeId, 'd', [turn('t', 'D')]);
    await deleteTree(db, treeId);
    expect(await getConversation(db, 'd')).toBeUndefined();
    expect(await getConversation(db, 'x')).toBeDefined();
    // Only the bystander's turn is left.
    expect(await db.count('turns')).toBe(1);
  });

  it('a full disk fails the save with QUOTA_EXCEEDED and keeps what was stored', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(db, treeId, 'c1', [turn('t1', 'Q1')]);
    const quota = failNthPut(1);
    try {
      await expect(saveTurn(db, treeId, 'c1', turn('t2', 'Q2'))).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
      });
    } finally {
      quota.restore();
    }
    expect((await getTurns(db, 'c1')).map((t) => t.id)).toEqual(['t1']);
    expect((await getConversation(db, 'c1'))?.turnCount).toBe(1);
  });
});

describe('moveTreeHistory (adding documents builds a new tree and deletes the old one)', () => {
  it('moves the conversations to the new tree, so deleting the old one keeps them', async () => {
    const { db, treeId } = await openFixture();
    await conversationWith(db, treeId, 'a', [turn('t', 'A')]);
    await conversationWith(db, treeId, 'b', [turn('t', 'B')]);
    await conversationWith(db, 'bystander', 'x', [turn('t', 'X')]);
    await expect(moveTreeHistory(db, treeId, 'rebuilt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await recordTree(db, 'rebuilt');
    expect(await moveTreeHistory(db, treeId, 'rebuilt')).toBe(2);
    await deleteTree(db, treeId);
    expect((await listConversations(db, 'rebuilt')).map((c) => c.id).sort()).toEqual(['a', 'b']);
    expect((await getTurns(db, 'a'))[0].treeStamp).toBe('stamp-1');
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
