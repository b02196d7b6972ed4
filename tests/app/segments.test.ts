import { describe, expect, it } from 'vitest';
import { leavesByDocument, segmentDocument, type DocumentLeaf } from '../../src/app/document/segments';

const leaf = (id: number, doc: string, start: number, end: number): DocumentLeaf => ({
  id,
  source: { doc, start, end },
});

describe('leavesByDocument', () => {
  it('groups leaves by document, each list sorted by start then id', () => {
    const byDoc = leavesByDocument([
      leaf(3, 'b', 0, 5),
      leaf(2, 'a', 10, 20),
      leaf(1, 'a', 0, 10),
      leaf(0, 'a', 10, 12),
    ]);
    expect(byDoc.get('a')?.map((l) => l.id)).toEqual([1, 0, 2]);
    expect(byDoc.get('b')?.map((l) => l.id)).toEqual([3]);
  });
});

describe('segmentDocument', () => {
  it('covers the whole text in order with leaf runs and plain runs between them', () => {
    const segments = segmentDocument(30, [leaf(0, 'd', 2, 10), leaf(1, 'd', 10, 18), leaf(2, 'd', 20, 25)]);
    expect(segments).toEqual([
      { start: 0, end: 2, leafId: null },
      { start: 2, end: 10, leafId: 0 },
      { start: 10, end: 18, leafId: 1 },
      { start: 18, end: 20, leafId: null },
      { start: 20, end: 25, leafId: 2 },
      { start: 25, end: 30, leafId: null },
    ]);
  });

  it('gives shared characters of overlapping leaves to the earlier one and drops empty leaves', () => {
    const segments = segmentDocument(20, [
      leaf(0, 'd', 0, 10),
      leaf(1, 'd', 5, 15),
      leaf(2, 'd', 6, 9),
      leaf(3, 'd', 15, 15),
    ]);
    expect(segments).toEqual([
      { start: 0, end: 10, leafId: 0 },
      { start: 10, end: 15, leafId: 1 },
      { start: 15, end: 20, leafId: null },
    ]);
  });

  it('clamps offsets to the text', () => {
    expect(segmentDocument(5, [leaf(0, 'd', -3, 99)])).toEqual([{ start: 0, end: 5, leafId: 0 }]);
    expect(segmentDocument(0, [leaf(0, 'd', 0, 3)])).toEqual([]);
  });

  it('makes one element-worthy segment per leaf for a 1 MB document (the rest stays plain text)', () => {
    const leaves = Array.from({ length: 2500 }, (_, i) => leaf(i, 'd', i * 400, i * 400 + 399));
    const segments = segmentDocument(1_000_000, leaves);
    expect(segments.filter((s) => s.leafId !== null)).toHaveLength(2500);
    expect(segments[segments.length - 1].end).toBe(1_000_000);
    for (let i = 1; i < segments.length; i++) expect(segments[i].start).toBe(segments[i - 1].end);
  });
});
