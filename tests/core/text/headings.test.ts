/**
 * Headings (src/core/text/headings.ts): the lines that name a chapter or section, as the books and documents
 * Aerie reads write them, and the lines that only look like one.
 */
import { describe, expect, it } from 'vitest';
import { headingsIn, headingTitle } from '../../../src/core/text/headings';

describe('headingTitle', () => {
  it('reads chapters, numbered sections, books of the Bible and markdown headings', () => {
    expect(headingTitle('Chapter 34')).toBe('Chapter 34');
    expect(headingTitle('CHAPTER XII')).toBe('CHAPTER XII');
    expect(headingTitle('Chapter 1. The Debian Project')).toBe('Chapter 1. The Debian Project');
    expect(headingTitle('4.2.17. Selecting Packages for Installation')).toBe(
      '4.2.17. Selecting Packages for Installation',
    );
    expect(headingTitle('Genesis 22')).toBe('Genesis 22');
    expect(headingTitle('## Installing the system ##')).toBe('Installing the system');
    expect(headingTitle('Chapter 2.')).toBe('Chapter 2');
  });

  it('leaves sentences, list items and long lines alone, and shortens a long title', () => {
    expect(headingTitle('Chapter 7 describes the tools.')).toBeUndefined();
    expect(headingTitle('1. Debian will remain 100% free.')).toBeUndefined();
    expect(headingTitle('Mr. Bennet replied that he had not.')).toBeUndefined();
    expect(headingTitle(`Chapter 3 ${'and so on '.repeat(10)}`)).toBeUndefined();
    const long = headingTitle('Chapter 3. Analyzing the Existing Setup and Migrating Everything Else');
    expect(long).toBe('Chapter 3. Analyzing the Existing Setup and…');
  });
});

describe('headingsIn', () => {
  it('finds headings that stand alone between blank lines, with their offsets', () => {
    const text =
      'PRIDE AND PREJUDICE\n\nChapter 1\n\nIt is a truth.\n\nChapter 2\n\nMr. Bennet was among the earliest.';
    expect(headingsIn(text)).toEqual([
      { offset: text.indexOf('Chapter 1'), title: 'Chapter 1' },
      { offset: text.indexOf('Chapter 2'), title: 'Chapter 2' },
    ]);
  });

  it('takes no shell prompt in a listing for a markdown heading', () => {
    const listing =
      'Run these:\n\n# ar x dpkg_1.20.9_amd64.deb\n# tar -C / -p -xJf data.tar.xz\n\nThen look.';
    expect(headingsIn(listing)).toEqual([]);
    expect(headingsIn('# Notes\n\nText.')).toEqual([{ offset: 0, title: 'Notes' }]);
  });
});
