import { describe, expect, it } from 'vitest';
import type { EvalChat } from '../../src/core/eval';
import {
  countRecords,
  deleteEvalRun,
  deleteEvalSet,
  deleteTree,
  getEvalRun,
  listAllEvalRuns,
  listAllEvalSets,
  listEvalRuns,
  listEvalSets,
  saveEvalRun,
  saveEvalSet,
  type EvalRunRecord,
  type EvalSetRecord,
} from '../../src/storage';
import { cachedEvalChat } from '../../src/pipeline/cached-results';
import { failNthPut, openFixture, recordTree } from '../support/storage-fixture';

const set = (id: string, treeId: string, updatedAt: number): EvalSetRecord => ({
  id,
  treeId,
  kind: 'eval-set',
  createdAt: 1,
  updatedAt,
  name: `set ${id}`,
  source: 'typed',
  questions: [{ question: 'Who?', evidence: ['slippers'] }],
});

const run = (id: string, treeId: string, updatedAt: number): EvalRunRecord => ({
  id,
  treeId,
  kind: 'eval-run',
  createdAt: 1,
  updatedAt,
  setId: 's1',
  setName: 'set s1',
  questions: [{ question: 'Who?' }],
  options: { searches: ['meaning'], maxTokens: 2000, traversalTopK: 5, answers: false, judge: false },
  tree: { title: 't', embedding: 'fake', summarizer: 'extractive', nodes: 15, createdAt: '2026-01-01' },
  status: 'running',
  progress: { stage: 'embed', done: 0, total: 1 },
});

describe('evaluation sets and runs', () => {
  it('keeps sets and runs per tree, newest first, and replaces a record saved again', async () => {
    const { db, treeId } = await openFixture();
    await saveEvalSet(db, set('a', treeId, 10));
    await saveEvalSet(db, set('b', treeId, 20));
    await recordTree(db, 'other-tree');
    await saveEvalSet(db, set('c', 'other-tree', 30));
    expect((await listEvalSets(db, treeId)).map((s) => s.id)).toEqual(['b', 'a']);
    expect((await listAllEvalSets(db)).map((s) => s.id)).toEqual(['c', 'b', 'a']);
    await saveEvalSet(db, { ...set('a', treeId, 40), name: 'renamed' });
    expect((await listEvalSets(db, treeId)).map((s) => [s.id, s.name])).toEqual([
      ['a', 'renamed'],
      ['b', 'set b'],
    ]);
    await deleteEvalSet(db, 'b');
    expect((await listEvalSets(db, treeId)).map((s) => s.id)).toEqual(['a']);

    await saveEvalRun(db, run('r1', treeId, 5));
    await saveEvalRun(db, { ...run('r1', treeId, 6), status: 'done', progress: undefined });
    await saveEvalRun(db, run('r2', treeId, 7));
    expect((await listEvalRuns(db, treeId)).map((r) => [r.id, r.status])).toEqual([
      ['r2', 'running'],
      ['r1', 'done'],
    ]);
    expect((await getEvalRun(db, 'r1'))?.status).toBe('done');
    await deleteEvalRun(db, 'r2');
    expect((await listAllEvalRuns(db)).map((r) => r.id)).toEqual(['r1']);
    expect(await getEvalRun(db, 'r2')).toBeUndefined();
  });

  it('refuses a set or run whose tree was deleted meanwhile, and deleting the tree deletes its history', async () => {
    const { db, treeId } = await openFixture();
    await saveEvalSet(db, set('a', treeId, 1));
    await saveEvalRun(db, run('r1', treeId, 1));
    await expect(saveEvalRun(db, run('gone', 'no-such-tree', 1))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await getEvalRun(db, 'gone')).toBeUndefined();
    expect(await deleteTree(db, treeId)).toBe(true);
    expect(await listEvalSets(db, treeId)).toEqual([]);
    expect(await listEvalRuns(db, treeId)).toEqual([]);
    // A late write of the deleted tree's set or run (another tab's generation or run) is refused.
    await expect(saveEvalSet(db, set('a', treeId, 2))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(saveEvalRun(db, run('r1', treeId, 2))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await listAllEvalSets(db)).toEqual([]);
    expect(await listAllEvalRuns(db)).toEqual([]);
  });

  it('does not create again a set or run deleted meanwhile (in another tab) when it is updated', async () => {
    const { db, treeId } = await openFixture();
    await saveEvalSet(db, set('g', treeId, 1));
    await saveEvalSet(db, set('g', treeId, 2), { update: true });
    await deleteEvalSet(db, 'g');
    await expect(saveEvalSet(db, set('g', treeId, 3), { update: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await listEvalSets(db, treeId)).toEqual([]);
    await saveEvalRun(db, run('r', treeId, 1));
    await deleteEvalRun(db, 'r');
    await expect(saveEvalRun(db, run('r', treeId, 2), { update: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await getEvalRun(db, 'r')).toBeUndefined();
  });

  it('refuses records without an id or a tree', async () => {
    const { db, treeId } = await openFixture();
    await expect(saveEvalSet(db, set('', treeId, 1))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(saveEvalRun(db, run('r', '', 1))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('reports a full disk as QUOTA_EXCEEDED and keeps the earlier version', async () => {
    const { db, treeId } = await openFixture();
    await saveEvalRun(db, run('r1', treeId, 1));
    const quota = failNthPut(1);
    try {
      await expect(saveEvalRun(db, { ...run('r1', treeId, 2), status: 'done' })).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
      });
    } finally {
      quota.restore();
    }
    expect((await getEvalRun(db, 'r1'))?.status).toBe('running');
  });
});

describe('cachedEvalChat', () => {
  /** FAKE model: numbered replies, every call recorded; blank for a message asking for nothing. */
  function fakeChat(calls: string[]): EvalChat {
    return async (messages) => {
      const user = messages[messages.length - 1].content;
      calls.push(user);
      return user === 'blank' ? '  ' : `reply ${calls.length} to ${user}`;
    };
  }
  const ask = (content: string) => [{ role: 'user' as const, content }];

  it('pays once per request: the same messages, model and limit come from the cache, across wrappers', async () => {
    const { db, treeId } = await openFixture();
    const calls: string[] = [];
    const first = cachedEvalChat(db, fakeChat(calls), 'openai:gpt', treeId);
    expect(await first(ask('a'), { maxTokens: 10 })).toBe('reply 1 to a');
    expect(await first(ask('a'), { maxTokens: 10 })).toBe('reply 1 to a');
    expect(first.stats).toEqual({ hits: 1, misses: 1 });
    // A resumed run wraps the model again: still no second call.
    const again = cachedEvalChat(db, fakeChat(calls), 'openai:gpt', treeId);
    expect(await again(ask('a'), { maxTokens: 10 })).toBe('reply 1 to a');
    expect(calls).toEqual(['a']);
    // Another model, limit, role or message is another request.
    await again(ask('a'), { maxTokens: 11 });
    await cachedEvalChat(db, fakeChat(calls), 'openai:other', treeId)(ask('a'), { maxTokens: 10 });
    await again([{ role: 'system', content: 'a' }], { maxTokens: 10 });
    expect(calls).toHaveLength(4);
  });

  it('does not keep blank replies or failures, and is deleted with its tree', async () => {
    const { db, treeId } = await openFixture();
    const calls: string[] = [];
    const chat = cachedEvalChat(db, fakeChat(calls), 'm', treeId);
    await chat(ask('blank'), { maxTokens: 5 });
    await chat(ask('blank'), { maxTokens: 5 });
    expect(calls).toEqual(['blank', 'blank']);
    const failing = cachedEvalChat(
      db,
      async () => {
        throw new Error('down');
      },
      'm',
      treeId,
    );
    await expect(failing(ask('x'), { maxTokens: 5 })).rejects.toThrow('down');
    await chat(ask('kept'), { maxTokens: 5 });
    const before = (await countRecords(db)).cache;
    await deleteTree(db, treeId);
    expect((await countRecords(db)).cache).toBe(before - 1);
  });

  it('does not call the model once cancelled', async () => {
    const { db, treeId } = await openFixture();
    const calls: string[] = [];
    const controller = new AbortController();
    controller.abort();
    await expect(
      cachedEvalChat(db, fakeChat(calls), 'm', treeId)(ask('a'), { maxTokens: 5, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toEqual([]);
  });

  it('shares one call between identical requests in flight at once, and calls again once it has failed', async () => {
    const { db, treeId } = await openFixture();
    const calls: string[] = [];
    const chat = cachedEvalChat(db, fakeChat(calls), 'm', treeId);
    // Two modes that retrieved the same context ask together: one call, both get its reply.
    const replies = await Promise.all([chat(ask('a'), { maxTokens: 5 }), chat(ask('a'), { maxTokens: 5 })]);
    expect(replies).toEqual(['reply 1 to a', 'reply 1 to a']);
    expect(calls).toEqual(['a']);
    expect(chat.stats).toEqual({ hits: 1, misses: 1 });
    // A failed call is not shared as a reply: the one waiting on it calls the model itself.
    let failures = 1;
    const flaky: EvalChat = async (messages, options) => {
      if (failures-- > 0) throw new Error('down');
      return fakeChat(calls)(messages, options);
    };
    const second = cachedEvalChat(db, flaky, 'm', treeId);
    const both = await Promise.allSettled([
      second(ask('b'), { maxTokens: 5 }),
      second(ask('b'), { maxTokens: 5 }),
    ]);
    // Which of the two goes first is the order their hashes (crypto.subtle, asynchronous) resolve in: one fails,
    // the other calls again and is answered.
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(calls).toEqual(['a', 'b']);
  });
});
