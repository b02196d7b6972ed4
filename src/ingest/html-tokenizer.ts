/**
 * A small HTML tokenizer for text extraction where DOMParser does not exist (workers, Node). It follows the
 * parts of the WHATWG tokenizer that decide what is text: comments, doctypes and processing instructions are
 * skipped; quoted attribute values may contain ">"; the content of raw-text elements (script, style, …) runs to
 * their end tag whatever it contains; a "<" that does not open a tag is text; character references are
 * decoded as a browser decodes them in text. It builds no tree: elements go to an `HtmlTextSink` as they
 * open and close, which is all plain-text extraction needs. Linear in the length of the input.
 */
import { LEGACY_ENTITIES, NAMED_ENTITIES } from './html-entities';
import { FOREIGN_ELEMENTS, HtmlTextSink } from './html-sink';
import { WINDOWS_1252_C1 } from './windows-1252';

/** Elements whose content is raw text up to their end tag (never markup). */
const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'title',
  'textarea',
]);

/** Elements after whose start tag one line feed is dropped. */
const LEADING_NEWLINE_ELEMENTS: ReadonlySet<string> = new Set(['pre', 'listing', 'textarea']);

const MAX_CODE_POINT = 0x10ffff;
const REPLACEMENT = '\ufffd';
const isLetter = (c: string | undefined): boolean => c !== undefined && /[A-Za-z]/.test(c);
const isSpace = (c: string | undefined): boolean =>
  c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';

function numericReference(digits: string, hex: boolean): string {
  const code = Number.parseInt(digits, hex ? 16 : 10);
  if (!Number.isFinite(code) || code === 0 || code > MAX_CODE_POINT || (code >= 0xd800 && code <= 0xdfff)) {
    return REPLACEMENT;
  }
  return String.fromCodePoint(WINDOWS_1252_C1.get(code) ?? code);
}

function namedReference(match: string, name: string, semicolon: boolean): string {
  if (semicolon) {
    const character = NAMED_ENTITIES.get(name);
    if (character !== undefined) return character;
  }
  // Without a semicolon a browser takes the longest legacy name the text starts with ("&copy2024" → "©2024").
  for (let length = name.length; length >= 2; length--) {
    const prefix = name.slice(0, length);
    if (LEGACY_ENTITIES.has(prefix)) return NAMED_ENTITIES.get(prefix) + match.slice(1 + length);
  }
  return match;
}

/** Decodes the character references of HTML text ("&amp;", "&#233;", "&#xE9;", "&copy"). */
export function decodeCharacterReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#([xX])([0-9A-Fa-f]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*)(;?))/g,
    (match, x: string | undefined, hexDigits: string, decimal: string, name: string, semicolon: string) => {
      if (x) return numericReference(hexDigits, true);
      if (decimal) return numericReference(decimal, false);
      return namedReference(match, name, semicolon === ';');
    },
  );
}

/** A tag read from the input: its lower-cased name, the index after it, and the attributes the sink uses. */
interface Tag {
  name: string;
  end: number;
  /** Ends with "/>". */
  selfClosing: boolean;
  start?: string;
}

/** Reads a tag's name and attributes from `i` (just after "<" or "</") to the index after its ">". */
function readTag(html: string, i: number): Tag {
  let j = i;
  while (j < html.length && !isSpace(html[j]) && html[j] !== '/' && html[j] !== '>') j++;
  const tag: Tag = { name: html.slice(i, j).toLowerCase(), end: html.length, selfClosing: false };
  while (j < html.length) {
    const c = html[j];
    if (c === '>') {
      tag.end = j + 1;
      tag.selfClosing = html[j - 1] === '/';
      return tag;
    }
    if (isSpace(c) || c === '/') {
      j++;
      continue;
    }
    const nameStart = j;
    j++; // an attribute name may start with "="
    while (j < html.length && !isSpace(html[j]) && html[j] !== '/' && html[j] !== '>' && html[j] !== '=') j++;
    const attribute = html.slice(nameStart, j).toLowerCase();
    while (isSpace(html[j])) j++;
    if (html[j] !== '=') continue;
    j++;
    while (isSpace(html[j])) j++;
    let value: string;
    const quote = html[j];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, j + 1);
      if (close === -1) return tag; // an unterminated value runs to the end: the tag is dropped
      value = html.slice(j + 1, close);
      j = close + 1;
    } else {
      const valueStart = j;
      while (j < html.length && !isSpace(html[j]) && html[j] !== '>') j++;
      value = html.slice(valueStart, j);
    }
    if (attribute === 'start') tag.start = decodeCharacterReferences(value);
  }
  return tag;
}

/** Index just after the end tag `</name …>` at or after `from`, and where that end tag starts. */
function findEndTag(html: string, name: string, from: number): { contentEnd: number; after: number } {
  const pattern = new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'gi');
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  if (!match) return { contentEnd: html.length, after: html.length };
  return { contentEnd: match.index, after: readTag(html, match.index + 2).end };
}

/** Index after a comment starting at `i` ("<!--"); "<!-->" and "<!--->" are complete comments. */
function skipComment(html: string, i: number): number {
  if (html.startsWith('>', i + 4)) return i + 5;
  if (html.startsWith('->', i + 4)) return i + 6;
  const end = html.indexOf('-->', i + 4);
  return end === -1 ? html.length : end + 3;
}

/** Index after a bogus comment ("<!doctype …>", "<?xml …?>", "<![CDATA[…]]>" outside foreign content). */
function skipToGreaterThan(html: string, i: number): number {
  const end = html.indexOf('>', i);
  return end === -1 ? html.length : end + 1;
}

/** Feeds the elements and text of `html` to `sink`. */
export function tokenizeHtml(html: string, sink: HtmlTextSink): void {
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const textEnd = lt === -1 ? html.length : lt;
    if (textEnd > i) sink.text(decodeCharacterReferences(html.slice(i, textEnd)));
    if (lt === -1) return;
    const next = html[lt + 1];
    if (html.startsWith('<!--', lt)) {
      i = skipComment(html, lt);
    } else if (next === '!' || next === '?') {
      i = skipToGreaterThan(html, lt + 2);
    } else if (next === '/') {
      if (isLetter(html[lt + 2])) {
        const tag = readTag(html, lt + 2);
        sink.close(tag.name);
        i = tag.end;
      } else if (html[lt + 2] === '>') {
        i = lt + 3;
      } else {
        i = skipToGreaterThan(html, lt + 2);
      }
    } else if (isLetter(next)) {
      const tag = readTag(html, lt + 1);
      i = tag.end;
      // In svg and math, as in XML, "<x/>" is an element without content (in HTML it is an ordinary start tag).
      const empty = tag.selfClosing && (FOREIGN_ELEMENTS.has(tag.name) || sink.inForeignContent);
      sink.open(tag.name, tag.start);
      if (empty) {
        sink.close(tag.name);
      } else if (RAW_TEXT_ELEMENTS.has(tag.name)) {
        // Raw text is never markup, whatever it contains: jump past the end tag. Only xmp shows it.
        const { contentEnd, after } = findEndTag(html, tag.name, i);
        if (!sink.hidden) sink.text(html.slice(i, contentEnd));
        sink.close(tag.name);
        i = after;
      } else if (tag.name === 'plaintext') {
        sink.text(html.slice(i));
        return;
      } else if (LEADING_NEWLINE_ELEMENTS.has(tag.name) && html[i] === '\n') {
        i++;
      }
    } else {
      sink.text('<');
      i = lt + 1;
    }
  }
}

/** Plain text of an HTML document, by the tokenizer (see `htmlToText` for the rules). */
export function tokenizerHtmlToText(html: string): string {
  const sink = new HtmlTextSink();
  tokenizeHtml(html, sink);
  return sink.result();
}
