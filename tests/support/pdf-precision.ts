/**
 * The precision of citation highlights on made PDFs whose every line's place is known (scripts/fixtures/
 * pdf-maker.ts): each known passage is found in the ingested text, mapped to PDF.js's text items with the
 * ingest's layout (src/ingest/pdf-locate.ts), and its highlight is exact when it covers exactly the passage's
 * words, on exactly its pages and its lines. A highlight on any other line is wrong. Used by the unit test
 * and by `npm run bench citations`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ingestFile, type IngestDeps, type IngestedDocument } from '../../src/ingest';
import type { LayoutItem, PdfLayout } from '../../src/protocol/pdf-layout';
import { alignSpan, isLocated, locateSpan, sameItems, type PageSpan, loadPdfjs } from '../../src/ingest';
import type { LayoutManifest } from '../../scripts/fixtures/make-pdf-fixtures';
import type { DrawnLine } from '../../scripts/fixtures/pdf-maker';

const require = createRequire(import.meta.url);
const CMAP_DIR = join(dirname(require.resolve('pdfjs-dist/package.json')), 'cmaps');

/** Node's PDF.js with CMaps from disk (what the ingestion worker has bundled). */
export const nodePdfDeps: IngestDeps = {
  loadPdf: () => loadPdfjs(async (filename) => new Uint8Array(readFileSync(join(CMAP_DIR, filename)))),
};

/** The layout fixture: its PDF, its manifest. */
export function layoutFixture(): { pdf: Uint8Array; manifest: LayoutManifest } {
  const dir = new URL('../fixtures/pdf/', import.meta.url);
  return {
    pdf: new Uint8Array(readFileSync(new URL('layouts.pdf', dir))),
    manifest: JSON.parse(readFileSync(new URL('layouts.json', dir), 'utf8')) as LayoutManifest,
  };
}

/** Every page's text items as PDF.js gives them now (what the page view asks for). */
export async function pageItems(pdf: Uint8Array): Promise<LayoutItem[][]> {
  const { pdfjs } = await nodePdfDeps.loadPdf!();
  const doc = await pdfjs.getDocument({ data: pdf.slice(), isEvalSupported: false, useSystemFonts: true })
    .promise;
  const pages: LayoutItem[][] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    pages.push((await page.getTextContent()).items as LayoutItem[]);
  }
  await doc.destroy();
  return pages;
}

/** What one known passage's highlight came to. */
export interface PassageResult {
  kind: string;
  exact: boolean;
  /** Pieces that fell on a line the passage does not cover (or on another page). */
  wrong: number;
  /** Why it is not exact, when it is not. */
  problem?: string;
}

/** The escaped words of a passage joined by any whitespace: where it lies in the extracted text. */
function passagePattern(words: string[]): RegExp {
  return new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'g');
}

/** The drawn line a text item stands on (same page, same baseline, starting inside the line). */
function lineOf(lines: DrawnLine[], page: number, item: LayoutItem): DrawnLine | undefined {
  const [, , , , x, y] = item.transform;
  return lines.find(
    (l) => l.page === page && Math.abs(l.y - y) < 0.5 && x >= l.x - 0.5 && x <= l.x + l.width,
  );
}

/** The highlight of each part, as the page view computes it (runs, or words when the items changed). */
export function highlightParts(
  layout: PdfLayout,
  text: string,
  start: number,
  end: number,
  items: LayoutItem[][],
): PageSpan[] {
  return locateSpan(layout, text, start, end).map((part) => {
    const pageItems = items[part.page - 1];
    return sameItems(layout.pages[part.page - 1], pageItems) ? part : alignSpan(text, part, pageItems);
  });
}

/** Checks one passage's highlight against where the generator drew its words. */
export function checkPassage(
  doc: Pick<IngestedDocument, 'text'> & { layout: PdfLayout },
  manifest: LayoutManifest,
  items: LayoutItem[][],
  passage: LayoutManifest['passages'][number],
): PassageResult {
  const matches = [...doc.text.matchAll(passagePattern(passage.words))];
  if (matches.length !== 1)
    return { kind: passage.kind, exact: false, wrong: 0, problem: `${matches.length} matches` };
  const start = matches[0].index;
  const parts = highlightParts(doc.layout, doc.text, start, start + matches[0][0].length, items);
  const expected = new Set(passage.lines.map(([page, line]) => `${page}:${line}`));
  const seen = new Set<string>();
  const words: string[] = [];
  let wrong = 0;
  for (const part of parts) {
    if (!isLocated(part)) continue;
    for (const piece of part.pieces) {
      const item = items[part.page - 1][piece.item];
      const line = lineOf(manifest.lines, part.page, item);
      const key = line ? `${line.page}:${line.line}` : `${part.page}:?`;
      if (!expected.has(key)) wrong++;
      seen.add(key);
      words.push(...item.str.slice(piece.from, piece.to).split(/\s+/).filter(Boolean));
    }
  }
  const pages = parts.filter(isLocated).map((p) => p.page);
  const problems = [
    JSON.stringify(pages) !== JSON.stringify(passage.pages) &&
      `pages ${pages.join(',')} for ${passage.pages.join(',')}`,
    words.join(' ') !== passage.words.join(' ') && `words differ: "${words.join(' ').slice(0, 80)}"`,
    [...expected].some((k) => !seen.has(k)) &&
      `lines missed: ${[...expected].filter((k) => !seen.has(k)).join(' ')}`,
    wrong > 0 && `${wrong} pieces on other lines`,
  ].filter((p): p is string => typeof p === 'string');
  return {
    kind: passage.kind,
    exact: problems.length === 0,
    wrong,
    ...(problems.length ? { problem: problems.join('; ') } : {}),
  };
}

/** Every known passage of the layout fixture, ingested as the app ingests it (the layout recorded then). */
export async function fixturePrecision(change?: (layout: PdfLayout) => PdfLayout): Promise<PassageResult[]> {
  const { pdf, manifest } = layoutFixture();
  const doc = await ingestFile(new File([pdf.slice()], 'layouts.pdf'), {}, nodePdfDeps);
  const items = await pageItems(pdf);
  const layout = change ? change(doc.layout!) : doc.layout!;
  return manifest.passages.map((p) => checkPassage({ text: doc.text, layout }, manifest, items, p));
}
