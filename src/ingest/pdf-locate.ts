/**
 * From a span of a PDF's extracted text to the characters of PDF.js's text items that show it, page by page
 * (pdf-layout.ts records the tie at ingest). The page view highlights exactly these characters in its text
 * layer. When the items PDF.js gives now are not the ones the layout was made from (another PDF.js version),
 * the span's words are aligned with the page's words instead, and only the words found are highlighted: a
 * part found for less than `MIN_LOCATED_SHARE` gets no highlight at all (a wrong highlight is worse than none).
 *
 * Pure; runs on the page and in Node.
 */
import {
  itemsCheck,
  RUN_FIELDS,
  type LayoutItem,
  type PdfLayout,
  type PdfPageLayout,
} from '../protocol/pdf-layout';

/** A part of a page's highlight: characters [from, to) of text item `item`'s string. */
export interface ItemPiece {
  item: number;
  from: number;
  to: number;
}

/** The part of a span that lies on one page. */
export interface PageSpan {
  /** 1-based page number. */
  page: number;
  /** The part's document offsets. */
  start: number;
  end: number;
  /** What to highlight, in reading order. */
  pieces: ItemPiece[];
  /** Non-whitespace characters of the part, and how many of them `pieces` cover. */
  chars: number;
  located: number;
  /** How the pieces were found: the recorded runs, or aligning words (the items had changed). */
  by: 'runs' | 'words';
}

/** A page part located for less than this share of its characters is shown without a highlight. */
export const MIN_LOCATED_SHARE = 0.5;
/** Words of the page looked at past the last match before a span word counts as not found. */
const ALIGN_WINDOW = 6;

function nonSpace(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (!/\s/.test(text[i])) n++;
  return n;
}

/** Index of the first page whose text ends after `offset` (pages are in text order). */
function firstPageAfter(pages: readonly PdfPageLayout[], offset: number): number {
  let lo = 0;
  let hi = pages.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pages[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds a piece, merging it with the previous one when they touch in the same item. */
function pushPiece(pieces: ItemPiece[], piece: ItemPiece): void {
  const last = pieces[pieces.length - 1];
  if (last && last.item === piece.item && last.to === piece.from) last.to = piece.to;
  else pieces.push(piece);
}

/**
 * The item characters of `text`[start, end) on each page it touches, from the layout's runs. `text` is the
 * document's text (to count what is located); pages where the span holds only whitespace are left out.
 */
export function locateSpan(layout: PdfLayout, text: string, start: number, end: number): PageSpan[] {
  const out: PageSpan[] = [];
  for (let p = firstPageAfter(layout.pages, start); p < layout.pages.length; p++) {
    const page = layout.pages[p];
    if (page.start >= end) break;
    const s = Math.max(start, page.start);
    const e = Math.min(end, page.end);
    const chars = nonSpace(text, s, e);
    if (chars === 0) continue;
    const pieces: ItemPiece[] = [];
    let located = 0;
    const runs = page.runs;
    for (let r = 0; r < runs.length; r += RUN_FIELDS) {
      const at = runs[r];
      const length = runs[r + 3];
      if (at + length <= s) continue;
      if (at >= e) break;
      const from = Math.max(at, s);
      const to = Math.min(at + length, e);
      located += nonSpace(text, from, to);
      pushPiece(pieces, { item: runs[r + 1], from: runs[r + 2] + (from - at), to: runs[r + 2] + (to - at) });
    }
    out.push({ page: p + 1, start: s, end: e, pieces, chars, located, by: 'runs' });
  }
  return out;
}

/** Whether `items` (what PDF.js gives for the page now) are the items the page's layout was made from. */
export function sameItems(page: PdfPageLayout, items: readonly (LayoutItem | object)[]): boolean {
  return items.length === page.items && itemsCheck(items) === page.check;
}

interface Word {
  word: string;
  item: number;
  from: number;
  to: number;
}

const normalWord = (w: string) => w.normalize('NFKC').toLowerCase();

function pageWords(items: readonly (LayoutItem | object)[]): Word[] {
  const words: Word[] = [];
  items.forEach((item, index) => {
    if (!('str' in item)) return;
    for (const m of item.str.matchAll(/\S+/g)) {
      words.push({ word: normalWord(m[0]), item: index, from: m.index, to: m.index + m[0].length });
    }
  });
  return words;
}

/** Greedy alignment of `span` words with `page` words from `k`: the page word of each span word, or -1. */
function alignFrom(span: string[], page: Word[], k: number): number[] {
  const matched: number[] = [];
  let next = k;
  for (const word of span) {
    let found = -1;
    for (let j = next; j < Math.min(page.length, next + ALIGN_WINDOW); j++) {
      if (page[j].word === word) {
        found = j;
        break;
      }
    }
    matched.push(found);
    if (found >= 0) next = found + 1;
  }
  return matched;
}

/**
 * The part of a span on one page found by its words among `items` (used when `sameItems` is false): every
 * place where one of its first words starts is tried, and the alignment that finds the most words is kept.
 */
export function alignSpan(
  text: string,
  part: Pick<PageSpan, 'page' | 'start' | 'end'>,
  items: readonly (LayoutItem | object)[],
): PageSpan {
  const span = [...text.slice(part.start, part.end).matchAll(/\S+/g)].map((m) => normalWord(m[0]));
  const chars = span.reduce((n, w) => n + w.length, 0);
  const page = pageWords(items);
  let best: number[] = [];
  let bestCount = 0;
  const anchors = new Set(span.slice(0, ALIGN_WINDOW));
  for (let k = 0; k < page.length; k++) {
    if (!anchors.has(page[k].word)) continue;
    const matched = alignFrom(span, page, k);
    const count = matched.filter((j) => j >= 0).length;
    if (count > bestCount) {
      best = matched;
      bestCount = count;
    }
  }
  const pieces: ItemPiece[] = [];
  let located = 0;
  best.forEach((j, i) => {
    if (j < 0) return;
    located += span[i].length;
    const w = page[j];
    const last = pieces[pieces.length - 1];
    // Words next to each other in one item are one piece with the blank between them.
    if (last && last.item === w.item && best[i - 1] === j - 1) last.to = w.to;
    else pieces.push({ item: w.item, from: w.from, to: w.to });
  });
  return { ...part, pieces, chars, located, by: 'words' };
}

/** Whether a page part is located well enough to be highlighted (see `MIN_LOCATED_SHARE`). */
export function isLocated(part: Pick<PageSpan, 'chars' | 'located'>): boolean {
  return part.chars > 0 && part.located / part.chars >= MIN_LOCATED_SHARE;
}
