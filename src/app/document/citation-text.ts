/**
 * Sentences the Document tab shows about a citation: where the passage is (document, pages), what a summary
 * stands for, and why a PDF's page cannot be shown. Pure, tested in Node.
 */
import type { OriginalInfo } from '../../storage';
import { formatBytes } from '../format';
import type { CitationTarget, CitedRange } from './citation-target';

/** 1-based page of `offset` given where pages 2, 3, … start. */
export function pageAt(pageStarts: readonly number[] | undefined, offset: number): number | undefined {
  if (!pageStarts) return undefined;
  let lo = 0;
  let hi = pageStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pageStarts[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/** "page 3", "pages 3–4", or '' for a document without pages. */
export function pagesText(
  pageStarts: readonly number[] | undefined,
  range: Pick<CitedRange, 'start' | 'end'>,
): string {
  const first = pageAt(pageStarts, range.start);
  const last = pageAt(pageStarts, Math.max(range.start, range.end - 1));
  if (first === undefined || last === undefined) return '';
  return first === last ? `page ${first}` : `pages ${first}–${last}`;
}

/** What the cited node is and what the highlight stands for. */
export function citationHeading(target: CitationTarget): string {
  if (target.kind === 'leaf') return `Citation [${target.n}]: leaf ${target.nodeId}`;
  if (target.kind === 'excerpt') {
    const runs =
      target.ranges.length === 1 ? 'the sentences' : `the ${target.ranges.length} runs of sentences`;
    return `Citation [${target.n}]: leaf ${target.nodeId}; highlighted: ${runs} the answer read`;
  }
  const what =
    target.kind === 'sentences'
      ? `the ${target.ranges.length === 1 ? 'sentences' : `${target.ranges.length} runs of sentences`} it copied`
      : `the passages of the leaves under it (${target.ranges.length} ${target.ranges.length === 1 ? 'run' : 'runs'})`;
  return `Citation [${target.n}]: a layer ${target.layer} summary; highlighted: ${what}`;
}

/**
 * Why a PDF's citation opens in the text view (its original is not kept), or undefined when the page view is
 * available. `original` undefined: the tree was made before Aerie kept originals.
 */
export function noPagesReason(
  name: string,
  original: OriginalInfo | undefined,
  maxBytes: number,
): string | undefined {
  if (original?.kept) return undefined;
  const file = `“${name}”`;
  if (!original) {
    return `This tree was built before Aerie kept original PDFs, so it has no copy of ${file} to show pages from: citations open in the text view. Build the tree again from the file to see them on their pages.`;
  }
  switch (original.reason) {
    case 'too-large':
      return `${file} (${formatBytes(original.bytes)}) is larger than the ${formatBytes(maxBytes)} Aerie keeps with a tree, so citations open in the text view.`;
    case 'storage-full':
      return `There was no room left in this browser’s storage to keep ${file} when the tree was built, so citations open in the text view. Free space and build the tree again to see pages.`;
    case 'not-in-file':
      return `This tree was imported without its original files, so citations open in the text view. Export it “with original files” to bring its PDFs along.`;
    case 'unavailable':
      return `${file} could not be read back when the tree was built, so citations open in the text view.`;
    case 'mismatch':
      return `The PDF the imported tree file carried as ${file} is not this document (its text is not the text the tree was built from), so Aerie did not keep it: citations open in the text view.`;
  }
}
