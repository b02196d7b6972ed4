import { describe, expect, it } from 'vitest';
import { count, marksSummary, nodeKind, truncateText } from '../../src/app/tree/describe';

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

describe('node descriptions', () => {
  it('has small helpers that read naturally', () => {
    expect(nodeKind(0)).toBe('Leaf');
    expect(count(1, 'child', 'children')).toBe('1 child');
    expect(marksSummary(undefined)).toBe('');
  });
});
