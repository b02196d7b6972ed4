/**
 * The Markdown export is inert (issue 34, point 3): a conversation whose questions, answers, quotes, title,
 * model name and error carry HTML, scripts, event handlers, `javascript:` links, images and Markdown link and
 * image syntax is exported, and the export is rendered with markdown-it set up as the most trusting viewer
 * (raw HTML on, links of every scheme allowed, bare URLs linked). The result holds no live element: no tag but
 * the export's own (headings, paragraphs, emphasis, quotes), no attribute but none, no link, no image. The text
 * still reads as it was written.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { conversationMarkdown, markdownText } from '../../src/app/conversations/markdown';
import type { ConversationRecord, ConversationTurn } from '../../src/storage';

/** Hostile text as the trial typed it, and more. */
const HOSTILE = [
  '<script>alert("q")</script>',
  '<img src=x onerror="alert(1)">',
  '<a href="javascript:alert(2)">click</a>',
  '[click](javascript:alert(3))',
  '![pixel](https://tracker.example/p.png)',
  '<javascript:alert(4)>',
  '<iframe src="https://evil.example"></iframe>',
  '&lt;script&gt;alert(5)&lt;/script&gt;',
  '[ref]\n\n[ref]: javascript:alert(6)',
  '<svg onload=alert(7)>',
  'text{: onclick="alert(8)"}',
  '`code` *em* _em_ ~~struck~~ a|b',
  '<!-- a comment --> <style>body{display:none}</style>',
  '\\<script>alert(9)\\</script>',
];

const turnOf = (i: number): ConversationTurn => ({
  id: `t${i}`,
  question: `Question ${HOSTILE[i % HOSTILE.length]}`,
  search: `Search ${HOSTILE[(i + 1) % HOSTILE.length]}`,
  rewrite: 'llm',
  askedAt: 0,
  settings: { mode: 'collapsed', search: 'keywords', rerank: false, distinct: true, maxTokens: 2000 },
  retrieved: { collapsed: [1] },
  passages: HOSTILE.map((text, n) => ({ id: n, layer: n % 2, text: `Passage ${n}: ${text}` })),
  answer: {
    text: `Answer ${HOSTILE.join('\n')} [1]`,
    citations: [{ n: 1, nodeId: 1 }],
    writer: `model <img src=x onerror=alert(10)>`,
    error: `server said <script>alert(11)</script>`,
  },
  treeStamp: 's',
});

const record: ConversationRecord = {
  id: 'c',
  treeId: 't',
  kind: 'conversation',
  title: '<script>alert("title")</script>',
  createdAt: 0,
  updatedAt: 0,
  turnCount: HOSTILE.length,
};

/** The most trusting viewer: raw HTML rendered, any link scheme accepted, bare URLs turned into links. */
function trustingRenderer() {
  const md = new MarkdownIt({ html: true, linkify: true });
  md.validateLink = () => true;
  return md;
}

/** Every opening tag of `html` with its attribute names. */
function tags(html: string): { name: string; attributes: string[] }[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => ({
    name: m[1].toLowerCase(),
    attributes: [...m[2].matchAll(/([^\s=/]+)\s*(?:=|(?=\s|$))/g)].map((a) => a[1].toLowerCase()),
  }));
}

/** The tags the export itself writes: headings, paragraphs, emphasis, block quotes, line breaks. */
const OWN_TAGS = new Set(['h1', 'h2', 'p', 'em', 'strong', 'blockquote', 'br']);

describe('the Markdown export is inert', () => {
  const turns = HOSTILE.map((_, i) => turnOf(i));
  const markdown = conversationMarkdown(record, turns, 'Tree <b onmouseover=alert(12)>title</b>', 's');
  const md = trustingRenderer();
  const html = md.render(markdown);

  it('renders no element but its own, with no attribute, script, handler, image or written link', () => {
    // A viewer that links bare web addresses links them here too, as in any text: those are the only links,
    // each an http(s) address shown as itself.
    const bareLinks = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)];
    expect(bareLinks.map((m) => m[1])).toEqual(bareLinks.map((m) => m[2]));
    expect(bareLinks.every((m) => /^https:\/\//.test(m[1]))).toBe(true);
    const found = tags(html.replace(/<a href="https:[^"]*">/g, ''));
    expect(found.length).toBeGreaterThan(HOSTILE.length * 4);
    expect(found.filter((t) => !OWN_TAGS.has(t.name))).toEqual([]);
    expect(found.filter((t) => t.attributes.length > 0)).toEqual([]);
    const tokens = md.parse(markdown, {}).flatMap((t) => [t, ...(t.children ?? [])]);
    const live = tokens.filter(
      (t) =>
        ['html_block', 'html_inline', 'image', 'code_inline', 'fence', 's_open'].includes(t.type) ||
        (t.type === 'link_open' && t.markup !== 'linkify'),
    );
    expect(live.map((t) => t.type)).toEqual([]);
    // Event handlers would be attributes (none above); a "<" in text is always &lt;.
    expect(html).not.toMatch(/<script|<img|<iframe|<svg|<style|href="javascript:/i);
  });

  it('still reads as the text it was: the hostile strings appear as characters', () => {
    const text = html.replace(/<[^>]+>/g, '');
    const decoded = text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    expect(decoded).toContain('<script>alert("q")</script>');
    expect(decoded).toContain('<img src=x onerror="alert(1)">');
    expect(decoded).toContain('[click](javascript:alert(3))');
    expect(decoded).toContain('&lt;script&gt;alert(5)&lt;/script&gt;');
    expect(decoded).toContain('`code` *em* _em_ ~~struck~~ a|b');
    expect(decoded).toContain('Tree <b onmouseover=alert(12)>title</b>');
    expect(decoded).toContain('model <img src=x onerror=alert(10)>');
  });

  it('is one function every export line goes through', () => {
    for (const text of HOSTILE) {
      const rendered = trustingRenderer()
        .render(markdownText(text))
        .replace(/<a href="https:[^"]*">/g, '');
      expect(tags(rendered).filter((t) => t.name !== 'p' && t.name !== 'br')).toEqual([]);
    }
    // Line starts that would open blocks stay text.
    expect(trustingRenderer().render(markdownText('# a\n- b\n1. c\n===\n> d'))).toBe(
      '<p># a\n- b\n1. c\n===\n&gt; d</p>\n',
    );
  });
});
