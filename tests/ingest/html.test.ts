import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestFile } from '../../src/ingest';
import { defaultHtmlParser, htmlToText, walkDom, type DomNodeLike } from '../../src/ingest/html';
import { HtmlTextSink } from '../../src/ingest/html-sink';

const text = (html: string): string => htmlToText(html, 'tokenizer');

/** What page.html shows: no head, script, style, template or noscript; blocks apart; entities decoded. */
const PAGE_TEXT = [
  'Owls & Night',
  'Owls hunt at night.',
  'They see well — even in the dark…',
  'First block',
  'Second block',
  'Café éé © 2024 <tag> "quoted" &unknown; €uro \ufffd x',
  '- One\n- Two',
  '1. First\n2. Second',
  'Name\tValue\nOwl\t7',
  '  keep   this\n    spacing',
  'Line\nbreak and bold inline words spread over lines.',
  'End.',
].join('\n\n');

describe('HTML files', () => {
  it('extract the visible text of a page with scripts, styles, templates and entities', async () => {
    const file = new File(
      [readFileSync(new URL('../fixtures/ingest/page.html', import.meta.url))],
      'page.html',
    );
    const doc = await ingestFile(file, {}, { htmlParser: 'tokenizer' });
    expect(doc).toEqual({ name: 'page.html', type: 'html', size: file.size, text: PAGE_TEXT, warnings: [] });
  });

  it('use the tokenizer where there is no DOMParser (Node, workers)', () => {
    expect(defaultHtmlParser()).toBe('tokenizer');
    expect(htmlToText('<p>a</p><p>b</p>')).toBe('a\n\nb');
  });

  it('decode the charset a page declares when it is not UTF-8', async () => {
    const bytes = [
      ...Buffer.from('<meta charset="windows-1251"><p>'),
      0xc2,
      0xe5,
      0xf0,
      ...Buffer.from('</p>'),
    ];
    const doc = await ingestFile(new File([new Uint8Array(bytes)], 'ru.html'));
    expect([doc.text, doc.warnings]).toEqual(['Вер', []]);
  });

  it('count only the extracted text against maxChars, not the markup', async () => {
    const layout = '<div class="layout"></div>'.repeat(10);
    const short = `${layout}<p>Short text.</p>`;
    expect(short.length).toBeGreaterThan(100);
    expect((await ingestFile(new File([short], 'a.html'), { maxChars: 100 })).text).toBe('Short text.');
    const long = `${layout}<p>${'word '.repeat(30)}</p>`;
    await expect(ingestFile(new File([long], 'b.html'), { maxChars: 100 })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      details: { chars: 149, maxChars: 100 },
    });
  });

  it('refuse a page without visible text as NO_TEXT', async () => {
    const file = new File(
      ['<html><head><title>T</title></head><body><script>x()</script> </body></html>'],
      'a.htm',
    );
    await expect(ingestFile(file)).rejects.toMatchObject({ code: 'NO_TEXT' });
  });
});

describe('htmlToText with the tokenizer', () => {
  it('never reads the content of raw-text elements as markup or text', () => {
    expect(text('<SCRIPT>if (a<b) document.write("</div><p>x</p>")</script >after')).toBe('after');
    expect(text('<style>p::after { content: "</p>" }</style><p>shown</p>')).toBe('shown');
    expect(text('<textarea><p>typed</p></textarea><title>t</title>ok')).toBe('ok');
  });

  it('skips comments, doctypes, processing instructions and CDATA', () => {
    expect(text('<!DOCTYPE html><!-- <p>no</p> -->a<!-->b<!--->c<?xml x?>d<![CDATA[e]]>f')).toBe('abcdf');
  });

  it('reads tags whose quoted attribute values contain ">"', () => {
    expect(text('<a title="a > b" data-x=\'>\'>link</a> <img alt=">">text')).toBe('link text');
  });

  it('keeps a "<" that opens no tag', () => {
    expect(text('a < b and c <3 </ d')).toBe('a < b and c <3');
  });

  it('ends the head without its end tag at the first body element or text', () => {
    expect(text('<html><head><title>T</title><meta charset=utf-8><p>Body')).toBe('Body');
    expect(text('<head><link rel=x>Hello</head>')).toBe('Hello');
  });

  it('decodes character references as a browser does in text', () => {
    expect(text('&amp;amp; &copy2024 &notit; &#x1F989; &#xD800; &#150; &bogus; &#; &AMP &lang;')).toBe(
      '&amp; ©2024 ¬it; 🦉 \ufffd – &bogus; &#; & \u27e8',
    );
  });

  it('separates blocks by a blank line and keeps inline elements in the flow', () => {
    expect(text('<span>a</span><span>b</span> <em>c</em>')).toBe('ab c');
    expect(text('<div>one</div><div><div>two</div></div>three')).toBe('one\n\ntwo\n\nthree');
    expect(text('<h2>Heading without a full stop</h2>Next sentence')).toBe(
      'Heading without a full stop\n\nNext sentence',
    );
  });

  it('marks list items, numbering ordered lists from their start', () => {
    expect(text('<ol start="3"><li>x<li>y</ol><ul><li>z<ul><li>nested</ul></ul>')).toBe(
      '3. x\n4. y\n\n- z\n\n- nested',
    );
  });

  it('puts table rows on lines and cells apart by tabs', () => {
    expect(text('<table><tr><td>a<td>b<tr><th>c</th><td>d</table>')).toBe('a\tb\nc\td');
  });

  it('keeps preformatted whitespace, dropping the newline right after <pre>', () => {
    expect(text('<pre>\n  a  b\n\n c</pre><p>x   y</p>')).toBe('  a  b\n\n c\n\nx y');
  });

  it('turns <br> into a line break and two of them into a paragraph break', () => {
    expect(text('a<br>b<br/><br>c')).toBe('a\nb\n\nc');
  });

  it('hides template, svg, select and nested hidden content', () => {
    expect(text('<template><p>t<template>u</template>v</p></template>shown')).toBe('shown');
    expect(text('<svg><text>label</text><svg/></svg><select><option>o</select>visible')).toBe('visible');
  });

  it('handles deeply nested markup', () => {
    expect(text(`${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`)).toBe('deep');
  });
});

interface FakeNode extends DomNodeLike {
  children: FakeNode[];
}

/** A FAKE DOM node: the shape `walkDom` reads, built by hand the way a browser's parser would build it. */
function node(
  nodeType: number,
  nodeName: string,
  nodeValue: string | null,
  children: FakeNode[] = [],
  attrs = {},
) {
  const result: FakeNode = {
    nodeType,
    nodeName,
    nodeValue,
    children,
    get firstChild() {
      return children[0] ?? null;
    },
    nextSibling: null,
    getAttribute: (name: string) => (attrs as Record<string, string>)[name] ?? null,
  };
  children.forEach((child, i) => Object.assign(child, { nextSibling: children[i + 1] ?? null }));
  return result;
}
const el = (name: string, children: FakeNode[] = [], attrs = {}) =>
  node(1, name.toUpperCase(), null, children, attrs);
const txt = (value: string) => node(3, '#text', value);

describe('the DOM path', () => {
  it('gives the tokenizer’s text for the same document (walking a fake DOM)', () => {
    const html =
      '<html><head><title>T</title><style>p{}</style></head><body><h1>A &amp; B</h1><p>One <b>two</b>\n three</p>' +
      '<ol start="2"><li>x</li><li>y</li></ol><template><p>t</p></template><noscript><p>n</p></noscript>' +
      '<script>var a = "<p>";</script><pre>\n  pre  </pre><table><tr><td>c</td><td>d</td></tr></table>a<br>b</body></html>';
    // The tree a browser builds from `html`: references decoded, the newline after <pre> gone, template
    // content outside the tree (in template.content), noscript parsed as markup (scripting is off in DOMParser).
    const dom = el('html', [
      el('head', [el('title', [txt('T')]), el('style', [txt('p{}')])]),
      el('body', [
        el('h1', [txt('A & B')]),
        el('p', [txt('One '), el('b', [txt('two')]), txt('\n three')]),
        el('ol', [el('li', [txt('x')]), el('li', [txt('y')])], { start: '2' }),
        el('template'),
        el('noscript', [el('p', [txt('n')])]),
        el('script', [txt('var a = "<p>";')]),
        el('pre', [txt('  pre  ')]),
        el('table', [el('tbody', [el('tr', [el('td', [txt('c')]), el('td', [txt('d')])])])]),
        txt('a'),
        el('br'),
        txt('b'),
      ]),
    ]);
    const sink = new HtmlTextSink();
    walkDom(dom, sink);
    expect(sink.result()).toBe('A & B\n\nOne two three\n\n2. x\n3. y\n\n  pre  \n\nc\td\n\na\nb');
    expect(sink.result()).toBe(text(html));
  });
});
