import { describe, expect, it } from 'vitest';
import {
  count,
  describeNode,
  marksSummary,
  nodeKind,
  SPOKEN_TEXT_CHARS,
  truncateText,
} from '../../src/app/tree/describe';

describe('truncateText', () => {
  it('returns short text whole, with whitespace collapsed', () => {
    expect(truncateText('  a\n\n b\tc ', 20)).toBe('a b c');
  });

  it('cuts long text at a word boundary near the end and adds an ellipsis', () => {
    const out = truncateText('one two three four five six seven', 20);
    expect(out).toBe('one two three four…');
    expect(out.length).toBeLessThanOrEqual(20);
  });

  it('cuts inside a word when no space is near, never inside a surrogate pair', () => {
    expect(truncateText('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefghi…');
    const emoji = '😀'.repeat(10);
    const out = truncateText(emoji, 6);
    expect(out.endsWith('…')).toBe(true);
    // Every code unit before the ellipsis belongs to a whole emoji.
    expect(out.slice(0, -1).length % 2).toBe(0);
  });
});

describe('describeNode', () => {
  it('says what the node is, who selected it, its links and the start of its text', () => {
    const text = `Cinderella went to the ball. ${'x'.repeat(500)}`;
    const sentence = describeNode(
      { id: 7, layer: 2, text, children: [1, 2, 3] },
      [
        { mode: 'collapsed', rank: 3, score: 0.5 },
        { mode: 'traversal', rank: 1, score: 0.5 },
      ],
      1,
    );
    expect(
      sentence.startsWith(
        'Node 7. Summary, layer 2. Selected by Collapsed tree rank 3, Tree traversal rank 1.',
      ),
    ).toBe(true);
    expect(sentence).toContain('1 parent, 3 children.');
    expect(sentence).toContain('Cinderella went to the ball.');
    expect(sentence.length).toBeLessThan(200 + SPOKEN_TEXT_CHARS);
  });

  it('says when a leaf is not selected', () => {
    expect(describeNode({ id: 0, layer: 0, text: 'Hi.', children: [] }, undefined, 2)).toBe(
      'Node 0. Leaf. Not selected. 2 parents, 0 children. Hi.',
    );
  });

  it('has small helpers that read naturally', () => {
    expect(nodeKind(0)).toBe('Leaf');
    expect(count(1, 'child', 'children')).toBe('1 child');
    expect(marksSummary(undefined)).toBe('');
  });
});
