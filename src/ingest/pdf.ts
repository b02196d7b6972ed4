/**
 * Text of a PDF, page by page, with PDF.js. The PDF.js module is injected (`PdfRuntime`), so the browser
 * worker and Node tests run this same code with the same legacy build (see pdfjs-runtime.ts).
 *
 * Each page's text items are joined in reading order: a line break where PDF.js marks the end of a line, and
 * a blank line (a paragraph break the chunker respects) where the gap to the next line is clearly larger than
 * the page's usual line spacing. Pages are separated by a blank line and `pageStarts` records where each page
 * after the first begins. Nothing here renders, evaluates code, or loads fonts.
 */
import { isAbortError, onAbort, throwIfAborted, type AbortSignalLike } from '../core/abort';
import type { getDocument } from 'pdfjs-dist';
import type { DocumentInitParameters, TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';
import { IngestError, quoted } from './errors';
import { formatCount, MAX_PDF_PAGES, MIN_PDF_CHARS_PER_PAGE } from '../protocol/ingest-limits';
import { nulWarning } from './text';
import {
  pageLayout,
  pageTextWithRuns,
  type PageText,
  type PdfLayout,
  type PdfPageLayout,
} from '../protocol/pdf-layout';
import type { IngestProgress } from '../protocol/ingest';

/** The parts of the PDF.js module used here (`pdfjs-dist/legacy/build/pdf.mjs` satisfies it). */
export interface PdfjsModule {
  getDocument: typeof getDocument;
}

/** PDF.js, ready to use, with the extra `getDocument` parameters this environment needs (e.g. CMap loading). */
export interface PdfRuntime {
  pdfjs: PdfjsModule;
  params?: Partial<DocumentInitParameters>;
}

/** Options of `extractPdfText`. */
export interface PdfOptions {
  /** The file name, for messages. */
  name: string;
  password?: string;
  signal?: AbortSignalLike;
  /** Most characters accepted; extraction stops with `TOO_LARGE` past it. */
  maxChars: number;
  onProgress?: (progress: IngestProgress) => void;
}

/** A PDF's text. */
export interface PdfText {
  text: string;
  /** Offsets in `text` where pages 2, 3, … start. */
  pageStarts: number[];
  pages: number;
  /** Where each page's characters come from (pdf-layout.ts). */
  layout: PdfLayout;
  warnings: string[];
}

/** Between pages. */
const PAGE_BREAK = '\n\n';
/** Page ranges listed by number in a warning before the rest are summarised. */
const MAX_LISTED_RANGES = 5;
/** PDF.js `PasswordResponses.INCORRECT_PASSWORD`. */
const INCORRECT_PASSWORD = 2;
/** PDF.js verbosity: errors only (its warnings about fonts and images are not the user's concern). */
const VERBOSITY_ERRORS = 0;

/** Settings every document is opened with: no code evaluation, no fonts, no fetching beyond what is injected. */
const SAFE_PARAMS: Partial<DocumentInitParameters> = {
  isEvalSupported: false,
  disableFontFace: true,
  // Standard fonts are not needed for text (their encodings are built in): do not fetch them.
  useSystemFonts: true,
  // WebAssembly decoders serve images only.
  useWasm: false,
  useWorkerFetch: false,
  enableXfa: false,
  stopAtErrors: false,
  verbosity: VERBOSITY_ERRORS,
};

/** Groups a page's text items into lines, joined with a line break or a paragraph break (see pdf-layout.ts). */
export function pageText(items: (TextItem | TextMarkedContent)[]): string {
  return pageTextWithRuns(items).text;
}

/** "3, 7–9 and 12": page numbers as ranges. */
function pageRanges(pages: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    ranges.push(i === j ? `${pages[i]}` : `${pages[i]}–${pages[j]}`);
    i = j + 1;
  }
  const listed = ranges.slice(0, MAX_LISTED_RANGES);
  const more = ranges.length - listed.length;
  if (more > 0) return `${listed.join(', ')} and ${more} more`;
  return listed.length > 1 ? `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}` : listed[0];
}

function nonWhitespaceCount(text: string): number {
  return text.replace(/\s+/g, '').length;
}

function openError(error: unknown, name: string): IngestError {
  const pdfError = error as { name?: string; code?: number; message?: string };
  if (pdfError?.name === 'PasswordException') {
    const incorrect = pdfError.code === INCORRECT_PASSWORD;
    return new IngestError(
      'ENCRYPTED_PDF',
      incorrect
        ? `The password for ${quoted(name)} is incorrect.`
        : `${quoted(name)} is password-protected. Enter its password, or save an unprotected copy and try again.`,
      { name, reason: incorrect ? 'incorrect-password' : 'password-required' },
    );
  }
  const reason = pdfError?.message ?? String(error);
  return new IngestError(
    'CORRUPT',
    `${quoted(name)} could not be read as a PDF (${reason}). The file may be damaged or incomplete; open it in a PDF viewer and save a new copy.`,
    { name, reason },
  );
}

/**
 * Extracts the text of a PDF.
 * @throws IngestError `ENCRYPTED_PDF`, `CORRUPT`, `NO_TEXT_LAYER` (fewer than `MIN_PDF_CHARS_PER_PAGE`
 *   non-whitespace characters per page), `TOO_LARGE`; AbortError when the signal fires.
 */
export async function extractPdfText(
  data: Uint8Array,
  runtime: PdfRuntime,
  options: PdfOptions,
): Promise<PdfText> {
  const { name, signal } = options;
  const task = runtime.pdfjs.getDocument({
    ...runtime.params,
    ...SAFE_PARAMS,
    data,
    ...(options.password !== undefined ? { password: options.password } : {}),
  });
  // Destroying the task rejects whatever PDF.js is doing, so a cancel takes effect mid-page.
  const stopListening = onAbort(signal, () => void task.destroy());
  try {
    let doc;
    try {
      doc = await task.promise;
    } catch (error) {
      throwIfAborted(signal);
      throw openError(error, name);
    }
    const pages = doc.numPages;
    if (pages > MAX_PDF_PAGES) {
      throw new IngestError(
        'TOO_LARGE',
        `${quoted(name)} has ${formatCount(pages)} pages, more than the ${formatCount(MAX_PDF_PAGES)} Aerie reads from one PDF. Split it into smaller files.`,
        { name, pages, maxPages: MAX_PDF_PAGES },
      );
    }
    const warnings: string[] = [];
    const emptyPages: number[] = [];
    const failedPages: number[] = [];
    const pageStarts: number[] = [];
    const layoutPages: PdfPageLayout[] = [];
    let text = '';
    let nul = 0;
    let characters = 0;
    for (let number = 1; number <= pages; number++) {
      throwIfAborted(signal);
      let page: PageText = { text: '', runs: [], nul: 0 };
      let items: (TextItem | TextMarkedContent)[] = [];
      try {
        const pdfPage = await doc.getPage(number);
        items = (await pdfPage.getTextContent()).items;
        page = pageTextWithRuns(items);
        pdfPage.cleanup();
      } catch (error) {
        if (isAbortError(error)) throw error;
        failedPages.push(number);
      }
      nul += page.nul;
      const count = nonWhitespaceCount(page.text);
      characters += count;
      if (count === 0) emptyPages.push(number);
      if (number > 1) {
        text += PAGE_BREAK;
        pageStarts.push(text.length);
      }
      layoutPages.push(pageLayout(text.length, page, items));
      text += page.text;
      if (text.length > options.maxChars) {
        throw new IngestError(
          'TOO_LARGE',
          `${quoted(name)} has more than ${formatCount(options.maxChars)} characters of text (reached on page ${number} of ${pages}), the most Aerie builds a tree from in the browser. Split it into smaller files.`,
          { name, chars: text.length, maxChars: options.maxChars, page: number, pages },
        );
      }
      options.onProgress?.({ stage: 'pages', done: number, total: pages });
    }
    throwIfAborted(signal);
    if (failedPages.length === pages) {
      throw new IngestError('CORRUPT', `No page of ${quoted(name)} could be read; the file is damaged.`, {
        name,
        pages,
      });
    }
    if (characters < MIN_PDF_CHARS_PER_PAGE * pages) {
      throw new IngestError(
        'NO_TEXT_LAYER',
        `${quoted(name)} has no text layer (${characters} characters on ${pages} page${pages === 1 ? '' : 's'}): it is probably a scan or pictures of text. Run it through OCR (text recognition) to add a text layer, then try again.`,
        { name, pages, characters, minPerPage: MIN_PDF_CHARS_PER_PAGE },
      );
    }
    if (failedPages.length > 0) {
      warnings.push(
        `Pages ${pageRanges(failedPages)} of ${quoted(name)} could not be read and were skipped.`,
      );
    }
    const blank = emptyPages.filter((page) => !failedPages.includes(page));
    if (blank.length > 0) {
      const which = blank.length === 1 ? `Page ${blank[0]}` : `Pages ${pageRanges(blank)}`;
      warnings.push(
        `${which} of ${quoted(name)} ${blank.length === 1 ? 'has' : 'have'} no text (blank, or scanned images: run OCR to include scanned pages).`,
      );
    }
    if (nul > 0) warnings.push(nulWarning(name, nul));
    return { text, pageStarts, pages, warnings, layout: { version: 1, pages: layoutPages } };
  } finally {
    stopListening();
    await task.destroy();
  }
}
