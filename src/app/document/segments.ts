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

/** A run of a segment's text: part of citation range `cited` (its index), or of none when null. */
export interface CitedRun {
  text: string;
  cited: number | null;
}

/**
 * The text [start, end) cut where citation ranges begin and end, so exactly their characters can be marked.
 * `ranges` are one document's, by document offsets, not overlapping.
 */
export function citedRuns(
  text: string,
  start: number,
  end: number,
  ranges: readonly { start: number; end: number; index: number }[],
): CitedRun[] {
  const runs: CitedRun[] = [];
  let at = start;
  for (const r of ranges) {
    const from = Math.max(at, r.start);
    const to = Math.min(end, r.end);
    if (to <= from) continue;
    if (from > at) runs.push({ text: text.slice(at, from), cited: null });
    runs.push({ text: text.slice(from, to), cited: r.index });
    at = to;
  }
  if (at < end) runs.push({ text: text.slice(at, end), cited: null });
  return runs;
}
