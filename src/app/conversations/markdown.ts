/**
 * A conversation as Markdown: every question, what was searched, the settings, the answer with its [n]
 * citations, and the numbered passages they cite (node, layer and text), so the file stands on its own.
 * Document and model text is quoted as it is; lines of a passage become a Markdown block quote. Pure.
 */
import type { ConversationRecord, ConversationTurn } from '../../storage/schema';

const MODE_NAMES = {
  collapsed: 'collapsed tree',
  traversal: 'tree traversal',
  leaves: 'leaves only',
} as const;

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

function quote(text: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
}

function settingsLine(turn: ConversationTurn): string {
  const s = turn.settings;
  const size = s.topK !== undefined ? `top ${s.topK} per layer` : `${s.maxTokens ?? 0} tokens`;
  const parts = [MODE_NAMES[s.mode], `search by ${s.search}`, size];
  if (s.rerank) parts.push('reranked');
  return parts.join(', ');
}

function turnMarkdown(turn: ConversationTurn, index: number, stale: boolean): string {
  const lines = [`## ${index + 1}. ${turn.question.trim().replace(/\s+/g, ' ')}`, ''];
  if (turn.rewrite !== 'none' && turn.search !== turn.question) {
    const how = turn.rewrite === 'llm' ? 'rewritten by the model' : 'joined with the questions before';
    lines.push(`*Searched for (${how}):* ${turn.search.replace(/\s+/g, ' ')}`, '');
  }
  lines.push(`*Retrieval:* ${settingsLine(turn)} · asked ${when(turn.askedAt)}`, '');
  if (stale)
    lines.push('*The tree was rebuilt after this question: node numbers refer to the earlier build.*', '');
  if (turn.answer) {
    lines.push(turn.answer.text.trim() || '*(no text)*', '');
    if (turn.answer.error !== undefined) lines.push(`*The answer stopped: ${turn.answer.error}*`, '');
    if (turn.answer.writer) lines.push(`*Written by ${turn.answer.writer}.*`, '');
  }
  if (turn.passages.length > 0) {
    lines.push(turn.answer ? '**Sources**' : '**Retrieved passages**', '');
    const cited = citedNumbers(turn);
    turn.passages.forEach((p, i) => {
      lines.push(sourceHeading(p, i + 1, cited), '', quote(p.text), '');
    });
  }
  return lines.join('\n');
}

/** The passage numbers an answer cites ([n] as written). */
function citedNumbers(turn: ConversationTurn): ReadonlySet<number> | undefined {
  if (!turn.answer) return undefined;
  return new Set(turn.answer.citations.map((c) => c.n));
}

/**
 * A source's line: "[2] Node 63 (leaf) · report.pdf, page 7 · cited" — its number, node, where it is in the
 * documents (the page for a PDF) and, under an answer, whether the answer cites it. Its quote follows.
 */
export function sourceHeading(
  passage: ConversationTurn['passages'][number],
  n: number,
  cited: ReadonlySet<number> | undefined,
): string {
  const kind = passage.layer === 0 ? 'leaf' : `layer ${passage.layer} summary`;
  const parts = [`[${n}] Node ${passage.id} (${kind})`];
  if (passage.where) parts.push(passage.where);
  if (cited) parts.push(cited.has(n) ? 'cited' : 'not cited');
  return parts.join(' · ');
}

/** The conversation as a Markdown document; `currentStamp` marks turns asked of an earlier build. */
export function conversationMarkdown(
  conversation: ConversationRecord,
  treeTitle: string,
  currentStamp?: string,
): string {
  const count = conversation.turns.length;
  const head = [
    `# ${conversation.title || 'Conversation'}`,
    '',
    `Questions to “${treeTitle}” in Aerie · started ${when(conversation.createdAt)} · ${count} ${count === 1 ? 'question' : 'questions'}`,
    '',
  ];
  const body = conversation.turns.map((t, i) =>
    turnMarkdown(t, i, currentStamp !== undefined && t.treeStamp !== currentStamp),
  );
  return (
    [...head, ...body]
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/** A file name for the export: the title's words, lower case, joined by dashes. */
export function conversationFileName(conversation: ConversationRecord): string {
  const slug = conversation.title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'conversation'}.md`;
}
