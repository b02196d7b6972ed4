import { describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest';
import { pageTextWithRuns, RUN_FIELDS, type LayoutItem, type PdfLayout } from '../../src/protocol/pdf-layout';
import { alignSpan, isLocated, locateSpan } from '../../src/ingest';
import { fixturePrecision, layoutFixture, nodePdfDeps, pageItems } from '../support/pdf-precision';

const item = (str: string, y: number, hasEOL = false): LayoutItem => ({
  str,
  hasEOL,
  transform: [10, 0, 0, 10, 72, y],
  height: 10,
});

describe('the layout of a PDF page', () => {
  it('ties every character of the page text to its item, trimming line ends and leaving out NULs', () => {
    const items = [item('  Hello ', 700), item('wor\0ld  ', 700, true), item('next', 688, true)];
    const page = pageTextWithRuns(items);
    expect(page.text).toBe('Hello world\nnext');
    expect(page.nul).toBe(1);
    const runs = page.runs;
    for (let r = 0; r < runs.length; r += RUN_FIELDS) {
      const [at, i, offset, length] = runs.slice(r, r + RUN_FIELDS);
      expect(page.text.slice(at, at + length)).toBe(items[i].str.slice(offset, offset + length));
    }
    // Every visible character is in a run.
    const covered = new Set<number>();
    for (let r = 0; r < runs.length; r += RUN_FIELDS)
      for (let k = 0; k < runs[r + 3]; k++) covered.add(runs[r] + k);
    [...page.text].forEach((c, k) => expect(/\s/.test(c) || covered.has(k)).toBe(true));
  });

  it('starts a paragraph at a gap clearly wider than the usual line gap, as before', () => {
    const items = [item('a', 700, true), item('b', 688, true), item('c', 676, true), item('d', 640, true)];
    expect(pageTextWithRuns(items).text).toBe('a\nb\nc\n\nd');
  });
});

describe('citation highlights on real layouts (tests/fixtures/pdf/layouts.pdf)', () => {
  it('cover exactly each known passage on its page and lines: columns, hyphens, ligatures, page breaks, rotation', async () => {
    const results = await fixturePrecision();
    const kinds = new Set(results.map((r) => r.kind));
    for (const kind of [
      'plain',
      'two-columns',
      'column-break',
      'hyphenated',
      'ligatures',
      'page-break',
      'rotated',
    ])
      expect(kinds).toContain(kind);
    expect(results.filter((r) => !r.exact)).toEqual([]);
    expect(results.reduce((n, r) => n + r.wrong, 0)).toBe(0);
  });

  it('fail when the mapping is off by one line (every run pointing at the next item)', async () => {
    const shifted = (layout: PdfLayout): PdfLayout => ({
      ...layout,
      pages: layout.pages.map((p) => {
        const runs = p.runs.slice();
        for (let r = 0; r < runs.length; r += RUN_FIELDS)
          runs[r + 1] = Math.min(p.items - 1, runs[r + 1] + 1);
        return { ...p, runs };
      }),
    });
    const results = await fixturePrecision(shifted);
    expect(results.filter((r) => r.exact)).toEqual([]);
    expect(results.every((r) => r.wrong > 0)).toBe(true);
  });

  it('say the image-only page has no text and tie no character to it', async () => {
    const { pdf, manifest } = layoutFixture();
    const doc = await ingestFile(new File([pdf.slice()], 'layouts.pdf'), {}, nodePdfDeps);
    const scanned = manifest.pages.find((p) => p.kind === 'scanned')!.number;
    expect(doc.warnings).toContain(
      `Page ${scanned} of “layouts.pdf” has no text (blank, or scanned images: run OCR to include scanned pages).`,
    );
    const page = doc.layout!.pages[scanned - 1];
    expect([page.runs.length, page.end - page.start]).toEqual([0, 0]);
    expect(
      locateSpan(doc.layout!, doc.text, page.start - 40, page.end + 40).map((p) => p.page),
    ).not.toContain(scanned);
  });

  it('align by words when PDF.js gives other items than at ingest, and highlight nothing found for less than half', async () => {
    const { pdf, manifest } = layoutFixture();
    const doc = await ingestFile(new File([pdf.slice()], 'layouts.pdf'), {}, nodePdfDeps);
    const items = await pageItems(pdf);
    const passage = manifest.passages.find((p) => p.kind === 'plain')!;
    const start = doc.text.indexOf(passage.words.slice(0, 4).join(' '));
    const end = doc.text.indexOf(passage.words.at(-1)!, start) + passage.words.at(-1)!.length;
    const [part] = locateSpan(doc.layout!, doc.text, start, end);
    // The same items split differently (each line cut in two): the words are found all the same.
    const split = items[part.page - 1].flatMap((it) => {
      const half = it.str.indexOf(' ', it.str.length >> 1);
      return half < 0
        ? [it]
        : [
            { ...it, str: it.str.slice(0, half), hasEOL: false },
            { ...it, str: it.str.slice(half) },
          ];
    });
    const aligned = alignSpan(doc.text, part, split);
    expect(aligned.located).toBe(aligned.chars);
    const words = aligned.pieces
      .flatMap((p) => split[p.item].str.slice(p.from, p.to).split(/\s+/))
      .filter(Boolean);
    expect(words.join(' ')).toBe(doc.text.slice(start, end).split(/\s+/).filter(Boolean).join(' '));
    // A page that holds other text: less than half is found, so nothing is highlighted.
    const other = items.find((list, i) => i !== part.page - 1 && list.length > 0)!;
    expect(isLocated(alignSpan(doc.text, part, other))).toBe(false);
  });
});
