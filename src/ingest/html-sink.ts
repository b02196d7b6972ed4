/**
 * Turns a stream of HTML elements and text into plain text, the same way whichever parser produced the
 * stream (the browser's DOMParser or the tokenizer used in workers and Node):
 * - not shown, so not text: script, style, template, noscript, the head (title included), and embedded or
 *   interactive content (iframe, noembed, noframes, object, svg, math, canvas, audio, video, select, datalist,
 *   textarea);
 * - block elements (p, div, headings, lists, tables, blockquote, pre, sections, …) are separated by a blank
 *   line, so the chunker never glues a heading or a table cell to the next sentence;
 * - list items start a line with "- " (or "1. ", "2. ", … in an ordered list), which the chunker reads as
 *   list items; table rows start a line and cells are separated by a tab; `<br>` is a line break;
 * - whitespace collapses as a browser renders it, except inside pre, listing, xmp and plaintext.
 */

/** Elements whose content is not shown. */
export const HIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'head',
  'title',
  'iframe',
  'object',
  'svg',
  'math',
  'canvas',
  'audio',
  'video',
  'select',
  'datalist',
  'textarea',
]);

/** Elements that belong in the head; any other element starts the body. */
const HEAD_CONTENT: ReadonlySet<string> = new Set([
  'base',
  'head',
  'link',
  'meta',
  'noscript',
  'script',
  'style',
  'template',
  'title',
]);

/** Head elements with content (text inside them does not start the body). */
const HEAD_CONTAINERS: ReadonlySet<string> = new Set(['noscript', 'script', 'style', 'template', 'title']);

/** Elements rendered as blocks: a blank line before and after. */
const PARAGRAPH_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'plaintext',
  'pre',
  'section',
  'table',
  'ul',
  'xmp',
]);

/** Elements that start (and end) a line without a blank line. */
const LINE_ELEMENTS: ReadonlySet<string> = new Set([
  'caption',
  'dd',
  'dt',
  'figcaption',
  'legend',
  'li',
  'summary',
  'tr',
]);

/** Elements whose whitespace is kept as written. */
export const PREFORMATTED_ELEMENTS: ReadonlySet<string> = new Set(['pre', 'listing', 'xmp', 'plaintext']);

/** Roots of foreign (XML-like) content in HTML. */
export const FOREIGN_ELEMENTS: ReadonlySet<string> = new Set(['svg', 'math']);

const LIST_ELEMENTS: ReadonlySet<string> = new Set(['ul', 'ol', 'menu', 'dir']);
const CELL_ELEMENTS: ReadonlySet<string> = new Set(['td', 'th']);

/** HTML's whitespace: space, tab, line feed, form feed, carriage return. */
const HTML_SPACE = /[ \t\n\f\r]+/;

/** Pending separator before the next text, in increasing strength. */
const Gap = { None: 0, Space: 1, Tab: 2, Line: 3, Paragraph: 4 } as const;
type Gap = (typeof Gap)[keyof typeof Gap];

interface List {
  ordered: boolean;
  next: number;
}

/** Receives elements and text in document order and builds the plain text (see the module comment). */
export class HtmlTextSink {
  private readonly parts: string[] = [];
  private gap: Gap = Gap.None;
  /** Forced line breaks (`<br>`) since the last text, at most 2. */
  private breaks = 0;
  private marker = '';
  private started = false;
  private hiddenName = '';
  private hiddenDepth = 0;
  /** Inside the head: depth of title, style, script… elements, whose text is theirs, not the body's. */
  private headInner = 0;
  private preDepth = 0;
  private readonly lists: List[] = [];

  /** True while inside an element whose content is not shown. */
  get hidden(): boolean {
    return this.hiddenDepth > 0;
  }

  /** True while inside svg or math, where `<x/>` closes the element it opens. */
  get inForeignContent(): boolean {
    return this.hiddenDepth > 0 && FOREIGN_ELEMENTS.has(this.hiddenName);
  }

  /** True while inside a preformatted element. */
  get preformatted(): boolean {
    return this.preDepth > 0;
  }

  /** An element starts. `start` is an ordered list's `start` attribute, if any. */
  open(name: string, start?: string | null): void {
    if (this.hiddenDepth > 0 && this.hiddenName === 'head') {
      if (HEAD_CONTENT.has(name)) {
        if (HEAD_CONTAINERS.has(name)) this.headInner++;
        if (name === 'head') this.hiddenDepth++;
        return;
      }
      // The head's end tag is optional: the body (or any element that belongs in it) ends the head.
      this.hiddenDepth = 0;
    }
    if (this.hiddenDepth > 0) {
      if (name === this.hiddenName) this.hiddenDepth++;
      return;
    }
    if (HIDDEN_ELEMENTS.has(name)) {
      this.hiddenName = name;
      this.hiddenDepth = 1;
      this.headInner = 0;
      return;
    }
    if (name === 'br') {
      this.breaks = Math.min(2, this.breaks + 1);
      return;
    }
    if (PARAGRAPH_ELEMENTS.has(name)) this.separate(Gap.Paragraph);
    else if (LINE_ELEMENTS.has(name)) this.separate(Gap.Line);
    else if (CELL_ELEMENTS.has(name)) this.separate(Gap.Tab);
    if (PREFORMATTED_ELEMENTS.has(name)) this.preDepth++;
    if (LIST_ELEMENTS.has(name)) {
      const first = Number.parseInt(start ?? '', 10);
      this.lists.push({ ordered: name === 'ol', next: Number.isFinite(first) ? first : 1 });
    }
    if (name === 'li') {
      const list = this.lists.at(-1);
      this.marker = list?.ordered ? `${list.next++}. ` : '- ';
    }
  }

  /** An element ends. */
  close(name: string): void {
    if (this.hiddenDepth > 0) {
      if (this.hiddenName === 'head' && HEAD_CONTAINERS.has(name))
        this.headInner = Math.max(0, this.headInner - 1);
      else if (name === this.hiddenName) this.hiddenDepth--;
      return;
    }
    if (PARAGRAPH_ELEMENTS.has(name)) this.separate(Gap.Paragraph);
    else if (LINE_ELEMENTS.has(name)) this.separate(Gap.Line);
    if (PREFORMATTED_ELEMENTS.has(name) && this.preDepth > 0) this.preDepth--;
    if (LIST_ELEMENTS.has(name)) this.lists.pop();
  }

  /** Text content (character references already decoded). */
  text(data: string): void {
    if (this.hiddenDepth > 0) {
      // Text directly in the head that is not whitespace means the body has begun.
      if (this.hiddenName !== 'head' || this.headInner > 0 || !/[^ \t\n\f\r]/.test(data)) return;
      this.hiddenDepth = 0;
    }
    if (this.preDepth > 0) {
      if (data.length > 0) this.emit(data);
      return;
    }
    const words = data.split(HTML_SPACE);
    for (let i = 0; i < words.length; i++) {
      if (i > 0) this.separate(Gap.Space);
      if (words[i]) this.emit(words[i]);
    }
  }

  /** The text so far, without leading or trailing separators. */
  result(): string {
    return this.parts.join('');
  }

  private separate(gap: Gap): void {
    if (gap > this.gap) this.gap = gap;
  }

  private emit(text: string): void {
    if (this.started) {
      const lines = Math.max(this.breaks, this.gap === Gap.Paragraph ? 2 : this.gap === Gap.Line ? 1 : 0);
      if (lines > 0) this.parts.push(lines === 2 ? '\n\n' : '\n');
      else if (this.gap === Gap.Tab) this.parts.push('\t');
      else if (this.gap === Gap.Space) this.parts.push(' ');
    }
    if (this.marker) this.parts.push(this.marker);
    this.parts.push(text);
    this.started = true;
    this.gap = Gap.None;
    this.breaks = 0;
    this.marker = '';
  }
}
