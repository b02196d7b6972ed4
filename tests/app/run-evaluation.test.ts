/**
 * An evaluation run in the page's own code (src/app/eval/run-evaluation.ts) over FAKE IndexedDB with a FAKE
 * embedder and a FAKE answering model behind the real answer cache: stored as it goes, stopped and resumed
 * without paying twice for an answer, failures kept with what was done.
 */
import { DEFAULT_SEARCH } from '../../src/core/search';
import { describe, expect, it } from 'vitest';
import type { EvalChat } from '../../src/core/eval';
import { answerableCount, executeRun, newRun } from '../../src/app/eval/run-evaluation';
import { runStatusText } from '../../src/app/eval/RunsList';
import { getEvalRun, type AerieDb } from '../../src/storage';
import { cachedEvalChat } from '../../src/pipeline/cached-results';
import type { EvalRunRecord } from '../../src/storage';
import { openFixture } from '../support/storage-fixture';

const QUESTIONS = [
  { question: 'Which slippers?', evidence: ['slippers'], answer: 'glass slippers' },
  { question: 'When is the ball?', evidence: ['at midnight'], answer: 'at midnight' },
  { question: 'Pick one', choices: ['pumpkins', 'mice'], gold: 0 },
  { question: 'Unscored and unanswered' },
];
const OPTIONS = {
  // The default search's modes are the ones answered by default (`defaultAnswerKeys`).
  searches: [DEFAULT_SEARCH],
  maxTokens: 60,
  traversalTopK: 2,
  answers: true,
  judge: true,
};

/** FAKE embedder: every question gets the same unit vector (retrieval is then deterministic). */
const embedQuery = async (texts: string[]) =>
  texts.map(() => Float32Array.from({ length: 8 }, (_, i) => (i === 0 ? 1 : 0)));

/** FAKE model: a verdict for judge requests, the first passage's first words otherwise; counts its calls. */
function fakeModel(onCall: (n: number) => void = () => {}): EvalChat & { calls: number } {
  const chat = async (messages: Parameters<EvalChat>[0]) => {
    chat.calls++;
    onCall(chat.calls);
    const user = messages[1].content;
    if (user.startsWith('Question:')) return 'CORRECT';
    if (user.includes('Options:')) return 'A';
    return /^\[1\] (\S+ \S+ \S+)/m.exec(user)?.[1] ?? 'no passage';
  };
  chat.calls = 0;
  return chat;
}

async function start(db: AerieDb, treeId: string, tree: Parameters<typeof newRun>[3]) {
  return newRun('run-1', treeId, { id: 'set-1', name: 'set', questions: QUESTIONS }, tree, OPTIONS, 1000);
}

describe('executeRun', () => {
  it('retrieves, answers and judges, storing the run as it goes', async () => {
    const { db, treeId, tree } = await openFixture();
    const model = fakeModel();
    const seen: string[] = [];
    const run = await executeRun(await start(db, treeId, tree), {
      db,
      tree,
      embedQuery,
      connectModel: async () => ({ chat: cachedEvalChat(db, model, 'fake', treeId), name: 'fake model' }),
      signal: new AbortController().signal,
      onUpdate: (r) => seen.push(`${r.status}:${r.progress?.stage}`),
    });
    expect(run.status).toBe('done');
    expect(run.answerModel).toBe('fake model');
    expect(await getEvalRun(db, 'run-1')).toEqual(run);
    expect(seen[0]).toBe('running:embed');
    expect(seen).toContain('running:answer');
    expect(seen.at(-1)).toBe('done:answer');
    // 3 answerable questions × 3 modes, a verdict for each of the 2 free answers.
    expect(answerableCount(QUESTIONS)).toBe(3);
    const answered = Object.values(run.report!.modes).map((m) => m.answers);
    // The three modes answer; plain BM25 over the leaves, the reference beside them, only retrieves.
    expect(answered.map((a) => a?.answered)).toEqual([3, 3, 3, undefined]);
    expect(answered.map((a) => a?.accuracy)).toEqual([1, 1, 1, undefined]);
    expect(answered.map((a) => a?.judge)).toEqual([1, 1, 1, undefined]);
    // Identical contexts ask identical questions: the cache answers those, so at most 3 × (3 + 2) calls.
    expect(model.calls).toBeGreaterThan(0);
    expect(model.calls).toBeLessThanOrEqual(15);
    expect(run.report!.tree.nodes).toBe(tree.nodes.length);
  });

  it('stops when cancelled, keeps the retrieval, and resumes without paying twice for an answer', async () => {
    // The calls one uninterrupted run makes, on a database of its own.
    const reference = await openFixture();
    const whole = fakeModel();
    await executeRun(await start(reference.db, reference.treeId, reference.tree), {
      db: reference.db,
      tree: reference.tree,
      embedQuery,
      connectModel: async () => ({
        chat: cachedEvalChat(reference.db, whole, 'fake', reference.treeId),
        name: 'm',
      }),
      signal: new AbortController().signal,
      onUpdate: () => {},
    });

    const { db, treeId, tree } = await openFixture();
    const controller = new AbortController();
    const first = fakeModel((n) => n === 3 && controller.abort());
    const stopped = await executeRun(await start(db, treeId, tree), {
      db,
      tree,
      embedQuery,
      connectModel: async () => ({ chat: cachedEvalChat(db, first, 'fake', treeId), name: 'm' }),
      signal: controller.signal,
      onUpdate: () => {},
    });
    expect(stopped.status).toBe('stopped');
    expect(stopped.report?.questions).toBe(4);
    expect(Object.values(stopped.report!.modes).every((m) => m.answers === undefined)).toBe(true);
    expect((await getEvalRun(db, 'run-1'))?.status).toBe('stopped');

    const second = fakeModel();
    const resumed = await executeRun(stopped, {
      db,
      tree,
      embedQuery,
      connectModel: async () => ({ chat: cachedEvalChat(db, second, 'fake', treeId), name: 'm' }),
      signal: new AbortController().signal,
      onUpdate: () => {},
    });
    expect(resumed.status).toBe('done');
    // Calls answered before the stop came from the cache: the two runs together paid what one run pays.
    expect(first.calls + second.calls).toBe(whole.calls);
    expect(first.calls).toBeGreaterThanOrEqual(3);
    expect(second.calls).toBeGreaterThan(0);
  });

  it('a reload mid-answering finds how far it got (never "0 / 0"), and the resume says what came from the cache', async () => {
    const { db, treeId, tree } = await openFixture();
    // A clock the test moves: each model call takes 1 s, so the run is stored every other call. Modes that
    // retrieved the same context share one call (cachedEvalChat), so the run makes 5 calls: look at the 4th.
    let clock = 10_000;
    let stored: EvalRunRecord | undefined;
    const slow = fakeModel((n) => {
      clock += 1_000;
      if (n === 4) void getEvalRun(db, 'run-1').then((r) => (stored = r));
    });
    const first = await executeRun(await start(db, treeId, tree), {
      db,
      tree,
      embedQuery,
      connectModel: async () => ({ chat: cachedEvalChat(db, slow, 'fake', treeId), name: 'm' }),
      signal: new AbortController().signal,
      onUpdate: () => {},
      now: () => clock,
    });
    expect(first.status).toBe('done');
    // What a page opened mid-run (a reload) read from storage: the answering stage, its total, some done.
    expect(stored?.status).toBe('running');
    expect(stored?.progress?.stage).toBe('answer');
    const total = first.progress!.total;
    expect(total).toBeGreaterThan(0);
    expect(stored?.progress?.total).toBe(total);
    expect(stored?.progress?.done).toBeGreaterThan(0);
    expect(stored?.progress?.done).toBeLessThan(total);
    expect(runStatusText({ ...stored!, status: 'stopped' })).toBe(
      `Stopped at answering ${stored!.progress!.done} / ${total}`,
    );

    // Run again: every reply comes from the cache, and the progress says so.
    const again = fakeModel();
    const seen: string[] = [];
    const rerun = await executeRun(first, {
      db,
      tree,
      embedQuery,
      connectModel: async () => {
        const chat = cachedEvalChat(db, again, 'fake', treeId);
        return { chat, stats: chat.stats, name: 'm' };
      },
      signal: new AbortController().signal,
      onUpdate: (r) => seen.push(runStatusText(r)),
      now: () => (clock += 200),
    });
    expect(again.calls).toBe(0);
    expect(rerun.progress).toMatchObject({ stage: 'answer', done: total, total, cached: total });
    expect(seen.at(-1)).toBe('Done');
    expect(seen).toContain(`Answering ${total} / ${total} (${total} from earlier replies)`);
  });

  it('keeps the retrieval and the reason when the answering model fails', async () => {
    const { db, treeId, tree } = await openFixture();
    const failing: EvalChat = async () => {
      throw new Error('The endpoint answered 503 Service Unavailable.');
    };
    const run = await executeRun(await start(db, treeId, tree), {
      db,
      tree,
      embedQuery,
      connectModel: async () => ({ chat: failing, name: 'm' }),
      signal: new AbortController().signal,
      onUpdate: () => {},
    });
    expect(run).toMatchObject({ status: 'failed', error: 'The endpoint answered 503 Service Unavailable.' });
    expect(run.report?.scored).toBe(2);
    expect(await getEvalRun(db, 'run-1')).toMatchObject({ status: 'failed' });
  });

  it('finishes after retrieval when it does not answer, and records the tree as it was', async () => {
    const { db, treeId, tree } = await openFixture();
    const record: EvalRunRecord = newRun(
      'r',
      treeId,
      { id: 's', name: 'n', questions: QUESTIONS },
      tree,
      { ...OPTIONS, answers: false },
      5,
    );
    expect(record.tree).toEqual({
      title: 'Fixture tree',
      embedding: 'fake/embedder',
      summarizer: 'llm:fake-llm',
      nodes: tree.nodes.length,
      createdAt: '2026-01-02T03:04:05.000Z',
    });
    const run = await executeRun(record, {
      db,
      tree,
      embedQuery,
      signal: new AbortController().signal,
      onUpdate: () => {},
    });
    expect(run.status).toBe('done');
    expect(run.answerModel).toBeUndefined();
    expect(Object.keys(run.report!.modes)).toEqual(['collapsed', 'traversal', 'leaves', 'leaves+plain-bm25']);
    // No model in this browser said where it embedded: nothing is claimed.
    expect(run.questionsEmbeddedOn).toBeUndefined();
  });

  it('keeps where the questions were embedded with the run (as the embedder says once retrieval is done)', async () => {
    const { db, treeId, tree } = await openFixture();
    const placement = { device: 'webgpu', adapter: 'test gpu' } as const;
    let embedded = 0;
    const run = await executeRun(await start(db, treeId, tree), {
      db,
      tree,
      embedQuery: async (texts) => ((embedded += texts.length), embedQuery(texts)),
      embeddedOn: () => [{ placement, count: embedded }],
      signal: new AbortController().signal,
      onUpdate: () => {},
    });
    expect(run.questionsEmbeddedOn).toEqual([{ placement, count: QUESTIONS.length }]);
    expect((await getEvalRun(db, 'run-1'))?.questionsEmbeddedOn).toEqual(run.questionsEmbeddedOn);
  });
});
