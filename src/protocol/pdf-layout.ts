/**
 * The tie between a PDF's extracted text and its pages, recorded at ingest so a citation can be shown where its
 * words stand: for every page, the runs of characters of the document text that were copied one for one from
 * one of PDF.js's text items (`getTextContent()` with its default options), as
 * `[text offset, item index, offset in the item's string, length]`. Characters the ingest inserted (line and
 * paragraph breaks) or left out (blanks trimmed at line ends, NULs) belong to no run.
 *
 * The page view asks PDF.js for the same page's items again; `check` (a hash of the items' strings) says
 * whether they are the items this layout was made from, so a later PDF.js that splits text differently is
 * noticed instead of highlighting the wrong characters (pdf-locate.ts then aligns by words).
 *
 * Pure: no PDF.js import (items are plain data), runs in the ingestion worker, the page and Node.
 */

/** What a text item needs to carry here (PDF.js's `TextItem` has these fields). */
export interface LayoutItem {
  str: string;
  /** PDF.js marks the last item of a line. */
  hasEOL?: boolean;
  /** The text matrix: [a, b, c, d, e, f]; `f` is the baseline's y in PDF user space. */
  transform: number[];
  height: number;
}

/** One page's part of a `PdfLayout`. */
export interface PdfPageLayout {
  /** Offset in the document text of the page's first character; `end` is one past its last. */
  start: number;
  end: number;
  /** How many text items PDF.js gave for the page. */
  items: number;
  /** FNV-1a hash (32 bits) of the items' strings, each followed by U+0000. */
  check: number;
  /** Runs, four numbers each: text offset (in the document), item index, offset in the item's `str`, length. */
  runs: Int32Array;
}

/** The tie between a PDF's text and its pages (see the module comment). */
export interface PdfLayout {
  version: 1;
  pages: PdfPageLayout[];
}

/** Numbers per run in `PdfPageLayout.runs`. */
export const RUN_FIELDS = 4;

/** Between paragraphs (and pages). */
const PARAGRAPH_BREAK = '\n\n';
/** A gap between lines larger than this many times the page's usual line gap starts a paragraph. */
const PARAGRAPH_GAP_RATIO = 1.4;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const BYTE_ORDER_MARK = 0xfeff;

/** A page's text with its runs (offsets relative to the page's text) and the NUL characters left out. */
export interface PageText {
  text: string;
  /** Flat, `RUN_FIELDS` numbers a run, text offsets from the start of the page's text. */
  runs: number[];
  nul: number;
}

interface Line {
  text: string;
  /** Runs as in `PageText.runs`, offsets within the line. */
  runs: number[];
  y: number;
}

/**
 * Appends `str` (item `item`) to a line: NULs are left out, CRLF and lone CR become LF, and each stretch of
 * characters kept one for one becomes a run.
 */
function appendItem(line: Line, str: string, item: number): number {
  let nul = 0;
  let from = 0;
  const flush = (to: number) => {
    if (to > from) line.runs.push(line.text.length, item, from, to - from);
    line.text += str.slice(from, to);
  };
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c !== 0 && c !== 13) continue;
    flush(i);
    if (c === 0) nul++;
    else if (str.charCodeAt(i + 1) !== 10) line.text += '\n'; // a lone CR is a line break of no run
    from = i + 1;
  }
  flush(str.length);
  return nul;
}

/** `line` without its leading and trailing whitespace, its runs cut to match. */
function trimLine(line: Line): Line {
  const head = line.text.length - line.text.trimStart().length;
  const text = line.text.trim();
  const runs: number[] = [];
  for (let r = 0; r < line.runs.length; r += RUN_FIELDS) {
    const [at, item, offset, length] = line.runs.slice(r, r + RUN_FIELDS);
    const from = Math.max(at, head);
    const to = Math.min(at + length, head + text.length);
    if (to > from) runs.push(from - head, item, offset + (from - at), to - from);
  }
  return { text, runs, y: line.y };
}

/**
 * A page's text from its items: items joined in order into lines (a line ends where PDF.js marks it), each
 * line trimmed, lines joined by a line break, or by a blank line (a paragraph break the chunker respects)
 * where the gap to the next line is clearly larger than the page's usual line spacing; with the runs that tie
 * it to the items.
 */
export function pageTextWithRuns(items: readonly (LayoutItem | object)[]): PageText {
  const lines: Line[] = [];
  let current: Line | undefined;
  let nul = 0;
  items.forEach((item, index) => {
    if (!('str' in item)) return; // marked content
    if (!current) {
      current = { text: '', runs: [], y: Number(item.transform[5]) };
      lines.push(current);
    }
    nul += appendItem(current, item.str, index);
    if (item.hasEOL) current = undefined;
  });
  const kept = lines.map(trimLine).filter((line) => line.text.length > 0);
  const gaps: number[] = [];
  for (let i = 1; i < kept.length; i++) {
    const gap = kept[i - 1].y - kept[i].y;
    if (gap > 0) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  // The lower median: on a page of prose, the usual distance between consecutive lines.
  const usual = gaps.length >= 2 ? gaps[Math.floor((gaps.length - 1) / 2)] : Infinity;
  let text = '';
  const runs: number[] = [];
  kept.forEach((line, i) => {
    if (i > 0) text += kept[i - 1].y - line.y > usual * PARAGRAPH_GAP_RATIO ? PARAGRAPH_BREAK : '\n';
    for (let r = 0; r < line.runs.length; r += RUN_FIELDS) {
      runs.push(text.length + line.runs[r], line.runs[r + 1], line.runs[r + 2], line.runs[r + 3]);
    }
    text += line.text;
  });
  if (text.charCodeAt(0) === BYTE_ORDER_MARK) return dropFirstCharacter(text, runs, nul);
  return { text, runs, nul };
}

/** A page text that began with a byte-order mark, without it (as every extracted text is). */
function dropFirstCharacter(text: string, runs: number[], nul: number): PageText {
  const out: number[] = [];
  for (let r = 0; r < runs.length; r += RUN_FIELDS) {
    const [at, item, offset, length] = runs.slice(r, r + RUN_FIELDS);
    if (at === 0) {
      if (length > 1) out.push(0, item, offset + 1, length - 1);
    } else out.push(at - 1, item, offset, length);
  }
  return { text: text.slice(1), runs: out, nul };
}

/** The `check` of a page's items (see `PdfPageLayout.check`). */
export function itemsCheck(items: readonly (LayoutItem | object)[]): number {
  let hash = FNV_OFFSET;
  for (const item of items) {
    if (!('str' in item)) continue;
    const str = item.str;
    for (let i = 0; i < str.length; i++) hash = Math.imul(hash ^ str.charCodeAt(i), FNV_PRIME) >>> 0;
    hash = Math.imul(hash, FNV_PRIME) >>> 0; // the U+0000 after each string
  }
  return hash;
}

/** How many items `itemsCheck` and the runs count (marked content is not an item). */
export function textItemCount(items: readonly (LayoutItem | object)[]): number {
  let n = 0;
  for (const item of items) if ('str' in item) n++;
  return n;
}

/**
 * A page's entry of the layout: its runs moved to document offsets (`start` is where the page's text begins
 * in the document text).
 */
export function pageLayout(
  start: number,
  page: PageText,
  items: readonly (LayoutItem | object)[],
): PdfPageLayout {
  const runs = new Int32Array(page.runs.length);
  for (let r = 0; r < page.runs.length; r += RUN_FIELDS) {
    runs[r] = start + page.runs[r];
    runs[r + 1] = page.runs[r + 1];
    runs[r + 2] = page.runs[r + 2];
    runs[r + 3] = page.runs[r + 3];
  }
  return { start, end: start + page.text.length, items: items.length, check: itemsCheck(items), runs };
}

/** Bytes a layout takes (its runs; the other fields are a few numbers a page). */
export function layoutBytes(layout: PdfLayout): number {
  const PAGE_FIELDS_BYTES = 32;
  return layout.pages.reduce((sum, p) => sum + p.runs.byteLength + PAGE_FIELDS_BYTES, 0);
}
