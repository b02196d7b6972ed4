/**
 * From the Ask panel's results to a stored conversation turn, and back to what the follow-up helpers and the
 * page need. Pure, tested in Node.
 */
import type { RaptorTree } from '../../core/types';
import type { EarlierTurn } from '../../llm';
import type { ConversationTurn, TurnSettings } from '../../storage';
import type { AskResults, RetrievalSettings } from '../state/types';

/**
 * Which build of a tree node ids refer to: its creation time and node count. A rebuild (another model, an added
 * document) keeps the tree's id but makes new nodes, and a new stamp.
 */
export function treeStampOf(tree: Pick<RaptorTree, 'createdAt' | 'nodes'>): string {
  return `${tree.createdAt}#${tree.nodes.length}`;
}

/** The settings a turn records (the primary mode's budget or top-k). */
export function turnSettingsOf(s: RetrievalSettings): TurnSettings {
  const base = { mode: s.mode, search: s.search, rerank: s.rerank, distinct: s.distinct };
  if (s.mode === 'traversal') return { ...base, topK: s.traversalTopK, maxTokens: s.traversalMaxTokens };
  return { ...base, maxTokens: s.mode === 'collapsed' ? s.collapsedMaxTokens : s.leavesMaxTokens };
}

/** What a finished question becomes in its conversation. */
export function turnFromResults(input: {
  id: string;
  results: AskResults;
  settings: RetrievalSettings;
  rewrite: ConversationTurn['rewrite'];
  treeStamp: string;
  askedAt: number;
  /** Where a node's text is in the documents ("report.pdf, page 7"), kept with each passage. */
  placeOf?: (id: number) => string | undefined;
}): ConversationTurn {
  const { results, settings } = input;
  const primary = results.answer?.mode ?? settings.mode;
  const passages = results.results[primary]?.passages ?? [];
  const retrieved: ConversationTurn['retrieved'] = {};
  for (const [mode, result] of Object.entries(results.results)) {
    retrieved[mode as keyof typeof retrieved] = result.passages.map((p) => p.id);
  }
  const turn: ConversationTurn = {
    id: input.id,
    question: results.question,
    search: results.search ?? results.question,
    rewrite: input.rewrite,
    askedAt: input.askedAt,
    settings: { ...turnSettingsOf(settings), mode: primary },
    retrieved,
    passages: passages.map((p) => {
      const where = input.placeOf?.(p.id);
      return { id: p.id, layer: p.layer, text: p.excerpt?.text ?? p.text, ...(where ? { where } : {}) };
    }),
    treeStamp: input.treeStamp,
  };
  const answer = results.answer;
  if (answer) {
    turn.answer = { text: answer.text, citations: answer.citations };
    if (answer.writer) turn.answer.writer = answer.writer;
    if (answer.error !== undefined) turn.answer.error = answer.error;
  }
  return turn;
}

/** The turns as the follow-up helpers read them (a failed answer's partial text is not history). */
export function earlierTurns(turns: readonly ConversationTurn[]): EarlierTurn[] {
  return turns.map((t) => {
    const earlier: EarlierTurn = { question: t.question, search: t.search };
    if (t.answer && t.answer.error === undefined && t.answer.text.trim() !== '')
      earlier.answer = t.answer.text;
    return earlier;
  });
}

/**
 * The turns to list above the results on screen: all of them, less the last when it is the question whose
 * results are shown (it was stored when it finished).
 */
export function turnsBefore(
  turns: readonly ConversationTurn[],
  shown: Pick<AskResults, 'question'> | undefined,
): readonly ConversationTurn[] {
  const last = turns[turns.length - 1];
  return last && shown && last.question === shown.question ? turns.slice(0, -1) : turns;
}
