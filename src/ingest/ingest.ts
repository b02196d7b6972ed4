/**
 * A user's file, or pasted text, to an `IngestedDocument`. The size is checked before anything is read, then
 * the first `SNIFF_BYTES` decide the route (sniff.ts): PDF, Word, HTML, Markdown or plain text, or a typed
 * refusal. Every route ends the same way: line breaks normalised, blank text refused, limits checked.
 *
 * Runs anywhere (browser main thread, worker, Node). On a page, call it through `ingestInWorker`
 * (client.ts): PDF and Word parsing are synchronous stretches of work that would otherwise freeze the tab.
 */
import { throwIfAborted } from '../core/abort';
import { decodeTextFile } from './decode';
import { checkUnpackedSize, extractDocxText, loadMammoth, type MammothModule } from './docx';
import { IngestError, quoted } from './errors';
import { declaredCharset, htmlToText, type HtmlParser } from './html';
import { MAX_TEXT_CHARS, SNIFF_BYTES } from '../protocol/ingest-limits';
import { extractPdfText, type PdfRuntime } from './pdf';
import { preflight } from './preflight';
import { loadPdfjs } from './pdfjs-runtime';
import { readBytes } from './read';
import { routeFile, sniffSignature, type Route } from './sniff';
import { checkText, cleanText, largeTextWarning, nulWarning, utf8Length } from './text';
import type { IngestedDocument, IngestFile, IngestOptions, IngestType } from '../protocol/ingest';

/** The parsers ingestion uses, injectable so each environment (worker, Node test) supplies its own. */
export interface IngestDeps {
  /** Loads PDF.js. Default: `loadPdfjs()` (legacy build, parsing in this thread, no CMaps). */
  loadPdf?: () => Promise<PdfRuntime>;
  /** Loads mammoth. Default: `loadMammoth()`. */
  loadMammoth?: () => Promise<MammothModule>;
  /** Parser for HTML (and Word's HTML). Default: DOMParser where it exists, else the tokenizer. */
  htmlParser?: HtmlParser;
}

/** Characters of HTML decoded per character of text allowed, before the text is extracted and checked. */
const HTML_MARKUP_FACTOR = 5;

/** Name given to pasted text by default. */
export const PASTED_TEXT_NAME = 'Pasted text';

function refusal(name: string, route: Exclude<Route, { read: unknown }>): IngestError {
  switch (route.refuse) {
    case 'CORRUPT': {
      const format = route.format === 'pdf' ? 'PDF' : 'Word (.docx) document';
      const looks = route.looksLike ? `: it looks like ${route.looksLike}` : '';
      return new IngestError(
        'CORRUPT',
        `${quoted(name)} is not a valid ${format}${looks}. The file may be damaged or misnamed.`,
        { name, format: route.format, looksLike: route.looksLike },
      );
    }
    case 'UNSUPPORTED_TYPE':
      return new IngestError(
        'UNSUPPORTED_TYPE',
        `Aerie can't read ${route.label} files (${quoted(name)}). Save or export it as PDF, Word (.docx), HTML, Markdown or plain text, then try again.`,
        { name, format: route.label },
      );
    case 'BINARY':
      return new IngestError(
        'BINARY',
        `${quoted(name)} is not a text file: it looks like ${route.looksLike}.`,
        {
          name,
          looksLike: route.looksLike,
        },
      );
  }
}

async function finish(
  file: IngestFile,
  type: IngestType,
  text: string,
  warnings: string[],
  maxChars: number,
  pdf?: Pick<IngestedDocument, 'pageStarts' | 'layout'>,
): Promise<IngestedDocument> {
  checkText(file.name, text, maxChars);
  const large = await largeTextWarning(file.name, text);
  return {
    name: file.name,
    type,
    size: file.size,
    text,
    ...(pdf ? { pageStarts: pdf.pageStarts, layout: pdf.layout } : {}),
    warnings: large ? [...warnings, large] : warnings,
  };
}

/**
 * Reads a file into a document (see the module comment and docs/ingest.md).
 * @param deps parsers to use (tests inject Node's; the worker injects bundled CMaps).
 * @throws IngestError with a code a user can act on (see `IngestErrorCode`); AbortError when the signal fires.
 */
export async function ingestFile(
  file: IngestFile,
  options: IngestOptions = {},
  deps: IngestDeps = {},
): Promise<IngestedDocument> {
  const { signal, onProgress } = options;
  const maxChars = options.maxChars ?? MAX_TEXT_CHARS;
  throwIfAborted(signal);
  preflight(file, options.maxBytes);
  const head = await readBytes(file, 0, Math.min(file.size, SNIFF_BYTES));
  const route = routeFile(file.name, sniffSignature(head));
  if ('refuse' in route) throw refusal(file.name, route);
  const warnings: string[] = [];
  if (route.mismatch) {
    warnings.push(`${quoted(file.name)} is ${route.mismatch}, whatever its name says; it was read as one.`);
  }
  throwIfAborted(signal);

  if (route.read === 'pdf') {
    const runtime = await (deps.loadPdf ?? loadPdfjs)();
    const data = await readBytes(file, 0, file.size);
    onProgress?.({ stage: 'read', done: file.size, total: file.size });
    const pdf = await extractPdfText(data, runtime, {
      name: file.name,
      password: options.password,
      signal,
      maxChars,
      onProgress,
    });
    return finish(file, 'pdf', pdf.text, [...warnings, ...pdf.warnings], maxChars, pdf);
  }

  if (route.read === 'docx') {
    const data = await readBytes(file, 0, file.size);
    onProgress?.({ stage: 'read', done: file.size, total: file.size });
    checkUnpackedSize(data.buffer as ArrayBuffer, file.name); // a zip bomb is refused before mammoth loads
    const mammoth = await (deps.loadMammoth ?? loadMammoth)();
    onProgress?.({ stage: 'convert', done: 0, total: 1 });
    const docx = await extractDocxText(data.buffer as ArrayBuffer, mammoth, file.name, deps.htmlParser);
    throwIfAborted(signal);
    onProgress?.({ stage: 'convert', done: 1, total: 1 });
    const cleaned = cleanText(docx.text);
    warnings.push(...docx.warnings);
    if (cleaned.nul > 0) warnings.push(nulWarning(file.name, cleaned.nul));
    return finish(file, 'docx', cleaned.text, warnings, maxChars);
  }

  const decoded = await decodeTextFile(file, head, {
    signal,
    // Markup is most of a web page: its text is checked against `maxChars` once extracted.
    maxChars: route.read === 'html' ? maxChars * HTML_MARKUP_FACTOR : maxChars,
    onProgress,
    declaredCharset: route.read === 'html' ? declaredCharset(head) : undefined,
  });
  warnings.push(...decoded.warnings);
  const cleaned = cleanText(decoded.text);
  if (cleaned.nul > 0) warnings.push(nulWarning(file.name, cleaned.nul));
  if (route.read !== 'html') return finish(file, route.read, cleaned.text, warnings, maxChars);

  onProgress?.({ stage: 'convert', done: 0, total: 1 });
  const text = htmlToText(cleaned.text, deps.htmlParser);
  onProgress?.({ stage: 'convert', done: 1, total: 1 });
  return finish(file, 'html', text, warnings, maxChars);
}

/**
 * Pasted text as a document: line breaks normalised, byte-order mark and NULs removed.
 * @throws IngestError `EMPTY` (nothing pasted), `NO_TEXT` (blank or invisible), `TOO_LARGE` (above `maxChars`).
 */
export async function ingestText(
  text: string,
  name: string = PASTED_TEXT_NAME,
  options: Pick<IngestOptions, 'maxChars'> = {},
): Promise<IngestedDocument> {
  if (text.length === 0)
    throw new IngestError('EMPTY', 'Nothing was pasted. Paste some text first.', { name });
  const cleaned = cleanText(text);
  const warnings = cleaned.nul > 0 ? [nulWarning(name, cleaned.nul)] : [];
  checkText(name, cleaned.text, options.maxChars ?? MAX_TEXT_CHARS);
  const large = await largeTextWarning(name, cleaned.text);
  return {
    name,
    type: 'paste',
    size: utf8Length(text),
    text: cleaned.text,
    warnings: large ? [...warnings, large] : warnings,
  };
}
