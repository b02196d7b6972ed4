import { describe, expect, it } from 'vitest';
import { passageContext } from '../../src/app/document/passage';

const TEXT =
  'The king gave a ball. Cinderella lost her slipper on the stairs. The prince searched the kingdom for her.';

describe('passageContext', () => {
  it('splits the text into context before, the passage and context after', () => {
    const start = TEXT.indexOf('Cinderella');
    const end = TEXT.indexOf(' The prince');
    const c = passageContext(TEXT, start, end, 1000);
    expect(c.passage).toBe('Cinderella lost her slipper on the stairs.');
    expect(c.before + c.passage + c.after).toBe(TEXT);
    expect([c.clippedBefore, c.clippedAfter]).toEqual([false, false]);
  });

  it('cuts the context at word boundaries and says where it was clipped', () => {
    // "w00 w01 … w99": word i starts at 4i.
    const words = Array.from({ length: 100 }, (_, i) => `w${String(i).padStart(2, '0')}`).join(' ');
    const c = passageContext(words, 200, 203, 10);
    expect(c.passage).toBe('w50');
    expect(c.before).toBe('w48 w49 ');
    expect(c.after).toBe(' w51 w52');
    expect([c.clippedBefore, c.clippedAfter]).toEqual([true, true]);
  });

  it('keeps a cut that already falls on whitespace', () => {
    const start = TEXT.indexOf('Cinderella');
    const end = TEXT.indexOf(' The prince');
    expect(passageContext(TEXT, start, end, 20).after).toBe(' The prince searched');
  });

  it('clamps offsets outside the text and never inverts the range', () => {
    const c = passageContext('abc', -5, 99, 10);
    expect(c).toEqual({ before: '', passage: 'abc', after: '', clippedBefore: false, clippedAfter: false });
    expect(passageContext('abc', 2, 1, 10).passage).toBe('');
  });

  it('does not split a surrogate pair at a cut without spaces', () => {
    const text = `${'😀'.repeat(20)}X${'😀'.repeat(20)}`;
    const at = text.indexOf('X');
    const c = passageContext(text, at, at + 1, 5);
    expect(c.passage).toBe('X');
    expect(c.before.length % 2).toBe(0);
    expect(c.after.length % 2).toBe(0);
  });
});
