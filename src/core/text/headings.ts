/**
 * Headings in a text: the lines that name a chapter or section ("Chapter 34", "CHAPTER XII", "Chapter 1. The
 * Debian Project", "4.2.17. Selecting Packages", "Genesis 22", "## Installing"), so a passage can say where in a
 * book it sits. A heading is a paragraph of one line (a blank line or the text's edge before and after it), at
 * most `MAX_HEADING_CHARS` long, that is a markdown heading, opens with a word that names a division followed by
 * a number, opens with a section number of two or more parts and a capital, or is a capitalised word and a
 * number alone (the books of the Bible). A sentence that merely starts with "Chapter 7 describes …" is longer or
 * ends like a sentence, and a shell prompt ("# tar -xf …") in a listing has lines next to it: neither is one.
 */

/** Longest heading line. */
export const MAX_HEADING_CHARS = 80;
/** Longest title kept of a heading (a longer one is cut at a word, with "…"). */
const MAX_TITLE_CHARS = 48;

/** A line and the line breaks around it. */
const LINE = /[^\n\r\u2028\u2029]+/g;
const BLANK_BEFORE = /(?:^|\n[ \t]*\r?\n)[ \t]*$/;
const BLANK_AFTER = /^[ \t]*(?:$|\r?\n[ \t]*(?:\r?\n|$))/;
const DIVISION =
  /^(?:chapter|book|part|volume|vol\.|section|canto|act|scene|letter|appendix|psalm|stave|article)\s+(?:\d+|[ivxlcdm]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|first|second|third|fourth|fifth|last)\b/i;
const NAME_AND_NUMBER = /^\p{Lu}\p{L}+ \d{1,3}$/u;
const NUMBERED = /^\d{1,3}(?:\.\d{1,3})+\.?\s+\p{Lu}/u;
const MARKDOWN = /^ {0,3}#{1,6}[ \t]+(\S.*)$/;
/** A line ending like a sentence (a number's full stop, "Chapter 1.", does not count). */
const SENTENCE_END = /[\p{L})"'”’][.!?;,:]$/u;

/** One heading: where its line starts in the text and its title. */
export interface Heading {
  offset: number;
  title: string;
}

/** The title of a heading line, or undefined when the line is no heading. */
export function headingTitle(line: string): string | undefined {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.length > MAX_HEADING_CHARS) return undefined;
  const markdown = MARKDOWN.exec(trimmed);
  if (markdown) return shorten(markdown[1].replace(/[ \t]#+$/, '').trim());
  if (SENTENCE_END.test(trimmed)) return undefined;
  if (DIVISION.test(trimmed) || NAME_AND_NUMBER.test(trimmed) || NUMBERED.test(trimmed)) {
    return shorten(trimmed.replace(/\.$/, ''));
  }
  return undefined;
}

function shorten(title: string): string {
  if (title.length <= MAX_TITLE_CHARS) return title;
  const cut = title.slice(0, MAX_TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The headings of `text` in order (see the module comment). */
export function headingsIn(text: string): Heading[] {
  const headings: Heading[] = [];
  for (const match of text.matchAll(LINE)) {
    const end = match.index + match[0].length;
    if (!BLANK_BEFORE.test(text.slice(0, match.index)) || !BLANK_AFTER.test(text.slice(end, end + 8)))
      continue;
    const title = headingTitle(match[0]);
    if (title !== undefined) headings.push({ offset: match.index, title });
  }
  return headings;
}
