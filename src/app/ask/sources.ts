/**
 * The sources of an answer, as a reader checks them: where each passage sent stands in the tree (the path from
 * the root down to it, and for a summary the leaves it covers), where it is in the documents (document and
 * pages), and which sentences of the answer cite nothing. Pure, tested in Node.
 */
import { placeOfNode, placeText } from '../../core/search';
import { sentenceSpans } from '../../core/text';
import type { RaptorTree } from '../../core/types';
import { pagesText } from '../document/citation-text';
import { leavesUnder } from '../tree/selection';
import type { AnswerSegment } from './citations';

/** Where a passage stands in the tree. */
export interface PassagePath {
  /** The labels (or "node 12") of its primary ancestors, root first. */
  ancestors: string[];
  /** Summaries: how many leaves it covers. */
  leaves?: number;
}

/** A node's name in a path: its topic label's first terms, or its number. */
function nameOf(node: RaptorTree['nodes'][number]): string {
  return node.label && node.label.length > 0 ? node.label.slice(0, 2).join(' · ') : `node ${node.id}`;
}

/** The path of node `id`, following each node's primary parent up to the root. */
export function passagePath(
  nodes: RaptorTree['nodes'],
  primaryParent: ArrayLike<number>,
  id: number,
): PassagePath {
  const ancestors: string[] = [];
  const seen = new Set<number>([id]);
  for (let p = primaryParent[id]; p >= 0 && !seen.has(p); p = primaryParent[p]) {
    seen.add(p);
    ancestors.unshift(nameOf(nodes[p]));
  }
  const node = nodes[id];
  return node.layer > 0 ? { ancestors, leaves: leavesUnder(nodes, [id]).length } : { ancestors };
}

/** A document as `placeOf` needs it. */
export interface PlacedDocument {
  id: string;
  name: string;
  pageStarts?: number[];
}

/**
 * Where a node's text is in the documents: "report.pdf, page 7" for a leaf, "report.pdf, pages 3–9" for a
 * summary (the pages of the leaves under it); the document's name alone when it has no pages; then its section
 * and the share of the document before it ("Persuasion · Chapter 4 · 12%", `passagePlace`).
 */
export function placeOf(
  tree: Pick<RaptorTree, 'nodes' | 'documents'>,
  documents: readonly PlacedDocument[],
  id: number,
): string | undefined {
  const node = tree.nodes[id];
  if (!node) return undefined;
  const sources = (node.layer === 0 ? [id] : leavesUnder(tree.nodes, [id]))
    .map((leaf) => tree.nodes[leaf].source)
    .filter((s): s is NonNullable<typeof s> => s !== undefined);
  const parts: string[] = [];
  // The tree names its documents even when their texts are not stored (an imported tree).
  const known = [...documents, ...tree.documents.filter((d) => !documents.some((o) => o.id === d.id))];
  for (const doc of known) {
    const own = sources.filter((s) => s.doc === doc.id);
    if (own.length === 0) continue;
    const start = Math.min(...own.map((s) => s.start));
    const end = Math.max(...own.map((s) => s.end));
    const pages = pagesText('pageStarts' in doc ? doc.pageStarts : undefined, { start, end });
    parts.push(pages ? `${doc.name}, ${pages}` : doc.name);
  }
  if (parts.length === 0) return undefined;
  const place = placeOfNode(tree, id);
  return [parts.join('; '), ...(place ? [placeText(place, false)] : [])].join(' · ');
}

/** Citation brackets, numbers and blanks at the start of a sentence. */
const CITATION_LEAD = /^(?:\s*\[[\d\s,;–-]+\])*\s*/;

/**
 * The sentences of an answer that cite no passage, as [start, end) offsets in its text. A citation written
 * after a sentence's full stop ("… at midnight. [2]") belongs to that sentence; a sentence with no letters (a
 * list marker, a lone citation) is never marked.
 */
export function uncitedSentences(text: string, segments: readonly AnswerSegment[]): [number, number][] {
  const cites = segments.filter((s) => s.kind === 'citation').map((s) => s.start);
  const spans = sentenceSpans(text).filter((s) => /\p{L}/u.test(text.slice(s.start, s.end)));
  // A citation group opening a sentence ("… was vain. [2] Bath …") was written after the previous full stop.
  const leads = spans.map((sp) => CITATION_LEAD.exec(text.slice(sp.start, sp.end))![0].length);
  const out: [number, number][] = [];
  spans.forEach((sp, i) => {
    const from = sp.start + leads[i];
    const to = i + 1 < spans.length ? spans[i + 1].start + leads[i + 1] : text.length;
    const cited = cites.some((c) => c >= from && c < Math.max(sp.end, to));
    if (!cited && /\p{L}/u.test(text.slice(from, sp.end))) out.push([from, sp.end]);
  });
  return out;
}
