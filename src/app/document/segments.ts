/**
 * Cuts a document's text into runs of plain text and leaf passages, so the document view creates one element
 * per leaf (about one per 100 tokens) and plain text nodes between them, however long the document. Pure,
 * tested in Node.
 */
import type { NodeSource } from '../../core/types';

/** A leaf as the document view needs it. */
export interface DocumentLeaf {
  id: number;
  source: NodeSource;
}

/** A run of the text: [start, end) belongs to leaf `leafId`, or to no leaf when it is null. */
export interface Segment {
  start: number;
  end: number;
  leafId: number | null;
}

/** The leaves of each document, keyed by document id, each list sorted by start (then id). */
export function leavesByDocument(leaves: readonly DocumentLeaf[]): Map<string, DocumentLeaf[]> {
  const byDoc = new Map<string, DocumentLeaf[]>();
  for (const leaf of leaves) {
    const list = byDoc.get(leaf.source.doc);
    if (list === undefined) byDoc.set(leaf.source.doc, [leaf]);
    else list.push(leaf);
  }
  for (const list of byDoc.values()) list.sort((a, b) => a.source.start - b.source.start || a.id - b.id);
  return byDoc;
}

/**
 * Segments covering [0, textLength) in order, given the document's leaves sorted by start. Offsets are
 * clamped to the text; where leaves overlap, the earlier one keeps the shared characters; empty leaves get
 * no segment. Runs between leaves are plain segments.
 */
export function segmentDocument(textLength: number, sortedLeaves: readonly DocumentLeaf[]): Segment[] {
  const segments: Segment[] = [];
  let cursor = 0;
  for (const leaf of sortedLeaves) {
    const start = Math.max(cursor, clampOffset(leaf.source.start, textLength));
    const end = clampOffset(leaf.source.end, textLength);
    if (end <= start) continue;
    if (start > cursor) segments.push({ start: cursor, end: start, leafId: null });
    segments.push({ start, end, leafId: leaf.id });
    cursor = end;
  }
  if (cursor < textLength) segments.push({ start: cursor, end: textLength, leafId: null });
  return segments;
}

function clampOffset(offset: number, textLength: number): number {
  if (!Number.isFinite(offset)) return 0;
  return Math.min(textLength, Math.max(0, Math.floor(offset)));
}
