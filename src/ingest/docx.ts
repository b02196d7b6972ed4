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
/** mammoth messages shown to the user, at most (the rest are counted). */
const MAX_LISTED_MESSAGES = 3;

/**
 * Extracts the text of a .docx file.
 * @throws IngestError `CORRUPT` when the file is not a ZIP package or holds no Word document.
 */
export async function extractDocxText(
  data: ArrayBuffer,
  converter: MammothModule,
  name: string,
  parser?: HtmlParser,
): Promise<DocxText> {
  // mammoth reads `arrayBuffer` in browsers and `buffer` in Node (an ArrayBuffer works for both).
  const input = { arrayBuffer: data, buffer: data };
  let result: Awaited<ReturnType<MammothModule['convertToHtml']>>;
  try {
    result = await converter.convertToHtml(input, {
      convertImage: converter.images.imgElement(() => Promise.resolve({ src: '' })),
      externalFileAccess: false,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const what = NO_MAIN_PART.test(reason)
      ? 'it is a ZIP archive but holds no Word document'
      : NOT_A_ZIP.test(reason)
        ? 'it is not a valid .docx package (those are ZIP archives)'
        : reason;
    throw new IngestError(
      'CORRUPT',
      `${quoted(name)} could not be read as a Word document: ${what}. The file may be damaged or misnamed; open it in Word and save it as .docx again.`,
      { name, reason },
    );
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
