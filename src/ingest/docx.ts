/**
 * Text of a Word (.docx) document. mammoth converts the document to HTML and `htmlToText` turns that into
 * text, rather than mammoth's own `extractRawText`: the raw text drops line breaks inside a paragraph
 * ("Line one<br/>Line two" becomes "Line oneLine two") and loses list items and table cells, which the HTML keeps
 * (headings, paragraphs and cells become blocks, list items get markers). Images are not read at all, and
 * mammoth's access to files outside the document stays off.
 */
import type mammoth from 'mammoth';
import { IngestError, quoted } from './errors';
import { htmlToText, type HtmlParser } from './html';
import { formatBytes, MAX_DOCX_UNPACKED_BYTES } from '../protocol/ingest-limits';
import { readZipDirectory } from './zip-directory';

/** The parts of mammoth used here. */
export type MammothModule = Pick<typeof mammoth, 'convertToHtml' | 'images'>;

/** Loads mammoth (a CommonJS module: its functions may sit on the default export). */
export async function loadMammoth(): Promise<MammothModule> {
  const module = (await import('mammoth')) as MammothModule & { default?: MammothModule };
  return module.default ?? module;
}

/** A Word document's text and the problems mammoth reported. */
export interface DocxText {
  text: string;
  warnings: string[];
}

/** mammoth's error when the file is not a ZIP archive (from JSZip). */
const NOT_A_ZIP = /central directory|zip/i;
/** mammoth's error when the ZIP archive holds no Word document. */
const NO_MAIN_PART = /main document part/i;
/** JSZip's error when a part unpacks to another size than its header declares. */
const SIZE_MISMATCH = /size mismatch/i;
/** What the runtime says when a part's text is too large to hold (a string or buffer beyond its limits). */
const TOO_BIG_TO_HOLD =
  /invalid string length|allocation failed|out of memory|invalid doc source|array buffer/i;
/** mammoth's XML parser (xmldom) reporting a part that is not well-formed XML. */
const BAD_XML = /xmldom|xml/i;

/** A sentence for what went wrong inside mammoth, never its raw message (which names parser internals). */
function whyUnreadable(reason: string): { code: 'CORRUPT' | 'TOO_LARGE'; what: string } {
  if (NO_MAIN_PART.test(reason))
    return { code: 'CORRUPT', what: 'it is a ZIP archive but holds no Word document' };
  if (SIZE_MISMATCH.test(reason)) {
    return {
      code: 'CORRUPT',
      what:
        'its parts do not unpack to the sizes the package declares (the file is damaged, or it is a “zip ' +
        'bomb” hiding how far it expands)',
    };
  }
  if (TOO_BIG_TO_HOLD.test(reason))
    return { code: 'TOO_LARGE', what: 'it unpacks to more text than a browser can hold' };
  if (BAD_XML.test(reason))
    return { code: 'CORRUPT', what: 'the document inside the package is damaged or cut short' };
  if (NOT_A_ZIP.test(reason))
    return { code: 'CORRUPT', what: 'it is not a valid .docx package (those are ZIP archives)' };
  return { code: 'CORRUPT', what: 'its package could not be unpacked' };
}

/**
 * Refuses a package that declares more unpacked bytes than `MAX_DOCX_UNPACKED_BYTES` (a zip bomb), before
 * anything is unpacked.
 * @throws IngestError TOO_LARGE.
 */
export function checkUnpackedSize(data: ArrayBuffer, name: string): void {
  const entries = readZipDirectory(new Uint8Array(data));
  if (!entries) return; // mammoth reports an unreadable package
  const unpacked = entries.reduce((sum, e) => sum + e.size, 0);
  if (unpacked <= MAX_DOCX_UNPACKED_BYTES) return;
  const size = Number.isFinite(unpacked) ? formatBytes(unpacked) : 'more than 4 GB';
  throw new IngestError(
    'TOO_LARGE',
    `${quoted(name)} would expand to ${size} when unpacked, more than the ` +
      `${formatBytes(MAX_DOCX_UNPACKED_BYTES)} Aerie unpacks from a Word file, so it was not opened: a ` +
      'document of that size is almost always a “zip bomb”. If it is a real document, save it as plain text ' +
      '(.txt) and add that instead.',
    { name, unpackedBytes: unpacked, maxBytes: MAX_DOCX_UNPACKED_BYTES },
  );
}
/** mammoth messages shown to the user, at most (the rest are counted). */
const MAX_LISTED_MESSAGES = 3;

/**
 * Extracts the text of a .docx file.
 * @throws IngestError `TOO_LARGE` when the package would unpack beyond `MAX_DOCX_UNPACKED_BYTES` (checked before
 *   unpacking) or beyond what a browser can hold; `CORRUPT` when it is not a ZIP package, holds no Word document
 *   or its parts are damaged. Messages are sentences, never a parser's own words.
 */
export async function extractDocxText(
  data: ArrayBuffer,
  converter: MammothModule,
  name: string,
  parser?: HtmlParser,
): Promise<DocxText> {
  // mammoth reads `arrayBuffer` in browsers and `buffer` in Node (an ArrayBuffer works for both).
  const input = { arrayBuffer: data, buffer: data };
  checkUnpackedSize(data, name);
  let result: Awaited<ReturnType<MammothModule['convertToHtml']>>;
  try {
    result = await converter.convertToHtml(input, {
      convertImage: converter.images.imgElement(() => Promise.resolve({ src: '' })),
      externalFileAccess: false,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const { code, what } = whyUnreadable(reason);
    const fix =
      code === 'TOO_LARGE'
        ? 'Save its text as plain text (.txt) and add that instead.'
        : 'The file may be damaged or misnamed; open it in Word and save it as .docx again.';
    throw new IngestError(code, `${quoted(name)} could not be read as a Word document: ${what}. ${fix}`, {
      name,
      reason,
    });
  }
  const errors = result.messages.filter((m) => m.type === 'error').map((m) => m.message);
  const warnings =
    errors.length === 0
      ? []
      : [
          `Parts of ${quoted(name)} could not be converted: ${errors.slice(0, MAX_LISTED_MESSAGES).join('; ')}${errors.length > MAX_LISTED_MESSAGES ? ` (and ${errors.length - MAX_LISTED_MESSAGES} more)` : ''}.`,
        ];
  return { text: htmlToText(result.value, parser), warnings };
}
