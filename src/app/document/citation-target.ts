/**
 * What a citation [n] shows in the document: exactly the characters of the cited passage. A leaf is its source
 * range, or, when only some of its sentences were read (passages by sentence), those sentences. A summary is its text (shown above the document) and, in the document, what it covers: for an
 * extractive summary the very sentences it copied (each found among the sentences of the leaves under it), for
 * an LLM's summary the passages of the leaves under it (neighbouring leaves joined). Pure, tested in Node.
 */
import { sentenceSpans } from '../../core/text';
import type { RaptorTree } from '../../core/types';
import { leavesUnder } from '../tree/selection';

/** Characters [start, end) of document `doc` (its id in the tree). */
export interface CitedRange {
  doc: string;
  start: number;
  end: number;
}

/** A citation's node and the ranges of the documents it stands for. */
export interface CitationTarget {
  /** The passage number as the answer writes it. */
  n: number;
  nodeId: number;
  layer: number;
  /** The node's text (a summary is shown above the document). */
  text: string;
  /**
   * How `ranges` were found: the leaf's own range, the sentences of a leaf the answer read (an excerpt), the
   * sentences an extractive summary copied, or the leaves under a summary.
   */
  kind: 'leaf' | 'excerpt' | 'sentences' | 'leaves';
  /** In document order (documents in the tree's order), never overlapping. */
  ranges: CitedRange[];
  /** Sentences of an extractive summary that were not found in its leaves (shown, not highlighted). */
  unlocated: number;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Sorts ranges in document order and joins those that touch or are apart by whitespace only. */
export function mergeRanges(
  ranges: readonly CitedRange[],
  docOrder: readonly string[],
  textOf: (doc: string) => string | undefined,
): CitedRange[] {
  const rank = new Map(docOrder.map((id, i) => [id, i]));
  const sorted = [...ranges].sort(
    (a, b) => (rank.get(a.doc) ?? 0) - (rank.get(b.doc) ?? 0) || a.start - b.start || a.end - b.end,
  );
  const out: CitedRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    const gap = last && last.doc === r.doc ? (textOf(r.doc) ?? '').slice(last.end, r.start) : undefined;
    if (last && gap !== undefined && (r.start <= last.end || !/\S/.test(gap)))
      last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/**
 * The sentences of an extractive summary found among its leaves' sentences, in the summary's order: the
 * summary is read from its start, each time taking the longest leaf sentence it continues with.
 */
function copiedSentences(
  summary: string,
  leaves: readonly { doc: string; start: number; end: number }[],
  textOf: (doc: string) => string | undefined,
): { ranges: CitedRange[]; unlocated: number } {
  const byHead = new Map<string, { sentence: string; range: CitedRange }[]>();
  const HEAD = 12;
  for (const leaf of leaves) {
    const text = textOf(leaf.doc);
    if (text === undefined) continue;
    const slice = text.slice(leaf.start, leaf.end);
    for (const s of sentenceSpans(slice)) {
      const sentence = collapse(slice.slice(s.start, s.end));
      if (!sentence) continue;
      const head = sentence.slice(0, HEAD);
      const list = byHead.get(head) ?? [];
      list.push({ sentence, range: { doc: leaf.doc, start: leaf.start + s.start, end: leaf.start + s.end } });
      byHead.set(head, list);
    }
  }
  const text = collapse(summary);
  const ranges: CitedRange[] = [];
  let unlocated = 0;
  let at = 0;
  while (at < text.length) {
    const candidates = byHead.get(text.slice(at, at + HEAD)) ?? [];
    let best: { sentence: string; range: CitedRange } | undefined;
    for (const c of candidates) {
      if (text.startsWith(c.sentence, at) && (!best || c.sentence.length > best.sentence.length)) best = c;
    }
    if (best) {
      ranges.push(best.range);
      at += best.sentence.length;
    } else {
      // Not a copied sentence (a cut last sentence): skip to the next sentence of the summary.
      unlocated++;
      const next = text.indexOf('. ', at);
      at = next < 0 ? text.length : next + 2;
    }
    while (text[at] === ' ') at++;
  }
  return { ranges, unlocated };
}

/**
 * The sentences of leaf `node` that `read` (the part of it the answering model read) holds, as ranges of its
 * document; undefined when `read` is the whole leaf, holds none of them, or the document's text at the leaf's
 * place is not the leaf's (offsets inside the leaf would not be the document's).
 */
function readSentences(
  node: RaptorTree['nodes'][number],
  read: string,
  textOf: (doc: string) => string | undefined,
  order: readonly string[],
): CitedRange[] | undefined {
  const source = node.source;
  const seen = collapse(read);
  if (!source || seen === collapse(node.text)) return undefined;
  const text = textOf(source.doc);
  if (text !== undefined && text.slice(source.start, source.end) !== node.text) return undefined;
  const ranges = sentenceSpans(node.text)
    .filter((s) => seen.includes(collapse(node.text.slice(s.start, s.end))))
    .map((s) => ({ doc: source.doc, start: source.start + s.start, end: source.start + s.end }));
  return ranges.length > 0 ? mergeRanges(ranges, order, textOf) : undefined;
}

/**
 * The target of citation [n] naming node `nodeId` (see the module comment). `textOf` gives a document's text by
 * its id in the tree, undefined when it is not stored (an imported tree): such ranges are still returned.
 * `read`: the passage's text as the answering model read it, when only some of a leaf's sentences entered.
 */
export function citationTarget(
  tree: Pick<RaptorTree, 'nodes' | 'documents' | 'summarizer'>,
  n: number,
  nodeId: number,
  textOf: (doc: string) => string | undefined,
  read?: string,
): CitationTarget {
  const node = tree.nodes[nodeId];
  const base = { n, nodeId, layer: node.layer, text: node.text, unlocated: 0 };
  const order = tree.documents.map((d) => d.id);
  if (node.layer === 0) {
    const excerpt = read === undefined ? undefined : readSentences(node, read, textOf, order);
    if (excerpt) return { ...base, kind: 'excerpt', ranges: excerpt };
    return { ...base, kind: 'leaf', ranges: node.source ? [rangeOf(node.source)] : [] };
  }
  const leaves = leavesUnder(tree.nodes, [nodeId])
    .map((id) => tree.nodes[id].source)
    .filter((s): s is NonNullable<typeof s> => s !== undefined)
    .map(rangeOf);
  if (tree.summarizer.kind === 'extractive') {
    const copied = copiedSentences(node.text, leaves, textOf);
    if (copied.ranges.length > 0) {
      return {
        ...base,
        kind: 'sentences',
        ranges: mergeRanges(copied.ranges, order, textOf),
        unlocated: copied.unlocated,
      };
    }
  }
  return { ...base, kind: 'leaves', ranges: mergeRanges(leaves, order, textOf) };
}

function rangeOf(source: { doc: string; start: number; end: number }): CitedRange {
  return { doc: source.doc, start: source.start, end: source.end };
}
