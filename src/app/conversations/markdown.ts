/**
 * A conversation as Markdown: every question, what was searched, the settings, the answer with its [n]
 * citations, and the numbered passages they cite (node, layer and text), so the file stands on its own. Pure.
 *
 * The export is inert. Questions, answers, quotes, titles, model names and error messages are text the app
 * shows as text; in the file every one of them goes through `markdownText`, so a Markdown viewer that renders
 * HTML (most do) shows `<script>` as the characters it is and runs nothing: no element, link or image can come
 * from that text. Any line added to an export (cited quotes, PDF pages) passes its text through the same
 * function.
 */
import type { ConversationRecord, ConversationTurn } from '../../storage';

const MODE_NAMES = {
  collapsed: 'collapsed tree',
  traversal: 'tree traversal',
  leaves: 'leaves only',
} as const;

/**
 * What each character becomes: HTML's three as entities (every Markdown flavour, the original Markdown.pl
 * included, reads `&lt;` as a literal "<", while not all of them honour a backslash before "<"); the rest of
 * the punctuation that opens links, images, code, emphasis, strike-through, tables or attribute lists
 * (kramdown's `{: …}`) backslash-escaped, as CommonMark allows for any ASCII punctuation. "!" and "(" need
 * nothing once "[" is escaped: no link or image can open.
 */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\\': '\\\\',
  '[': '\\[',
  ']': '\\]',
  '`': '\\`',
  '*': '\\*',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\~',
  '|': '\\|',
};
const SPECIAL = /[&<>\\[\]`*_{}~|]/g;
/** Marks that start a block at the beginning of a line: headings, list items, rules, setext underlines. */
const LINE_START = /^(\s*)([#+=-])/;
/** An ordered list item's number at the beginning of a line (its "." or ")" is escaped). */
const NUMBERED = /^(\s*\d+)([.)])/;

/**
 * `text` as Markdown that renders exactly as the text, whatever the viewer: never HTML, a link, an image, code
 * or emphasis. Line breaks stay line breaks (the caller decides what a line is: a quote's `> `, a paragraph).
 * Every piece of user, document or model text in an export goes through this.
 */
export function markdownText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) =>
      line
        .replace(SPECIAL, (c) => ESCAPES[c])
        .replace(LINE_START, '$1\\$2')
        .replace(NUMBERED, '$1\\$2'),
    )
    .join('\n');
}

/** `text` on one line (runs of white space as one space), escaped: for headings and labelled lines. */
function inlineText(text: string): string {
  return markdownText(text.trim().replace(/\s+/g, ' '));
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

function quote(text: string): string {
  return markdownText(text.trim())
    .split('\n')
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
  const lines = [`## ${index + 1}. ${inlineText(turn.question)}`, ''];
  if (turn.rewrite !== 'none' && turn.search !== turn.question) {
    const how = turn.rewrite === 'llm' ? 'rewritten by the model' : 'joined with the questions before';
    lines.push(`*Searched for (${how}):* ${inlineText(turn.search)}`, '');
  }
  lines.push(`*Retrieval:* ${settingsLine(turn)} · asked ${when(turn.askedAt)}`, '');
  if (stale)
    lines.push('*The tree was rebuilt after this question: node numbers refer to the earlier build.*', '');
  if (turn.answer) {
    const text = turn.answer.text.trim();
    lines.push(text ? markdownText(text) : '*(no text)*', '');
    if (turn.answer.error !== undefined)
      lines.push(`*The answer stopped: ${inlineText(turn.answer.error)}*`, '');
    if (turn.answer.writer) lines.push(`*Written by ${inlineText(turn.answer.writer)}.*`, '');
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
 * A source's line: "\[2\] Node 63 (leaf) · report.pdf, page 7 · cited" (the brackets escaped) — its number, node, where it is in the
 * documents (the page for a PDF) and, under an answer, whether the answer cites it. Its quote follows.
 */
function sourceHeading(
  passage: ConversationTurn['passages'][number],
  n: number,
  cited: ReadonlySet<number> | undefined,
): string {
  const kind = passage.layer === 0 ? 'leaf' : `layer ${passage.layer} summary`;
  const parts = [`\\[${n}\\] Node ${passage.id} (${kind})`];
  if (passage.where) parts.push(inlineText(passage.where));
  if (cited) parts.push(cited.has(n) ? 'cited' : 'not cited');
  return parts.join(' · ');
}

/**
 * The conversation as a Markdown document, its `turns` oldest first; `currentStamp` marks turns asked of an
 * earlier build.
 */
export function conversationMarkdown(
  conversation: ConversationRecord,
  turns: readonly ConversationTurn[],
  treeTitle: string,
  currentStamp?: string,
): string {
  const count = turns.length;
  const head = [
    `# ${conversation.title ? inlineText(conversation.title) : 'Conversation'}`,
    '',
    `Questions to “${inlineText(treeTitle)}” in Aerie · started ${when(conversation.createdAt)} · ` +
      `${count.toLocaleString('en')} ${count === 1 ? 'question' : 'questions'}`,
    '',
  ];
  // Joined once at the end: a 1,000-turn conversation is about 9 MB of text.
  const body = turns.map((t, i) =>
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
export function conversationFileName(conversation: Pick<ConversationRecord, 'title'>): string {
  const slug = conversation.title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${slug || 'conversation'}.md`;
}
