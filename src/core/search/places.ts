/**
 * Where a node sits in its documents, as a passage list and an answer's context say it: the document, the
 * share of it before the node (0 at its start, 1 at its end), and the section (the last heading before it,
 * text/headings.ts). A leaf's place is its `source`; a summary's is the stretch from the first to the last
 * leaf under it, in the document where most of them are. Nodes whose leaves have no source (trees made by the
 * official code) have no place. Headings are found once per tree, in the leaves' own text.
 */
import { headingsIn } from '../text';
import type { RaptorTree, TreeNode } from '../types';
import { leavesUnder } from './distinct';

/** A node's place (see the module comment). */
export interface NodePlaceInfo {
  /** The document's id and name. */
  doc: string;
  name: string;
  /** Share of the document before the node's first and after its last character, in [0, 1]. */
  from: number;
  to: number;
  /** The heading in force where the node begins, and where it ends when that differs (summaries). */
  section?: string;
  endSection?: string;
  /** Leaves under a summary in this document (1 for a leaf). */
  leaves: number;
}

/** Per tree: each document's headings as (absolute offset, title), in order. */
const headingMemo = new WeakMap<readonly TreeNode[], Map<string, { offset: number; title: string }[]>>();

function headingsOf(nodes: readonly TreeNode[]): Map<string, { offset: number; title: string }[]> {
  let known = headingMemo.get(nodes);
  if (known) return known;
  known = new Map();
  for (const node of nodes) {
    if (node.layer !== 0 || !node.source) continue;
    const list = known.get(node.source.doc) ?? [];
    for (const h of headingsIn(node.text))
      list.push({ offset: node.source.start + h.offset, title: h.title });
    known.set(node.source.doc, list);
  }
  for (const list of known.values()) list.sort((a, b) => a.offset - b.offset);
  headingMemo.set(nodes, known);
  return known;
}

/** The title of the last heading at or before `offset` (binary search), undefined before the first. */
function sectionAt(list: readonly { offset: number; title: string }[], offset: number): string | undefined {
  let lo = 0;
  let hi = list.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].offset <= offset) {
      found = list[mid].title;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The place of node `id` in `tree` (see the module comment), or undefined when none of its leaves has a source. */
export function placeOfNode(
  tree: Pick<RaptorTree, 'nodes' | 'documents'>,
  id: number,
): NodePlaceInfo | undefined {
  const { nodes } = tree;
  const node = nodes[id];
  if (!node) return undefined;
  const byDoc = new Map<string, { start: number; end: number; leaves: number }>();
  for (const leaf of node.layer === 0 ? [id] : leavesUnder(nodes, id)) {
    const source = nodes[leaf].source;
    if (!source) continue;
    const span = byDoc.get(source.doc);
    if (span) {
      span.start = Math.min(span.start, source.start);
      span.end = Math.max(span.end, source.end);
      span.leaves++;
    } else byDoc.set(source.doc, { start: source.start, end: source.end, leaves: 1 });
  }
  let best: [string, { start: number; end: number; leaves: number }] | undefined;
  for (const entry of byDoc) if (!best || entry[1].leaves > best[1].leaves) best = entry;
  if (!best) return undefined;
  const [doc, span] = best;
  const document = tree.documents.find((d) => d.id === doc);
  const chars = Math.max(document?.chars ?? span.end, span.end, 1);
  const list = headingsOf(nodes).get(doc) ?? [];
  const place: NodePlaceInfo = {
    doc,
    name: document?.name ?? doc,
    from: span.start / chars,
    to: span.end / chars,
    leaves: span.leaves,
  };
  if (span.leaves === 1) {
    // A leaf is read where most of it is: one that opens with its heading, or runs into the next chapter's
    // first lines, belongs to the chapter that holds its middle.
    const section = sectionAt(list, Math.floor((span.start + span.end) / 2));
    if (section !== undefined) place.section = section;
    return place;
  }
  const section = sectionAt(list, span.start);
  const endSection = sectionAt(list, Math.max(span.start, span.end - 1));
  if (section !== undefined) place.section = section;
  if (endSection !== undefined && endSection !== section) place.endSection = endSection;
  return place;
}

const PERCENT = 100;

/**
 * A place in words: "Chapter 34 · 54%" for a leaf, "Chapter 3 – Chapter 12 · 10–35%" for a summary, with
 * the document's name first when the tree has several ("notes.pdf · Section 2 · 40%").
 */
export function placeText(place: NodePlaceInfo, withDocument: boolean): string {
  const percent = (x: number) => Math.round(x * PERCENT);
  const from = percent(place.from);
  const to = percent(place.to);
  const share = place.leaves > 1 && to > from ? `${from}–${to}%` : `${from}%`;
  const section = place.endSection
    ? `${place.section ?? 'the beginning'} – ${place.endSection}`
    : place.section;
  return [withDocument ? place.name : undefined, section, share].filter(Boolean).join(' · ');
}
