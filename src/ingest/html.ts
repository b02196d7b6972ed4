/**
 * Plain text of an HTML document. On a page's main thread the browser's own parser (DOMParser) builds the
 * tree: it decodes every named character reference and repairs malformed markup exactly as the browser does,
 * and a document it creates never runs scripts or loads anything. Workers and Node have no DOMParser; there
 * the tokenizer of html-tokenizer.ts feeds the same `HtmlTextSink`, so both paths apply the same rules (see
 * html-sink.ts). The result is text only: it is never rendered as HTML anywhere.
 */
import { HtmlTextSink } from './html-sink';
import { tokenizerHtmlToText } from './html-tokenizer';

/** The part of a DOM node the walker reads (DOM and WebWorker typings both satisfy it, so do test fakes). */
export interface DomNodeLike {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly nodeValue: string | null;
  readonly firstChild: DomNodeLike | null;
  readonly nextSibling: DomNodeLike | null;
  getAttribute?(name: string): string | null;
}

/** The part of DOMParser used here. */
export interface DomParserLike {
  parseFromString(html: string, type: 'text/html'): { readonly documentElement: DomNodeLike | null };
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Feeds a DOM subtree to `sink` in document order, without recursion (deep markup cannot overflow the stack). */
export function walkDom(root: DomNodeLike, sink: HtmlTextSink): void {
  // Each entry is a node to enter, or (closing) an element whose children are done.
  const stack: { node: DomNodeLike; closing: boolean }[] = [{ node: root, closing: false }];
  while (stack.length > 0) {
    const { node, closing } = stack.pop()!;
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
      sink.text(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const name = node.nodeName.toLowerCase();
    if (closing) {
      sink.close(name);
      continue;
    }
    sink.open(name, node.getAttribute?.('start'));
    stack.push({ node, closing: true });
    const children: DomNodeLike[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    for (let c = children.length - 1; c >= 0; c--) stack.push({ node: children[c], closing: false });
  }
}

/** Which parser `htmlToText` uses: the browser's when there is one, or the tokenizer. */
export type HtmlParser = 'dom' | 'tokenizer';

function availableDomParser(): (new () => DomParserLike) | undefined {
  const candidate = (globalThis as { DOMParser?: new () => DomParserLike }).DOMParser;
  return typeof candidate === 'function' ? candidate : undefined;
}

/** The parser `htmlToText` uses here by default. */
export function defaultHtmlParser(): HtmlParser {
  return availableDomParser() ? 'dom' : 'tokenizer';
}

/**
 * Plain text of an HTML document: visible text only, blocks separated by blank lines, whitespace collapsed
 * (see html-sink.ts for the rules).
 * @param parser 'dom' needs a global DOMParser (browser main thread); default: 'dom' when available.
 */
export function htmlToText(html: string, parser: HtmlParser = defaultHtmlParser()): string {
  const DomParser = parser === 'dom' ? availableDomParser() : undefined;
  if (!DomParser) return tokenizerHtmlToText(html);
  const root = new DomParser().parseFromString(html, 'text/html').documentElement;
  const sink = new HtmlTextSink();
  if (root) walkDom(root, sink);
  return sink.result();
}

/** Bytes searched for a `<meta charset>` declaration, as browsers' prescan does. */
const CHARSET_PRESCAN_BYTES = 1024;

/** The encoding label an HTML page declares in its first bytes (`<meta charset=…>` or http-equiv), if any. */
export function declaredCharset(head: Uint8Array): string | undefined {
  const start = new TextDecoder('windows-1252').decode(head.subarray(0, CHARSET_PRESCAN_BYTES));
  return /<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)/i.exec(start)?.[1];
}
