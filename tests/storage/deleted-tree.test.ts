/**
 * Nothing of a deleted tree comes back (issue 41, point 3): with two connections to one FAKE IndexedDB (two
 * "tabs"), one deletes the tree while the other still has work running on it; every late write the other makes
 * for that tree — a new conversation, a turn, a question set, an evaluation run, a model reply for its cache,
 * labels, build progress, its history moved onto it — fails with NOT_FOUND, checked in the transaction that
 * would write it, and afterwards no record of the tree is left in any store.
 */
import { describe, expect, it } from 'vitest';
import type { EvalChat } from '../../src/core/eval';
import { cachedEvalChat } from '../../src/pipeline/cached-results';
import {
  countRecords,
  deleteTree,
  keepOriginals,
  moveTreeHistory,
  recordProgress,
  saveEvalRun,
  saveEvalSet,
  saveNodeLabels,
  saveTurn,
  startConversation,
  type ConversationTurn,
  type EvalRunRecord,
  type EvalSetRecord,
} from '../../src/storage';
import { openFixture, recordTree } from '../support/storage-fixture';

const turn: ConversationTurn = {
  id: 't1',
  question: 'Who lost a slipper?',
  search: 'Who lost a slipper?',
  rewrite: 'none',
  askedAt: 1,
  settings: { mode: 'collapsed', search: 'meaning', rerank: false, distinct: false, maxTokens: 2000 },
  retrieved: { collapsed: [0] },
  passages: [{ id: 0, layer: 0, text: 'Sentence 0.' }],
  answer: { text: 'She did [1].', citations: [{ n: 1, nodeId: 0 }] },
  treeStamp: 'stamp',
};

const evalSet = (treeId: string): EvalSetRecord => ({
  id: 'set-1',
  treeId,
  kind: 'eval-set',
  name: 'Generated',
  source: 'generated',
  questions: [{ question: 'Who?' }],
  createdAt: 1,
  updatedAt: 1,
});

const evalRun = (treeId: string): EvalRunRecord => ({
  id: 'run-1',
  treeId,
  kind: 'eval-run',
  createdAt: 1,
  updatedAt: 1,
  setId: 'set-1',
  setName: 'Generated',
  questions: [{ question: 'Who?' }],
  options: { searches: ['meaning'], maxTokens: 2000, traversalTopK: 5, answers: true, judge: false },
  tree: { title: 't', embedding: 'fake', summarizer: 'llm', nodes: 15, createdAt: '2026-01-01' },
  status: 'running',
});

/** A FAKE model that answers whatever it is asked. */
const fakeChat: EvalChat = async (messages) => `reply to ${messages.at(-1)!.content}`;

describe('a tree deleted in one tab, written to by another (fake IndexedDB, two connections)', () => {
  it('refuses every late write for it, in the transaction that checks it, and keeps nothing of it', async () => {
    const fixture = await openFixture();
    const { treeId } = fixture;
    const other = await fixture.open();
    // The other tab was answering in a conversation and generating questions when the tree was deleted.
    await startConversation(other, treeId, 'c1', 'Who lost a slipper?');
    await saveEvalSet(other, evalSet(treeId));
    const chat = cachedEvalChat(other, fakeChat, 'fake-llm', treeId);
    await chat([{ role: 'user', content: 'first' }], { maxTokens: 10 });
    const before = await countRecords(fixture.db);

    expect(await deleteTree(fixture.db, treeId)).toBe(true);
    const refused = { code: 'NOT_FOUND' };
    await expect(startConversation(other, treeId, 'c2', 'Asked after the delete')).rejects.toMatchObject(
      refused,
    );
    await expect(saveTurn(other, treeId, 'c1', turn)).rejects.toMatchObject(refused);
    await expect(saveEvalSet(other, evalSet(treeId), { update: true })).rejects.toMatchObject(refused);
    await expect(saveEvalSet(other, evalSet(treeId))).rejects.toMatchObject(refused);
    await expect(saveEvalRun(other, evalRun(treeId))).rejects.toMatchObject(refused);
    // A reply that arrives after the delete is not cached for the deleted tree.
    await expect(chat([{ role: 'user', content: 'late' }], { maxTokens: 10 })).rejects.toMatchObject(refused);
    await expect(saveNodeLabels(other, treeId, [{ id: 12, label: ['slipper'] }])).rejects.toMatchObject(
      refused,
    );
    await expect(
      recordProgress(other, treeId, {
        event: { stage: 'embed-leaves', done: 64, total: 200 },
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, requests: 0, unreported: 0 },
        at: 2,
      }),
    ).rejects.toMatchObject(refused);
    await expect(keepOriginals(other, treeId, [])).rejects.toMatchObject(refused);
    await recordTree(other, 'bystander');
    await startConversation(other, 'bystander', 'b1', 'Elsewhere');
    await expect(moveTreeHistory(other, 'bystander', treeId)).rejects.toMatchObject(refused);

    // Nothing of the deleted tree is left, whoever wrote last; the bystander's records are untouched.
    const after = await countRecords(fixture.db);
    expect(before.trees).toBe(1);
    expect(before.conversations).toBe(1);
    expect(before.evalSets).toBe(1);
    expect(before.cache).toBe(1);
    expect(after).toMatchObject({
      trees: 1, // the bystander
      nodes: 0,
      checkpoints: 0,
      conversations: 1, // the bystander's
      turns: 0,
      evalSets: 0,
      evalRuns: 0,
      cache: 0,
    });
  });
});
